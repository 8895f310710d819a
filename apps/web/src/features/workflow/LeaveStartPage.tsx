import { useState } from 'react';
import { Button, Card, DatePicker, Form, Input, Result, Select, Space } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import type { Dayjs } from 'dayjs';
import { WORK_START_PATH } from '@shutu/contracts';
import { ApiError } from '../../shared/api.ts';
import { notifyError, notifySuccess } from '../../shared/notify.ts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { useUserInfo } from '../../shared/session.ts';
import { fetchUsers, startLeave, workflowKeys } from './api.ts';
import { wk } from './messages.ts';
import { leaveFinished } from './leave-finished.ts';
import './workflow.css';

const FORMAT = 'YYYY-MM-DD HH:mm:ss';
const BLUR = ['onBlur', 'onChange'];

interface Values {
  taskUser?: number;
  startTime?: Dayjs;
  endTime?: Dayjs;
  reason?: string;
}

/** 请假申请 (spec 3 §2 "Leave-request start form"): processDefinitionId in the query; every field checked on blur. */
export function LeaveStartPage() {
  const [params] = useSearchParams();
  const processDefinitionId = params.get('processDefinitionId') ?? '';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const users = useQuery({ queryKey: workflowKeys.users, queryFn: fetchUsers });
  const { data: me } = useUserInfo();
  if (!processDefinitionId) return <Result status="warning" title={wk.missingParams} />;

  const submit = async (values: Values) => {
    setSaving(true);
    try {
      const result = await startLeave({
        processDefinitionId,
        taskUser: values.taskUser!,
        startTime: values.startTime!.format(FORMAT),
        endTime: values.endTime!.format(FORMAT),
        reason: values.reason!.trim(),
      });
      notifySuccess(result.msg || wk.started);
      void queryClient.invalidateQueries({ queryKey: workflowKeys.all });
      leaveFinished(navigate);
    } catch (error) {
      notifyError(error instanceof ApiError && error.message ? error : new Error(wk.submitFailed));
    } finally {
      setSaving(false);
    }
  };

  return (
    <PageContainer title={wk.pageLeaveStart}>
      <Card className="work-form-card" title={wk.basicGroup}>
        <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} requiredMark className="work-form">
          <Form.Item name="taskUser" label={wk.approver} validateTrigger={BLUR} rules={[{ required: true, message: wk.approverRequired }]}>
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              placeholder={wk.approverPlaceholder}
              loading={users.isLoading}
              // The applicant cannot approve their own request (the server refuses it too).
              options={(users.data ?? []).filter((u) => u.account !== me?.account).map((u) => ({ value: u.id, label: u.account }))}
            />
          </Form.Item>
          <Space size="large" wrap>
            <Form.Item name="startTime" label={wk.startTime} validateTrigger={BLUR} rules={[{ required: true, message: wk.startRequired }]}>
              <DatePicker showTime format={FORMAT} placeholder={wk.startRequired} />
            </Form.Item>
            <Form.Item
              name="endTime"
              label={wk.endTime}
              validateTrigger={BLUR}
              dependencies={['startTime']}
              rules={[
                { required: true, message: wk.endRequired },
                ({ getFieldValue }) => ({
                  validator: (_, end?: Dayjs) => {
                    const start = getFieldValue('startTime') as Dayjs | undefined;
                    return end && start && end.isBefore(start) ? Promise.reject(new Error(wk.endBeforeStart)) : Promise.resolve();
                  },
                }),
              ]}
            >
              <DatePicker showTime format={FORMAT} placeholder={wk.endRequired} />
            </Form.Item>
          </Space>
          <Form.Item name="reason" label={wk.reason} validateTrigger={BLUR} rules={[{ required: true, whitespace: true, message: wk.reasonRequired }]}>
            <Input.TextArea rows={4} maxLength={500} showCount placeholder={wk.reasonPlaceholder} />
          </Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" loading={saving}>
              {wk.submit}
            </Button>
            <Button onClick={() => void navigate(WORK_START_PATH)}>{wk.close}</Button>
          </Space>
        </Form>
      </Card>
    </PageContainer>
  );
}
