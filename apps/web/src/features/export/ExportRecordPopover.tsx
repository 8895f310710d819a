import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Button, Empty, Input, Popover, Segmented, Spin } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { EXPORT_FILE_NAME_MAX_LENGTH, EXPORT_FORMATS, type ChartLinkValue, type ExportFormat, type ExportTask, type GlobalParamValues } from '@shutu/contracts';
import { notifyError, notifySuccess } from '../../shared/notify.ts';
import { createExport, downloadExport, exportKeys, fetchExportRecords, formatDateTime, pollWhileActive } from './api.ts';
import { ExportStatus } from './ExportStatus.tsx';
import { em } from './messages.ts';
import './export.css';

export interface ExportRecordPopoverProps {
  boardId: number;
  chartKey: string;
  /** The default file name (the chart's title). */
  chartTitle: string;
  /** The linked values applied to the chart right now: the export reads what the user sees. */
  links?: ChartLinkValue[];
  params?: GlobalParamValues;
  /** The trigger (the toolbar's 导出 button). */
  children: ReactNode;
  /** Opens at once: the user clicked 导出 while this component's code was still loading. */
  defaultOpen?: boolean;
}

/** The export path of the 任务管理 page (spec 1 §2.10). */
export const EXPORT_TASKS_PATH = '/newbi/mine/export';

/**
 * The 导出 tool of a chart (spec 1 §2.10, §7; every chart with data, docs/exports.md): a
 * popover 导出记录 with the format (Excel or CSV), the file name (the chart's title by
 * default), 点击导出 (a background task with the links and parameters of the chart now), the
 * user's latest 5 exports of this chart (refreshed every 2 s while one runs; 下载 once done)
 * and the link 任务管理.
 */
export function ExportRecordPopover({ boardId, chartKey, chartTitle, links = [], params = {}, children, defaultOpen = false }: ExportRecordPopoverProps) {
  const [open, setOpen] = useState(defaultOpen);
  const [fileName, setFileName] = useState(chartTitle);
  const [format, setFormat] = useState<ExportFormat>('xlsx');
  const queryClient = useQueryClient();
  const records = useQuery({
    queryKey: exportKeys.records(boardId, chartKey),
    queryFn: () => fetchExportRecords(boardId, chartKey),
    enabled: open,
    staleTime: 0,
    refetchInterval: (query) => pollWhileActive(query.state.data),
  });
  const start = useMutation({
    mutationFn: () => createExport({ boardId, chartKey, fileName: fileName.trim() || chartTitle, format, links, params }),
    onSuccess: async (result) => {
      notifySuccess(result.msg || em.submitted);
      await queryClient.invalidateQueries({ queryKey: exportKeys.all });
    },
    onError: notifyError,
  });
  const download = useMutation({ mutationFn: downloadExport, onError: notifyError });

  const list = records.data?.records ?? [];
  const content = (
    <div className="export-popover" data-testid="export-popover" onClick={(e) => e.stopPropagation()}>
      <Segmented<ExportFormat>
        block
        value={format}
        onChange={setFormat}
        options={EXPORT_FORMATS.map((f) => ({ value: f, label: em.formatLabels[f] }))}
        aria-label={em.format}
        data-testid="export-format"
        className="export-popover-format"
      />
      <div className="export-popover-form">
        <Input
          value={fileName}
          onChange={(e) => setFileName(e.target.value)}
          placeholder={em.fileNamePlaceholder}
          maxLength={EXPORT_FILE_NAME_MAX_LENGTH}
          suffix={`.${format}`}
          aria-label={em.fileName}
          data-testid="export-file-name"
          onPressEnter={() => start.mutate()}
        />
        <Button type="primary" loading={start.isPending} onClick={() => start.mutate()} data-testid="export-start">
          {em.exportNow}
        </Button>
      </div>
      <div className="export-popover-subtitle">{em.records}</div>
      {records.isLoading ? (
        <div className="export-popover-loading">
          <Spin size="small" />
        </div>
      ) : list.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={em.noRecords} />
      ) : (
        <ul className="export-records" data-testid="export-records">
          {list.map((task: ExportTask) => (
            <li key={task.id} className="export-record" data-testid="export-record" data-status={task.status}>
              <div className="export-record-main">
                <span className="export-record-name" title={task.fileName}>
                  {task.fileName}
                </span>
                <span className="export-record-time">{formatDateTime(task.createTime)}</span>
              </div>
              <div className="export-record-side">
                <ExportStatus task={task} compact />
                {task.status === 'done' && (
                  <Button type="link" size="small" onClick={() => download.mutate(task)} data-testid="export-download">
                    {em.download}
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <div className="export-popover-footer">
        <Link to={EXPORT_TASKS_PATH} data-testid="export-task-link">
          {em.taskManager}
        </Link>
      </div>
    </div>
  );

  return (
    <Popover
      title={em.popoverTitle}
      content={content}
      trigger="click"
      placement="bottomRight"
      open={open}
      onOpenChange={(next) => {
        if (next && !open) setFileName(chartTitle);
        setOpen(next);
      }}
      destroyOnHidden
    >
      <span className="export-trigger">{children}</span>
    </Popover>
  );
}
