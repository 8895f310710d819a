import type { ReactNode } from 'react';
import { Button, Card, Tag, Tooltip, Typography } from 'antd';
import {
  ApartmentOutlined,
  CheckOutlined,
  DeleteOutlined,
  EditOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  StopOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { PermGroup, PermMember } from '@shutu/contracts';
import { t } from '../../shared/messages.ts';

/** How many members of one kind a card shows before "+n". */
const SHOWN = 6;
const STRUCK = { textDecoration: 'line-through' } as const;

function MemberLine({
  icon,
  label,
  members,
  color,
  struck = false,
}: {
  icon: ReactNode;
  label: string;
  members: PermMember[];
  color: string;
  struck?: boolean;
}) {
  if (members.length === 0) return null;
  const rest = members.length - SHOWN;
  return (
    <div className="perm-member-line">
      <span className="perm-member-label">
        {icon}
        {label}
      </span>
      <span className="perm-member-tags">
        {members.slice(0, SHOWN).map((m) => (
          <Tag key={m.id} color={color} variant="filled" style={struck ? STRUCK : undefined} className={struck ? 'perm-black-tag' : undefined}>
            {m.name || `#${m.id}`}
          </Tag>
        ))}
        {rest > 0 && (
          <Tooltip
            title={members
              .slice(SHOWN)
              .map((m) => m.name)
              .join('、')}
          >
            <Tag variant="filled">{t.permMore(rest)}</Tag>
          </Tooltip>
        )}
      </span>
    </div>
  );
}

export type GroupCardMode = 'manage' | 'select';

interface Props {
  group: PermGroup;
  mode: GroupCardMode;
  onEdit?: () => void;
  onDelete?: () => void;
  onSetting?: () => void;
  onSelect?: () => void;
}

/** One permission group: name, type and members (black-listed users struck through). */
export function GroupCard({ group, mode, onEdit, onDelete, onSetting, onSelect }: Props) {
  const { dpList, roleList, userList, blackUserList } = group.permJson;
  const empty = dpList.length + roleList.length + userList.length + blackUserList.length === 0;
  const actions =
    mode === 'select'
      ? [
          <Button key="select" type="link" icon={<CheckOutlined />} onClick={onSelect}>
            {t.permSelect}
          </Button>,
        ]
      : [
          <Button key="setting" type="link" icon={<SettingOutlined />} onClick={onSetting}>
            {t.permSetting}
          </Button>,
          <Button key="edit" type="link" icon={<EditOutlined />} onClick={onEdit}>
            {t.edit}
          </Button>,
          <Button key="delete" type="link" danger icon={<DeleteOutlined />} onClick={onDelete}>
            {t.delete}
          </Button>,
        ];
  return (
    <Card
      className="perm-group-card"
      data-testid="perm-group-card"
      size="small"
      title={
        <span className="perm-group-title" title={group.permName}>
          {group.permName}
        </span>
      }
      extra={<Tag color="blue">{group.typeName}</Tag>}
      actions={actions}
    >
      <div className="perm-group-members">
        {empty ? (
          <Typography.Text type="secondary">{t.permNoMembers}</Typography.Text>
        ) : (
          <>
            <MemberLine icon={<ApartmentOutlined />} label={t.permDepts} members={dpList} color="geekblue" />
            <MemberLine icon={<SafetyCertificateOutlined />} label={t.permRoles} members={roleList} color="purple" />
            <MemberLine icon={<UserOutlined />} label={t.permUsers} members={userList} color="cyan" />
            <MemberLine icon={<StopOutlined />} label={t.permBlackUsers} members={blackUserList} color="default" struck />
          </>
        )}
      </div>
    </Card>
  );
}
