import { useState } from 'react';
import { Spin } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OrderQueryForm } from '@shutu/contracts';
import { notifyError, notifySuccess } from '../../shared/notify.ts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { orderKeys, renameTask, submitQuery } from './api.ts';
import { HistoryTable } from './HistoryTable.tsx';
import { om } from './messages.ts';
import { QueryForm } from './QueryForm.tsx';
import { ReminderModal } from './ReminderModal.tsx';
import { ResultTable } from './ResultTable.tsx';
import { usePollTask, type PollOutcome } from './usePollTask.ts';
import './orderexport.css';

/**
 * 订购数据导出 (spec 3 §2 "Order-data export page"; docs/order-export.md): the query form; a
 * submitted query is polled once a second under a loading mask; at 9 its rows show below and
 * the history refreshes; after 10 polls the 数据计算提醒 modal asks for a task name instead.
 */
export function OrderExportPage() {
  const queryClient = useQueryClient();
  const [resultTask, setResultTask] = useState<number | null>(null);
  const [slowTask, setSlowTask] = useState<{ taskId: number; conditionJson?: string } | null>(null);
  const refreshHistory = () => queryClient.invalidateQueries({ queryKey: [...orderKeys.all, 'history'] });

  const onEnd = (outcome: PollOutcome) => {
    void refreshHistory();
    if (outcome.kind === 'done') setResultTask(outcome.taskId);
    else if (outcome.kind === 'failed') notifyError(new Error(outcome.task?.errorMsg || outcome.task?.statusLabel || om.failedExtract));
    else setSlowTask({ taskId: outcome.taskId, conditionJson: outcome.task?.conditionJson });
  };
  const poll = usePollTask(onEnd);
  const submit = useMutation({
    mutationFn: ({ query, file }: { query: OrderQueryForm; file: File | null }) => submitQuery(query, file),
    onSuccess: (result) => {
      notifySuccess(result.msg || om.submitted);
      setResultTask(null);
      poll.start(result.data);
      void refreshHistory();
    },
    onError: notifyError,
  });
  const rename = useMutation({
    mutationFn: (name: string) => renameTask(slowTask!.taskId, name, slowTask!.conditionJson),
    onSuccess: (result) => {
      notifySuccess(result.msg || om.saved);
      setSlowTask(null);
      void refreshHistory();
    },
    onError: notifyError,
  });

  return (
    <PageContainer title={om.page} description={om.pageDesc}>
      <Spin spinning={poll.polling !== null} tip={om.computing}>
        <div className="order-card order-query">
          <QueryForm busy={submit.isPending || poll.polling !== null} onSubmit={(query, file) => submit.mutate({ query, file })} />
        </div>
      </Spin>
      {resultTask !== null && <ResultTable key={resultTask} taskId={resultTask} />}
      <HistoryTable onView={(task) => setResultTask(task.taskId)} />
      <ReminderModal open={slowTask !== null} saving={rename.isPending} onSave={(name) => rename.mutate(name)} onCancel={() => setSlowTask(null)} />
    </PageContainer>
  );
}
