import { useState } from 'react';
import { Button, Table, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { AiLog } from '@shutu/contracts';
import { formatDateTime } from '../../shared/time.ts';
import { aiKeys, fetchAiLogs } from '../ai/index.ts';

const lt = {
  show: '查看最近的 AI 调用',
  hide: '收起调用记录',
  time: '时间',
  user: '用户',
  purpose: '用途',
  sql: '生成 SQL',
  formula: '生成公式',
  tokens: 'Token（输入/输出）',
  attempts: '次数',
  duration: '耗时',
  outcome: '结果',
  accepted: '已采用',
  outcomes: { running: '进行中', ok: '成功', failed: '未通过校验', error: '调用失败' },
} as const;

const OUTCOME_COLORS = { running: 'processing', ok: 'success', failed: 'warning', error: 'error' } as const;

/** The call log (user, purpose, tokens, duration, accepted) — no prompt, answer or key is kept. */
export function AiLogTable() {
  const [open, setOpen] = useState(false);
  const logs = useQuery({ queryKey: aiKeys.logs, queryFn: fetchAiLogs, enabled: open });
  return (
    <div data-testid="ai-logs">
      <Button type="link" style={{ paddingLeft: 0 }} onClick={() => setOpen(!open)}>
        {open ? lt.hide : lt.show}
      </Button>
      {open && (
        <Table<AiLog>
          size="small"
          rowKey="id"
          loading={logs.isPending}
          dataSource={logs.data ?? []}
          pagination={{ pageSize: 10, showSizeChanger: false }}
          columns={[
            { title: lt.time, dataIndex: 'createTime', width: 170, render: (v: string) => formatDateTime(v) },
            { title: lt.user, dataIndex: 'userName', width: 120 },
            { title: lt.purpose, dataIndex: 'purpose', width: 90, render: (v: AiLog['purpose']) => lt[v] },
            { title: lt.tokens, key: 'tokens', width: 130, render: (_, r) => `${r.promptTokens} / ${r.completionTokens}` },
            { title: lt.attempts, dataIndex: 'attempts', width: 60 },
            { title: lt.duration, dataIndex: 'durationMs', width: 90, render: (v: number) => `${(v / 1000).toFixed(1)} s` },
            {
              title: lt.outcome,
              dataIndex: 'outcome',
              width: 110,
              render: (v: AiLog['outcome'], r) => (
                <Tag color={OUTCOME_COLORS[v]} title={r.error ?? undefined}>
                  {lt.outcomes[v]}
                </Tag>
              ),
            },
            { title: lt.accepted, dataIndex: 'accepted', width: 70, render: (v: boolean) => (v ? '是' : '否') },
          ]}
        />
      )}
    </div>
  );
}
