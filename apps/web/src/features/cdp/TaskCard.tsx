import { Button, Card, Descriptions, Space, Tag } from 'antd';
import { useNavigate } from 'react-router';
import { CYCLE_UNIT_LABELS, type DataTask } from '@shutu/contracts';
import { notifyError, notifySuccess } from '../../shared/notify.ts';
import { formatDateTime } from '../../shared/time.ts';
import { refreshTask } from './api.ts';
import { cm } from './messages.ts';

/** One data-configuration card per interface: log, request cycle, manual pull (dataType "0"), preview. */
export function TaskCard({ task, onCycle, onPreview, onPulled }: { task: DataTask; onCycle: () => void; onPreview: () => void; onPulled: () => void }) {
  const navigate = useNavigate();
  const pull = async () => {
    try {
      const res = await refreshTask(task.jobId);
      notifySuccess(res.msg);
      onPulled();
    } catch (error) {
      notifyError(error);
    }
  };
  return (
    <Card
      size="small"
      title={task.interfaceName}
      data-testid={`task-${task.tableName}`}
      actions={[
        <Button key="log" size="small" type="link" onClick={() => void navigate(`/cdp/join/log?id=${task.applyId}&taskId=${task.id}`)}>
          {cm.viewLog}
        </Button>,
        <Button key="cycle" size="small" type="link" onClick={onCycle}>
          {cm.cycleSetting}
        </Button>,
        ...(task.dataType === '0'
          ? [
              <Button key="pull" size="small" type="link" onClick={() => void pull()}>
                {cm.manualPull}
              </Button>,
            ]
          : []),
        <Button key="preview" size="small" type="link" onClick={onPreview}>
          {cm.preview}
        </Button>,
      ]}
    >
      <Descriptions size="small" column={1}>
        <Descriptions.Item label={cm.cycle}>
          {task.unit && task.value ? cm.cycleEvery(task.value, CYCLE_UNIT_LABELS[task.unit]) : cm.cycleNone}
        </Descriptions.Item>
        <Descriptions.Item label={cm.tableName}>{task.tableName}</Descriptions.Item>
        <Descriptions.Item label={cm.lastPull}>
          {task.lastPullTime ? (
            <Space size={4}>
              {formatDateTime(task.lastPullTime)}
              <Tag color={task.lastResult ? 'success' : 'error'}>{task.lastResult ? cm.normal : cm.abnormal}</Tag>
            </Space>
          ) : (
            cm.never
          )}
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}
