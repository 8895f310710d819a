import { Progress, Tag, Tooltip } from 'antd';
import type { ExportTask } from '@shutu/contracts';
import { em } from './messages.ts';

const COLORS: Record<ExportTask['status'], string> = { waiting: 'default', running: 'processing', done: 'success', failed: 'error' };

/** A task's state: a progress bar while it runs, else a tag (a failure shows its reason on hover). */
export function ExportStatus({ task, compact = false }: { task: Pick<ExportTask, 'status' | 'progress' | 'errMsg'>; compact?: boolean }) {
  if (task.status === 'running') {
    return (
      <Progress
        percent={task.progress}
        {...(compact ? { size: 'small' as const } : {})}
        status="active"
        style={{ minWidth: compact ? 90 : 140, margin: 0 }}
        data-testid="export-progress"
      />
    );
  }
  const tag = (
    <Tag color={COLORS[task.status]} data-testid="export-status" data-status={task.status} style={{ marginInlineEnd: 0 }}>
      {em.statusLabels[task.status]}
    </Tag>
  );
  return task.errMsg ? <Tooltip title={task.errMsg}>{tag}</Tooltip> : tag;
}
