import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { App, Button, Checkbox, Input, Modal, Progress, Radio, Result, Space, Switch } from 'antd';
import { useMutation, useQuery } from '@tanstack/react-query';
import { PDF_SECONDS_PER_PAGE, type PptPdfTask, type PptVisual } from '@shutu/contracts';
import { errorText } from '../../../shared/notify.ts';
import { vm } from './messages.ts';
import { downloadPdf, fetchPdfTask, PDF_POLL_MS, pdfTaskKey, startPdfExport } from './pdf-api.ts';
import { pdfEstimate } from './viewer-rules.ts';

export interface PdfExportDialogProps {
  open: boolean;
  ppid: number;
  visuals: PptVisual[];
  currentId: number;
  /** The page's ?token= when it signs in with one (downloads send it). */
  token: string | null;
  onClose: () => void;
}

type PageType = 1 | 2 | 3;
const EXPORT_TASKS_PATH = '/newbi/mine/export';

/** Seconds since `from` (ms), ticking every second while `from` is set. */
function useElapsedSeconds(from: number | null, running: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (from === null || !running) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [from, running]);
  return from === null ? 0 : Math.max(0, Math.floor((now - from) / 1000));
}

/** The form: 当前页 / 全部 / 选择页 (with the dashboards to pick), watermark switch and text. */
function ExportForm(props: {
  visuals: PptVisual[];
  page: PageType | null;
  setPage: (p: PageType) => void;
  chosen: number[];
  setChosen: (ids: number[]) => void;
  watermark: boolean;
  setWatermark: (on: boolean) => void;
  text: string;
  setText: (t: string) => void;
}) {
  return (
    <div className="pptv-pdf-form" data-testid="ppt-pdf-form">
      <div className="pptv-pdf-row">
        <span className="pptv-pdf-label">{vm.pageType}</span>
        <Radio.Group value={props.page} onChange={(e) => props.setPage(e.target.value as PageType)} data-testid="ppt-pdf-page">
          <Radio value={1}>{vm.pageCurrent}</Radio>
          <Radio value={2}>{vm.pageAll}</Radio>
          <Radio value={3}>{vm.pageChosen}</Radio>
        </Radio.Group>
      </div>
      {props.page === 3 && (
        <div className="pptv-pdf-choose" data-testid="ppt-pdf-choose">
          <div className="pptv-pdf-hint">{vm.choosePages}</div>
          <Checkbox.Group value={props.chosen} onChange={(ids) => props.setChosen(ids as number[])}>
            <Space orientation="vertical">
              {props.visuals.map((v, i) => (
                <Checkbox key={v.id} value={v.id}>
                  {`${i + 1}. ${v.title}`}
                </Checkbox>
              ))}
            </Space>
          </Checkbox.Group>
        </div>
      )}
      <div className="pptv-pdf-row">
        <span className="pptv-pdf-label">{vm.watermark}</span>
        <Switch checked={props.watermark} onChange={props.setWatermark} data-testid="ppt-pdf-watermark" />
        {props.watermark && (
          <Input
            className="pptv-pdf-watermark-text"
            value={props.text}
            maxLength={50}
            placeholder={vm.watermarkPlaceholder}
            onChange={(e) => props.setText(e.target.value)}
            data-testid="ppt-pdf-watermark-text"
          />
        )}
      </div>
    </div>
  );
}

/** The running export: estimate (10 s a page, shown half to full), elapsed seconds, progress; then download or the failure. */
function ExportProgress({ task, startedAt, token }: { task: PptPdfTask; startedAt: number; token: string | null }) {
  const { message } = App.useApp();
  const running = task.status === 'waiting' || task.status === 'running';
  const elapsed = useElapsedSeconds(startedAt, running);
  const { half, full } = pdfEstimate(task.pages, PDF_SECONDS_PER_PAGE);
  const download = () => downloadPdf(task, token).catch((e: unknown) => message.error(errorText(e)));
  if (task.status === 'failed') {
    return <Result status="error" title={vm.failed} subTitle={<span data-testid="ppt-pdf-error">{task.errMsg ?? vm.failed}</span>} />;
  }
  if (task.status === 'done') {
    return (
      <Result
        status="success"
        title={vm.done}
        subTitle={`${task.fileName} · ${vm.elapsed(elapsed)}`}
        extra={
          <Button type="primary" onClick={download} data-testid="ppt-pdf-download">
            {vm.download}
          </Button>
        }
      />
    );
  }
  const percent = task.pages > 0 ? Math.round((task.rendered / task.pages) * 100) : 0;
  return (
    <div className="pptv-pdf-progress" data-testid="ppt-pdf-progress">
      <div className="pptv-pdf-progress-title">{vm.exporting}</div>
      <Progress percent={percent} status="active" />
      <Space size={16} wrap>
        <span data-testid="ppt-pdf-estimate">{vm.estimate(half, full)}</span>
        <span data-testid="ppt-pdf-elapsed">{vm.elapsed(elapsed)}</span>
        <span>{vm.progress(task.rendered, task.pages)}</span>
      </Space>
    </div>
  );
}

