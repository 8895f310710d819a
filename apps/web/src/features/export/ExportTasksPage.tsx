import { useState, type HTMLAttributes } from 'react';
import { Link } from 'react-router';
import { App, Button, Select, Space, Table, type TableColumnsType } from 'antd';
import { DeleteOutlined, DownloadOutlined, RedoOutlined, ReloadOutlined } from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { EXPORT_STATUSES, EXPORT_TASK_PAGE_SIZE, pptRoutes, TASK_KINDS, type ExportStatus as Status, type TaskEntry, type TaskKind } from '@shutu/contracts';
import { t } from '../../shared/messages.ts';
import { notifyError, notifySuccess } from '../../shared/notify.ts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import {
  deleteTaskEntry,
  downloadTaskEntry,
  exportKeys,
  fetchTaskEntries,
  formatDateTime,
  formatFileSize,
  pollWhileActive,
  retryTaskEntry,
  type ExportTaskParams,
} from './api.ts';
import { ExportStatus } from './ExportStatus.tsx';
import { em } from './messages.ts';
import './export.css';

const PAGE_SIZES = [10, 20, 50, 100];

/** Where a task's source opens: the board, or the slideshow. */
const sourcePath = (task: TaskEntry) => (task.kind === 'pdf' ? pptRoutes.view(task.sourceId) : `/newbi/preview/${task.sourceId}`);
const sameTask = (a: Pick<TaskEntry, 'kind' | 'id'> | undefined, b: TaskEntry) => a?.kind === b.kind && a.id === b.id;

/**
 * 任务管理 (/newbi/mine/export): the signed-in user's chart exports and slideshow PDFs in one
 * list, newest first (the server pages across both), with their progress (refreshed every 2 s
 * while one waits or runs), status and type filters, 下载, 删除, and 重试 for a failed task
 * (e.g. one a server restart interrupted).
 */
export function ExportTasksPage() {
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const [params, setParams] = useState<ExportTaskParams>({ current: 1, size: EXPORT_TASK_PAGE_SIZE });
  const tasks = useQuery({
    queryKey: exportKeys.entries(params),
    queryFn: () => fetchTaskEntries(params),
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchInterval: (query) => pollWhileActive(query.state.data),
  });
  const records = tasks.data?.records ?? [];

  const download = useMutation({ mutationFn: downloadTaskEntry, onError: notifyError });
  const remove = useMutation({
    mutationFn: deleteTaskEntry,
    onSuccess: async (result) => {
      notifySuccess(result.msg || em.deleted);
      if (params.current > 1 && records.length === 1) setParams((p) => ({ ...p, current: p.current - 1 }));
      await queryClient.invalidateQueries({ queryKey: exportKeys.all });
    },
    onError: notifyError,
  });
  const retry = useMutation({
    mutationFn: retryTaskEntry,
    onSuccess: async (result) => {
      notifySuccess(result.msg || em.resubmitted);
      await queryClient.invalidateQueries({ queryKey: exportKeys.all });
    },
    onError: notifyError,
  });
  const confirmRemove = (task: TaskEntry) =>
    modal.confirm({
      title: t.confirmTitle,
      content: em.confirmDelete,
      okText: t.confirm,
      cancelText: t.cancel,
      okButtonProps: { danger: true },
      onOk: () => remove.mutateAsync(task).catch(() => undefined),
    });

  const columns: TableColumnsType<TaskEntry> = [
    {
      title: em.colFileName,
      key: 'fileName',
      ellipsis: true,
      render: (_, task) => (
        <div className="export-file-cell">
          <span title={task.fileName}>{task.fileName}</span>
          {task.errMsg && <span className={task.status === 'failed' ? 'export-err' : 'export-record-time'}>{task.errMsg}</span>}
        </div>
      ),
    },
    { title: em.colKind, key: 'kind', width: 110, render: (_, task) => em.kindLabels[task.kind] },
    {
      title: em.colBoard,
      key: 'board',
      width: 180,
      ellipsis: true,
      render: (_, task) =>
        task.source === null ? (
          <span className="export-record-time">{task.kind === 'pdf' ? em.sourceDeleted : em.boardDeleted}</span>
        ) : (
          <Link to={sourcePath(task)}>{task.source}</Link>
        ),
    },
    { title: em.colStatus, key: 'status', width: 170, render: (_, task) => <ExportStatus task={task} /> },
    {
      title: em.colRows,
      key: 'rows',
      width: 120,
      align: 'right',
      render: (_, task) => (task.pages !== null ? em.pages(task.pages) : em.rows(task.rowCount ?? 0, task.status === 'done' ? null : task.totalRows)),
    },
    { title: em.colSize, key: 'size', width: 100, align: 'right', render: (_, task) => formatFileSize(task.fileSize) },
    { title: em.colCreated, key: 'createTime', width: 170, render: (_, task) => formatDateTime(task.createTime) },
    { title: em.colFinished, key: 'finishTime', width: 170, render: (_, task) => formatDateTime(task.finishTime) },
    {
      title: em.colActions,
      key: 'actions',
      width: 220,
      render: (_, task) => (
        <Space size={0}>
          <Button
            type="link"
            size="small"
            icon={<DownloadOutlined />}
            disabled={task.status !== 'done'}
            onClick={() => download.mutate(task)}
            data-testid="task-download"
          >
            {em.download}
          </Button>
          {task.status === 'failed' && (
            <Button
              type="link"
              size="small"
              icon={<RedoOutlined />}
              loading={retry.isPending && sameTask(retry.variables, task)}
              onClick={() => retry.mutate(task)}
              data-testid="task-retry"
            >
              {em.retry}
            </Button>
          )}
          <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={() => confirmRemove(task)} data-testid="task-delete">
            {em.delete}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <PageContainer title={em.pageTitle} description={em.pageDesc}>
      <div className="table-toolbar">
        <Select<Status | 'all'>
          value={params.status ?? 'all'}
          style={{ width: 160 }}
          aria-label={em.statusFilter}
          data-testid="task-status-filter"
          options={[{ value: 'all', label: em.allStatuses }, ...EXPORT_STATUSES.map((s) => ({ value: s, label: em.statusLabels[s] }))]}
          onChange={(value) => setParams((p) => ({ ...p, current: 1, status: value === 'all' ? undefined : value }))}
        />
        <Select<TaskKind | 'all'>
          value={params.kind ?? 'all'}
          style={{ width: 140 }}
          aria-label={em.kindFilter}
          data-testid="task-kind-filter"
          options={[{ value: 'all', label: em.allKinds }, ...TASK_KINDS.map((k) => ({ value: k, label: em.kindLabels[k] }))]}
          onChange={(value) => setParams((p) => ({ ...p, current: 1, kind: value === 'all' ? undefined : value }))}
        />
        <Button icon={<ReloadOutlined />} onClick={() => void tasks.refetch()}>
          {em.refresh}
        </Button>
      </div>
      <Table<TaskEntry>
        rowKey={(task) => `${task.kind}:${task.id}`}
        size="middle"
        columns={columns}
        dataSource={records}
        loading={tasks.isLoading}
        data-testid="export-tasks"
        onRow={(task) => ({ 'data-testid': 'export-task-row', 'data-status': task.status, 'data-kind': task.kind }) as HTMLAttributes<HTMLElement>}
        pagination={{
          current: params.current,
          pageSize: params.size,
          total: tasks.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZES.map(String),
          showTotal: em.total,
          onChange: (current, size) => setParams((p) => ({ ...p, current: size !== p.size ? 1 : current, size })),
        }}
      />
    </PageContainer>
  );
}
