import { Form, Input, Modal, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { fetchUsers, workflowKeys } from './api.ts';
import { wk } from './messages.ts';

export interface TransferValues {
  assigneeId: number;
  comment?: string;
}

/** 转交: another user takes the task over (not the caller). */
export function TransferDialog({
  open,
  selfAccount,
  onOk,
  onCancel,
}: {
  open: boolean;
  selfAccount?: string;
  onOk: (v: TransferValues) => Promise<void>;
  onCancel: () => void;
}) {
  const [form] = Form.useForm<TransferValues>();
  const users = useQuery({ queryKey: workflowKeys.users, queryFn: fetchUsers, enabled: open });
  return (
    <Modal
      open={open}
      title={wk.transferTitle}
      okText={wk.ok}
      cancelText={wk.cancel}
      destroyOnHidden
      onCancel={onCancel}
      onOk={async () => onOk(await form.validateFields())}
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item name="assigneeId" label={wk.transferTo} rules={[{ required: true, message: wk.transferTargetRequired }]}>
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={wk.transferTargetRequired}
            options={(users.data ?? []).filter((u) => u.account !== selfAccount).map((u) => ({ value: u.id, label: `${u.account}（${u.name}）` }))}
          />
        </Form.Item>
        <Form.Item name="comment" label={wk.transferComment}>
          <Input.TextArea rows={3} maxLength={500} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