/** The range a new export starts from (docs/slideshows.md "Viewer and PDF"). */
const DEFAULT_PAGE: PageType = 2;

/**
 * 导出pdf (spec 1 §2.10, §4, §5): the range starts on 全部; 选择页 without a dashboard ticked
 * disables 开始导出 and says why beside it (the spec's 请选择导出类型！ stays as the guard). The
 * watermark text defaults to 保密. The server renders the dashboards; the dialog polls the task,
 * shows the estimate and an elapsed counter, and downloads the file when it is done; the task
 * is also listed in 任务管理 (linked from both states of the dialog).
 */
export function PdfExportDialog({ open, ppid, visuals, currentId, token, onClose }: PdfExportDialogProps) {
  const { message } = App.useApp();
  const [page, setPage] = useState<PageType | null>(DEFAULT_PAGE);
  const [chosen, setChosen] = useState<number[]>([]);
  const [watermark, setWatermark] = useState(true);
  const [text, setText] = useState<string>(vm.watermarkDefault);
  const [started, setStarted] = useState<{ taskId: string; at: number } | null>(null);

  const start = useMutation({
    mutationFn: () => {
      const pagelist = page === 1 ? [currentId] : page === 3 ? visuals.map((v) => v.id).filter((id) => chosen.includes(id)) : [];
      return startPdfExport(ppid, { page: page!, pagelist, watermark, shuiyin: text.trim() || vm.watermarkDefault });
    },
    onSuccess: (result) => setStarted({ taskId: result.data.id, at: Date.now() }),
    onError: (e: unknown) => void message.error(errorText(e)),
  });
  const task = useQuery({
    queryKey: pdfTaskKey(started?.taskId ?? ''),
    queryFn: () => fetchPdfTask(started!.taskId),
    enabled: started !== null,
    refetchInterval: (q) => (q.state.data && !['waiting', 'running'].includes(q.state.data.status) ? false : PDF_POLL_MS),
    staleTime: 0,
  });

  const submit = () => {
    if (page === null || (page === 3 && chosen.length === 0)) {
      void message.warning(vm.exportTypeRequired);
      return;
    }
    start.mutate();
  };
  const close = () => {
    setStarted(null);
    setPage(DEFAULT_PAGE);
    setChosen([]);
    start.reset();
    onClose();
  };
  const shown = task.data ?? (start.data ? start.data.data : null);
  const incomplete = page === null || (page === 3 && chosen.length === 0);
  const tasksLink = (
    <Link to={EXPORT_TASKS_PATH} className="pptv-pdf-tasks-link" data-testid="ppt-pdf-tasks-link">
      {vm.taskCenter}
    </Link>
  );
  const footer = started ? (
    <div className="pptv-pdf-footer">
      {tasksLink}
      <Button onClick={close}>{vm.close}</Button>
    </div>
  ) : (
    <div className="pptv-pdf-footer">
      {tasksLink}
      <Space>
        {incomplete && (
          <span className="pptv-pdf-submit-hint" data-testid="ppt-pdf-hint">
            {page === null ? vm.exportTypeRequired : vm.choosePagesHint}
          </span>
        )}
        <Button onClick={close}>{vm.cancel}</Button>
        <Button type="primary" loading={start.isPending} disabled={incomplete} onClick={submit} data-testid="ppt-pdf-submit">
          {vm.startExport}
        </Button>
      </Space>
    </div>
  );
  return (
    <Modal open={open} title={vm.exportTitle} onCancel={close} footer={footer} destroyOnHidden mask={{ closable: !started }} width={520}>
      {started && shown ? (
        <ExportProgress task={shown} startedAt={started.at} token={token} />
      ) : (
        <ExportForm
          visuals={visuals}
          page={page}
          setPage={setPage}
          chosen={chosen}
          setChosen={setChosen}
          watermark={watermark}
          setWatermark={setWatermark}
          text={text}
          setText={setText}
        />
      )}
    </Modal>
  );
}
