import { Empty, Timeline } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { formatMessage } from '@shutu/contracts';
import { formatDateTime } from '../../shared/time.ts';
import { fetchHistory, workflowKeys } from './api.ts';
import { wk } from './messages.ts';

/** 流程跟踪 (historyFlowList): who did which step when, how long it took, and what they wrote. */
export function HistoryTimeline({ processInstanceId }: { processInstanceId: string }) {
  const history = useQuery({ queryKey: workflowKeys.history(processInstanceId), queryFn: () => fetchHistory(processInstanceId) });
  if (history.data?.length === 0) return <Empty />;
  return (
    <Timeline
      className="work-timeline"
      items={(history.data ?? []).map((h) => ({
        key: h.id,
        color: h.endTime ? 'green' : 'orange',
        content: (
          <div className="work-timeline-item">
            <div className="work-timeline-head">
              <strong>{h.historyActivityName}</strong>
              {h.assigneeName && <span className="work-timeline-who">{h.assigneeName}</span>}
            </div>
            <div className="work-timeline-meta">
              {formatDateTime(h.createTime)}
              {h.endTime && ` → ${formatDateTime(h.endTime)}`}
              {h.historyActivityDurationTime && ` · ${formatMessage(wk.duration, { duration: h.historyActivityDurationTime })}`}
            </div>
            {h.comment && <div className="work-timeline-comment">{h.comment}</div>}
          </div>
        ),
      }))}
    />
  );
}
