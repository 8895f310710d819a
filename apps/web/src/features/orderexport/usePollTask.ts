import { useEffect, useRef, useState } from 'react';
import { ORDER_EXPORT_MAX_POLLS, ORDER_EXPORT_POLL_MS, ORDER_EXPORT_STATUS, type OrderExportTask } from '@shutu/contracts';
import { fetchTask } from './api.ts';

const ENDED: readonly number[] = [
  ORDER_EXPORT_STATUS.usersFailed,
  ORDER_EXPORT_STATUS.extractFailed,
  ORDER_EXPORT_STATUS.fileFailed,
  ORDER_EXPORT_STATUS.fileDone,
];

export type PollOutcome = { kind: 'done' | 'failed' | 'slow'; task: OrderExportTask | null; taskId: number };

/**
 * Polls a task's details once a second (spec 3 §4): it ends at 9 (done) or a failed status,
 * or — after ORDER_EXPORT_MAX_POLLS polls without either — as 'slow' (the page then asks for a
 * task name). `polling` is the task being watched.
 */
export function usePollTask(onEnd: (outcome: PollOutcome) => void) {
  const [polling, setPolling] = useState<number | null>(null);
  const ended = useRef(onEnd);
  useEffect(() => {
    ended.current = onEnd;
  });

  useEffect(() => {
    if (polling === null) return;
    let polls = 0;
    let stopped = false;
    let last: OrderExportTask | null = null;
    const finish = (kind: PollOutcome['kind']) => {
      stopped = true;
      setPolling(null);
      ended.current({ kind, task: last, taskId: polling });
    };
    const tick = async () => {
      if (stopped) return;
      polls += 1;
      try {
        last = await fetchTask(polling);
      } catch {
        // A failed poll counts as one without completion.
      }
      if (stopped) return;
      if (last && ENDED.includes(last.taskStatus1)) return finish(last.taskStatus1 === ORDER_EXPORT_STATUS.fileDone ? 'done' : 'failed');
      if (polls >= ORDER_EXPORT_MAX_POLLS) return finish('slow');
      timer = setTimeout(tick, ORDER_EXPORT_POLL_MS);
    };
    let timer = setTimeout(tick, ORDER_EXPORT_POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [polling]);

  return { polling, start: setPolling };
}
