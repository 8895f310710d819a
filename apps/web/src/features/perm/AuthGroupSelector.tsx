import { useState } from 'react';
import { Button, Modal, Space, Typography } from 'antd';
import { TeamOutlined } from '@ant-design/icons';
import { t } from '../../shared/messages.ts';
import { useUserInfo } from '../../shared/session.ts';
import { AuthGroupPanel } from './AuthGroupPanel.tsx';

/** A chosen permission group: its id and the name shown. */
export interface ChosenGroup {
  id: number;
  name: string;
}

interface Props {
  value?: ChosenGroup | null;
  onChange?: (group: ChosenGroup) => void;
}

/**
 * Auth-group selector (spec 2 §2, §6): shows the chosen group's name; administrators get a
 * 选择 button opening the group panel in select mode. Usable as a controlled form field.
 */
export function AuthGroupSelector({ value, onChange }: Props) {
  const { data: me } = useUserInfo();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Space className="auth-group-selector" data-testid="auth-group-selector">
        <TeamOutlined className="auth-group-selector-icon" />
        {value ? (
          <Typography.Text strong data-testid="auth-group-selected">
            {value.name}
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary" data-testid="auth-group-selected">
            {t.permNotSelected}
          </Typography.Text>
        )}
        {me?.isAdministrator && (
          <Button size="small" onClick={() => setOpen(true)}>
            {t.permSelect}
          </Button>
        )}
      </Space>
      <Modal open={open} title={t.permSelectTitle} width={1100} footer={null} destroyOnHidden onCancel={() => setOpen(false)}>
        <AuthGroupPanel
          mode="select"
          onSelect={(group) => {
            onChange?.({ id: group.id, name: group.permName });
            setOpen(false);
          }}
        />
      </Modal>
    </>
  );
}
