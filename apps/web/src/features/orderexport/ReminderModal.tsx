import { useEffect } from 'react';
import { Alert, Form, Input, Modal } from 'antd';
import { om } from './messages.ts';

/** 数据计算提醒: the task takes long; the user names it to find it in the list later. */
export function ReminderModal({ open, saving, onSave, onCancel }: { open: boolean; saving: boolean; onSave: (name: string) => void; onCancel: () => void }) {
  const [form] = Form.useForm<{ taskName: string }>();
  useEffect(() => {
    if (open) form.resetFields();
  }, [open, form]);
  return (
    <Modal
      title={om.reminderTitle}
      open={open}
      okText={om.ok}
      cancelText={om.cancel}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onCancel}
      destroyOnHidden
    >
      <Alert type="info" showIcon message={om.reminderText} style={{ marginBottom: 16 }} />
      <Form form={form} layout="vertical" onFinish={(v) => onSave(v.taskName.trim())}>
        <Form.Item name="taskName" label={om.taskName} rules={[{ required: true, whitespace: true, message: om.taskNameRequired }]}>
          <Input maxLength={100} autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
