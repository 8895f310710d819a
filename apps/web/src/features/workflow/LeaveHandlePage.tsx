import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Input, Result, Space } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { formatMessage, WORK_START_PATH, WORKFLOW_STATUS_LABELS } from '@shutu/contracts';
import { ApiError } from '../../shared/api.ts';
import { notifyError, notifySuccess, notifyWarning } from '../../shared/notify.ts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { useUserInfo } from '../../shared/session.ts';
import { completeTask, fetchHistory, fetchLeaveDetail, transferTask, workflowKeys } from './api.ts';
import { DiagramImage } from './DiagramImage.tsx';
import { HistoryTimeline } from './HistoryTimeline.tsx';
import { leaveFinished } from './leave-finished.ts';
import { wk } from './messages.ts';
import { TransferDialog, type TransferValues } from './TransferDialog.tsx';
import './workflow.css';

/** 请假审批 (spec 3 §2 "Leave-approval page"): taskId, processInstanceId and businessId in the query. */
export function LeaveHandlePage() {
  const [params] = useSearchParams();
  const taskId = params.get('taskId') ?? '';
  const processInstanceId = params.get('processInstanceId') ?? '';
  const businessId = params.get('businessId') ?? '';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data: me } = useUserInfo();
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const [transferring, setTransferring] = useState(false);
  const detail = useQuery({ queryKey: workflowKeys.detail(businessId), queryFn: () => fetchLeaveDetail(businessId), enabled: !!businessId });
  const history = useQuery({ queryKey: workflowKeys.history(processInstanceId), queryFn: () => fetchHistory(processInstanceId), enabled: !!processInstanceId });
  if (!processInstanceId || !businessId) return <Result status="warning" title={wk.missingParams} />;
  if (detail.isError) return <Result status="warning" title={(detail.error as Error).message} />;
  const leave = detail.data;
  const canDecide = !!leave && leave.flow.mine && leave.flow.taskId === taskId;

  const done = (message: string) => {
    notifySuccess(message);
    void queryClient.invalidateQueries({ queryKey: workflowKeys.all });
    leaveFinished(navigate);
  };
  const decide = async (approve: boolean) => {
    if (!comment.trim()) return notifyWarning(wk.commentRequired);
    setBusy(true);
    try {
      const result = await completeTask({ taskId, processInstanceId, comment: comment.trim(), ...(approve ? { flag: 'ok' as const } : {}) });
      done(result.msg);
    } catch (error) {
      notifyError(error instanceof ApiError && error.message ? error : new Error(wk.submitFailed));
    } finally {
      setBusy(false);
    }
  };
  const transfer = async (values: TransferValues) => {
    try {
      const result = await transferTask({ taskId, ...values });
      setTransferring(false);
      done(result.msg);
    } catch (error) {
      notifyError(error);
      throw error;
    }
  };

  return (
    <PageContainer title={wk.pageLeaveHandle}>
      <div className="work-handle">
        <Card title={wk.basicGroup} loading={detail.isLoading}>
          {leave && (
            <Descriptions column={2} bordered size="small">
              <Descriptions.Item label={wk.applicant}>{leave.applicantName}</Descriptions.Item>
              <Descriptions.Item label={wk.colStatus}>{WORKFLOW_STATUS_LABELS[leave.status]}</Descriptions.Item>
              <Descriptions.Item label={wk.startTime}>{leave.startTime}</Descriptions.Item>
              <Descriptions.Item label={wk.endTime}>{leave.endTime}</Descriptions.Item>
              <Descriptions.Item label={wk.reason} span={2}>
                {leave.reason}
              </Descriptions.Item>
            </Descriptions>
          )}
          {leave && !canDecide && (
            <Alert
              className="work-handle-note"
              type="info"
              showIcon
              title={
                leave.status === 'running'
                  ? formatMessage(wk.notYours, { name: leave.flow.assigneeName })
                  : formatMessage(wk.decided, { status: WORKFLOW_STATUS_LABELS[leave.status] })
              }
            />
          )}
          {canDecide && (
            <div className="work-comment">
              <label htmlFor="work-comment">{wk.comment}</label>
              <Input.TextArea
                id="work-comment"
                rows={3}
                maxLength={500}
                showCount
                value={comment}
                onChange={(e) => setComment(e.target.value)}
                placeholder={wk.commentPlaceholder}
              />
            </div>
          )}
          <Space className="work-actions">
            {canDecide && (
              <>
                <Button type="primary" loading={busy} onClick={() => void decide(true)}>
                  {wk.agree}
                </Button>
                <Button danger loading={busy} onClick={() => void decide(false)}>
                  {wk.reject}
                </Button>
                <Button onClick={() => setTransferring(true)}>{wk.transfer}</Button>
              </>
            )}
            <Button onClick={() => void navigate(WORK_START_PATH)}>{wk.close}</Button>
          </Space>
        </Card>
        <Card title={wk.history}>
          <HistoryTimeline processInstanceId={processInstanceId} />
        </Card>
        <Card title={wk.diagram} className="work-diagram-card">
          <DiagramImage processInstanceId={processInstanceId} version={history.data?.length ?? 0} />
        </Card>
      </div>
      <TransferDialog open={transferring} selfAccount={me?.account} onOk={transfer} onCancel={() => setTransferring(false)} />
    </PageContainer>
  );
}
