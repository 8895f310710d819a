import { useState } from 'react';
import { Button, Card, Checkbox, Empty, Input, Space, Spin, Tag, Typography } from 'antd';
import { SaveOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { GrantTabProps } from '../perm/grant-tabs.tsx';
import { notifySuccess } from '../../app/notify.ts';
import { fetchAllPpts, fetchGroupPptAuth, pptKeys, saveGroupPptAuth } from './api.ts';
import { pm, pt } from './messages.ts';
import './ppt.css';

/**
 * The 幻灯片 tab of 权限设置 (/system/authGroupSetting): every slideshow, the group's grants
 * ticked; 全选 (the filtered ones), 清空, 保存 (replaces the group's slideshow grants).
 */
export function PptGrantTab({ groupId }: GrantTabProps) {
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState('');
  const ppts = useQuery({ queryKey: [...pptKeys.listAll, 'grant'], queryFn: fetchAllPpts, staleTime: 0 });
  const granted = useQuery({ queryKey: pptKeys.groupAuth(groupId), queryFn: () => fetchGroupPptAuth(groupId), staleTime: 0 });
  const [checked, setChecked] = useState<Set<number> | null>(null);
  const ticks = checked ?? new Set(granted.data ?? []);
  const all = ppts.data ?? [];
  const keyword = filter.trim().toLowerCase();
  const visible = all.filter((p) => !keyword || p.ppName.toLowerCase().includes(keyword));
  const ticked = all.filter((p) => ticks.has(p.id)).map((p) => p.id);

  const save = useMutation({
    mutationFn: () => saveGroupPptAuth(groupId, ticked),
    onSuccess: async (res) => {
      notifySuccess(res.msg || pm.saved);
      setChecked(null);
      await queryClient.invalidateQueries({ queryKey: pptKeys.groupAuthAll });
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
      title={pt.tabPpt}
      data-testid="ppt-grant"
      extra={
        <Typography.Text type="secondary" data-testid="ppt-grant-count">
          {pt.grantTitle(ticked.length, all.length)}
        </Typography.Text>
      }
    >
      <div className="grant-toolbar">
        <Input.Search className="grant-table-search" placeholder={pt.grantSearch} aria-label={pt.grantSearch} allowClear onChange={(e) => setFilter(e.target.value)} />
        <Space>
          <Button onClick={() => setChecked(new Set([...ticks, ...visible.map((p) => p.id)]))} disabled={visible.length === 0}>
            {pt.selectAll}
          </Button>
          <Button onClick={() => setChecked(new Set())} disabled={ticked.length === 0}>
            {pt.clear}
          </Button>
          <Button type="primary" icon={<SaveOutlined />} loading={save.isPending} disabled={!granted.isSuccess || !ppts.isSuccess} onClick={() => save.mutate()}>
            {pt.save}
          </Button>
        </Space>
      </div>
      <Spin spinning={ppts.isFetching || granted.isFetching}>
        {visible.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={pt.grantNone} />
        ) : (
          <div className="ppt-grant-list">
            {visible.map((p) => (
              <div
                key={p.id}
                className={`ppt-grant-item${ticks.has(p.id) ? ' is-checked' : ''}`}
                data-testid="grant-ppt"
                data-name={p.ppName}
                onClick={() => toggle(p.id, !ticks.has(p.id))}
              >
                <Checkbox checked={ticks.has(p.id)} onClick={(e) => e.stopPropagation()} onChange={(e) => toggle(p.id, e.target.checked)} aria-label={p.ppName} />
                <Typography.Text ellipsis={{ tooltip: p.ppName }}>{p.ppName}</Typography.Text>
                {p.publicStatus === 1 && <Tag color="green">{pt.public}</Tag>}
              </div>
            ))}
          </div>
        )}
      </Spin>
    </Card>
  );
}
