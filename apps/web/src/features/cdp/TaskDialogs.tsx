import { useState } from 'react';
import { Form, InputNumber, Modal, Select, Table } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { CYCLE_UNIT_LABELS, CYCLE_UNITS, type CycleUnit, type DataTask } from '@shutu/contracts';
import { notifyError, notifySuccess } from '../../shared/notify.ts';
import { cdpKeys, fetchTaskData, updateTask } from './api.ts';
import { cm } from './messages.ts';

/** 请求周期设置: unit (day/hour/minute/second) and value. */
export function CycleDialog({ task, onClose, onSaved }: { task: DataTask; onClose: () => void; onSaved: () => void }) {
  const [form] = Form.useForm<{ unit: CycleUnit; value: number }>();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    // A failed validation shows its messages on the fields; nothing to send.
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setBusy(true);
    try {
      const res = await updateTask(task.id, values.unit, values.value);
      notifySuccess(res.msg);
      onSaved();
      onClose();
    } catch (error) {
      notifyError(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal title={`${cm.cycleSetting} · ${task.interfaceName}`} open onCancel={onClose} onOk={() => void submit()} confirmLoading={busy} destroyOnHidden>
      <Form form={form} layout="inline" initialValues={{ unit: task.unit ?? 'hour', value: task.value ?? 1 }}>
        <Form.Item name="value" label={cm.value} rules={[{ required: true, message: cm.cycleValueRequired }]}>
          <InputNumber min={1} max={100000} precision={0} />
        </Form.Item>
        <Form.Item name="unit" label={cm.unit} rules={[{ required: true, message: cm.cycleUnitRequired }]}>
          <Select style={{ width: 100 }} options={CYCLE_UNITS.map((u) => ({ value: u, label: CYCLE_UNIT_LABELS[u] }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 数据预览: the app's rows of the interface's warehouse table, paged. */
export function PreviewDialog({ task, onClose }: { task: DataTask; onClose: () => void }) {
  const [page, setPage] = useState({ current: 1, size: 10 });
  const params = { applyId: task.applyId, interfaceDictId: task.interfaceDictId, ...page };
  const data = useQuery({ queryKey: cdpKeys.taskData(params), queryFn: () => fetchTaskData(params), placeholderData: keepPreviousData });
  const columns = (data.data?.column ?? []).map((c) => ({
    key: c.prop,
    title: c.label,
    dataIndex: c.prop,
    ellipsis: true,
    render: (v: unknown) => (v === null || v === undefined ? '' : String(v)),
  }));
  return (
    <Modal title={`${cm.preview} · ${task.interfaceName}`} open onCancel={onClose} footer={null} width={960} destroyOnHidden>
      <Table
        rowKey={(_, i) => String(i)}
        size="small"
        scroll={{ x: true }}
        columns={columns}
        dataSource={data.data?.data ?? []}
        loading={data.isFetching}
        pagination={{
          current: page.current,
          pageSize: page.size,
          total: data.data?.count ?? 0,
          showSizeChanger: true,
          pageSizeOptions: ['10', '20', '50', '100'],
          onChange: (current, size) => setPage({ current, size }),
        }}
      />
    </Modal>
  );
}
