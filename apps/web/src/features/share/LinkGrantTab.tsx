import { useState } from 'react';
import { Alert, Button, Card, Checkbox, Empty, Input, Space, Spin, Tag, Typography } from 'antd';
import { SaveOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ShareLink } from '@shutu/contracts';
import { notifySuccess } from '../../app/notify.ts';
import type { GrantTabProps } from '../perm/grant-tabs.tsx';
import { fetchAccountLinks, fetchShareAuth, formatDateTime, saveShareAuth, shareKeys } from './api.ts';
import { sm } from './messages.ts';
import './share.css';

function LinkItem({ link, checked, onToggle }: { link: ShareLink; checked: boolean; onToggle: (on: boolean) => void }) {
  const meta = [
    sm.dataTypeLabels[link.dataType],
    link.purpose,
    link.createUserName,
    link.expireTime ? `${sm.expiry} ${formatDateTime(link.expireTime)}` : sm.forever,
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <div
      className={`share-grant-item${checked ? ' is-checked' : ''}`}
      data-testid="grant-link"
      data-title={link.visualDataTitle}
      onClick={() => onToggle(!checked)}
    >
      <Checkbox checked={checked} onClick={(e) => e.stopPropagation()} onChange={(e) => onToggle(e.target.checked)} aria-label={link.visualDataTitle} />
      <div className="share-grant-item-body">
        <span className="share-grant-item-title" title={link.visualDataTitle}>
          {link.visualDataTitle} {!link.enabled && <Tag>{sm.statusOff}</Tag>}
          {link.enabled && link.expired && <Tag color="orange">{sm.statusExpired}</Tag>}
        </span>
        <span className="share-grant-item-meta" title={meta}>
          {meta}
        </span>
      </div>
    </div>
  );
}

/**
 * 第三方链接 (spec 1 §2.6, the share-authorisation panel of a permission group): the
 * account-matching share links with the group's ticked; filter, 全选, 清空, 保存 (the group's
 * links become exactly the ticked ones). A link granted to groups opens only for their members.
 */
export function LinkGrantTab({ groupId, groupName }: GrantTabProps) {
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState('');
  const links = useQuery({ queryKey: shareKeys.accountLinks, queryFn: fetchAccountLinks, staleTime: 0 });
  const granted = useQuery({ queryKey: shareKeys.auth(groupId), queryFn: () => fetchShareAuth(groupId), staleTime: 0 });
  const [checked, setChecked] = useState<Set<number> | null>(null);
  const ticks = checked ?? new Set(granted.data ?? []);
  const all = links.data ?? [];
  const keyword = filter.trim().toLowerCase();
  const visible = all.filter((l) => !keyword || l.visualDataTitle.toLowerCase().includes(keyword) || l.purpose.toLowerCase().includes(keyword));
  const ticked = all.filter((l) => ticks.has(l.id)).map((l) => l.id);

  const save = useMutation({
    mutationFn: () => saveShareAuth({ dataPermId: groupId, linkIdList: ticked }),
    onSuccess: async (res) => {
      notifySuccess(res.msg || sm.saved);
      setChecked(null);
      await queryClient.invalidateQueries({ queryKey: shareKeys.auth(groupId) });
    },
  });
  const toggle = (id: number, on: boolean) => {
    const next = new Set(ticks);
    if (on) next.add(id);
    else next.delete(id);
    setChecked(next);
  };

  return (
    <Card
      size="small"
      title={sm.grantTitle(groupName)}
      data-testid="link-grant"
      extra={
        <Typography.Text type="secondary" data-testid="grant-link-count">
          {sm.grantCount(ticked.length, all.length)}
        </Typography.Text>
      }
    >
      <Alert className="share-grant-hint" type="info" showIcon title={sm.grantHint} />
      <div className="grant-toolbar">
        <Input.Search
          className="grant-table-search"
          placeholder={sm.grantSearch}
          aria-label={sm.grantSearch}
          allowClear
          onChange={(e) => setFilter(e.target.value)}
        />
        <Space>
          <Button onClick={() => setChecked(new Set([...ticks, ...visible.map((l) => l.id)]))} disabled={visible.length === 0} data-testid="grant-link-all">
            {sm.selectAll}
          </Button>
          <Button onClick={() => setChecked(new Set())} disabled={ticked.length === 0}>
            {sm.clear}
          </Button>
          <Button
            type="primary"
            icon={<SaveOutlined />}
            loading={save.isPending}
            disabled={!granted.isSuccess || !links.isSuccess}
            onClick={() => save.mutate()}
            data-testid="grant-link-save"
          >
            {sm.save}
          </Button>
        </Space>
      </div>
      <Spin spinning={links.isFetching || granted.isFetching}>
        {visible.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={sm.grantEmpty} />
        ) : (
          <div className="share-grant-list" data-testid="grant-link-list">
            {visible.map((l) => (
              <LinkItem key={l.id} link={l} checked={ticks.has(l.id)} onToggle={(on) => toggle(l.id, on)} />
            ))}
          </div>
        )}
      </Spin>
    </Card>
  );
}
