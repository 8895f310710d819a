import { App, Button, Space, Table, Tag, type TableColumnsType } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { LEAVE_HANDLE_PATH, WORKFLOW_STATUS_LABELS, type Page, type WorkItem, type WorkflowStatus } from '@shutu/contracts';
import { notifyError, notifySuccess } from '../../shared/notify.ts';
import { formatDateTime } from '../../shared/time.ts';
import { withdraw, workflowKeys, type WorkListKind } from './api.ts';
import { wk } from './messages.ts';

const STATUS_COLORS: Record<WorkflowStatus, string> = { running: 'processing', approved: 'success', rejected: 'error', withdrawn: 'default' };
const EMPTY: Record<WorkListKind, string> = { todo: wk.todoEmpty, send: wk.sendEmpty, done: wk.doneEmpty };

export function handlePath(row: Pick<WorkItem, 'taskId' | 'processInstanceId' | 'businessId'>): string {
  const query = new URLSearchParams({ taskId: row.taskId ?? '', processInstanceId: row.processInstanceId, businessId: row.businessId });
  return `${LEAVE_HANDLE_PATH}?${query.toString()}`;
}

/** One workbench list: to-dos open the approval page, requests can be withdrawn while undecided. */
export function WorkTable({
  kind,
  page,
  loading,
  onPage,
}: {
  kind: WorkListKind;
  page: Page<WorkItem> | undefined;
  loading: boolean;
  onPage: (current: number, size: number) => void;
}) {
  const navigate = useNavigate();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const withdrawing = useMutation({
    mutationFn: withdraw,
    onSuccess: (result) => {
      notifySuccess(result.msg);
      void queryClient.invalidateQueries({ queryKey: workflowKeys.all });
    },
    onError: notifyError,
  });
  const columns: TableColumnsType<WorkItem> = [
    { key: 'process', title: wk.colProcess, dataIndex: 'processDefinitionName' },
    { key: 'starter', title: wk.colStarter, dataIndex: 'starterName' },
    { key: 'activity', title: wk.colActivity, render: (_, r) => r.activityName ?? '—' },
    ...(kind === 'done' ? [{ key: 'comment', title: wk.colComment, render: (_: unknown, r: WorkItem) => r.comment ?? '—' }] : []),
    ...(kind === 'send'
      ? [{ key: 'assignee', title: wk.colAssignee, render: (_: unknown, r: WorkItem) => (r.status === 'running' ? (r.assigneeName ?? '—') : '—') }]
      : []),
    { key: 'status', title: wk.colStatus, render: (_, r) => <Tag color={STATUS_COLORS[r.status]}>{WORKFLOW_STATUS_LABELS[r.status]}</Tag> },
    { key: 'create', title: wk.colCreate, render: (_, r) => formatDateTime(r.createTime) },
    { key: 'end', title: wk.colEnd, render: (_, r) => (r.endTime ? formatDateTime(r.endTime) : '—') },
    {
      key: 'action',
      title: wk.colAction,
      render: (_, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => void navigate(handlePath(kind === 'todo' ? r : { ...r, taskId: null }))}>
            {kind === 'todo' ? wk.handle : wk.view}
          </Button>
          {kind === 'send' && r.status === 'running' && (
            <Button
              type="link"
              size="small"
              danger
              onClick={() => modal.confirm({ title: wk.withdraw, content: wk.withdrawConfirm, onOk: () => withdrawing.mutateAsync(r.processInstanceId) })}
            >
              {wk.withdraw}
            </Button>
          )}
        </Space>
      ),
    },
  ];
  return (
    <Table<WorkItem>
      rowKey={(r) => `${r.processInstanceId}:${r.taskId ?? ''}`}
      size="middle"
      columns={columns}
      dataSource={page?.records ?? []}
      loading={loading}
      pagination={{
        current: page?.current ?? 1,
        pageSize: page?.size ?? 10,
        total: page?.total ?? 0,
        showSizeChanger: true,
        pageSizeOptions: [10, 20, 50, 100],
        hideOnSinglePage: (page?.total ?? 0) <= 10,
        onChange: onPage,
      }}
      locale={{ emptyText: EMPTY[kind] }}
    />
  );
}
