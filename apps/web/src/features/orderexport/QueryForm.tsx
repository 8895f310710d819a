import { useState } from 'react';
import { Button, Checkbox, DatePicker, Form, Input, Radio, Select, Space, Upload } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import {
  formatMessage,
  ORDER_ADDON_COLUMNS,
  ORDER_OUTPUT_COLUMNS,
  ORDER_OUTPUT_DEFAULTS,
  ORDER_EXPORT_PHONE_MAX_LENGTH,
  type OrderQueryForm,
} from '@shutu/contracts';
import { notifyWarning } from '../../shared/notify.ts';
import { fetchMaxRows, orderKeys } from './api.ts';
import { FilterFields, useProvinces } from './FilterFields.tsx';
import { defaultMonths, monthsTooLong, toQuery, type FormValues } from './form-values.ts';
import { om } from './messages.ts';

const required = [{ required: true, message: om.required }];
const INITIAL: Partial<FormValues> = { utype: 1, CUsertype: 1, outputs: [...ORDER_OUTPUT_DEFAULTS], months: defaultMonths(), addOn: [] };
const countLines = async (file: File) => (await file.text()).split(/\r?\n/).filter((l) => l.trim()).length;

/**
 * The order-data query form (spec 3 §2, §5): changing the user scope clears the whole form,
 * changing the user category clears the dates and channels; a batch is a txt of at most the
 * server's maxrows lines; add-on months span at most six.
 */
export function QueryForm({ busy, onSubmit }: { busy: boolean; onSubmit: (query: OrderQueryForm, file: File | null) => void }) {
  const [form] = Form.useForm<FormValues>();
  const [file, setFile] = useState<File | null>(null);
  const maxRows = useQuery({ queryKey: [...orderKeys.options, 'maxrows'], queryFn: fetchMaxRows, staleTime: 300_000 });
  const provinces = useProvinces();
  const utype = Form.useWatch('utype', form) ?? 1;
  const cancelling = Form.useWatch('CUsertype', form) === 2;
  const addOn = Form.useWatch('addOn', form) ?? [];

  const pickFile = async (picked: File) => {
    if (!picked.name.toLowerCase().endsWith('.txt')) {
      notifyWarning(om.txtOnly);
      return Upload.LIST_IGNORE;
    }
    const max = maxRows.data ?? 1_000_000;
    if ((await countLines(picked)) > max) {
      notifyWarning(formatMessage(om.tooManyPhones, { max }));
      return Upload.LIST_IGNORE;
    }
    setFile(picked);
    return false;
  };
  const submit = (values: FormValues) => {
    if (values.utype === 2 && !file) return notifyWarning(`${om.required}${om.batchFile}`);
    onSubmit(toQuery(values, provinces), values.utype === 2 ? file : null);
  };
  const onValuesChange = (changed: Partial<FormValues>) => {
    if ('utype' in changed) {
      form.resetFields();
      form.setFieldsValue({ utype: changed.utype });
      setFile(null);
    }
    if ('CUsertype' in changed) form.setFieldsValue({ days: null, channels: [], belongs: [] });
    if (changed.months && monthsTooLong(changed.months)) {
      notifyWarning(om.monthRangeTooLong);
      form.setFieldsValue({ months: null });
    }
  };

  return (
    <Form form={form} layout="vertical" initialValues={INITIAL} onFinish={submit} onValuesChange={onValuesChange} className="order-form" aria-label={om.page}>
      <div className="order-form-grid">
        <Form.Item name="utype" label={om.scope} rules={required}>
          <Select options={Object.entries(om.scopes).map(([value, label]) => ({ value: Number(value), label }))} />
        </Form.Item>
        <Form.Item name="CUsertype" label={om.userType} rules={required}>
          <Radio.Group options={Object.entries(om.userTypes).map(([value, label]) => ({ value: Number(value), label }))} optionType="button" />
        </Form.Item>
        {utype === 1 && (
          <Form.Item name="userId" label={om.phone} rules={required}>
            <Input maxLength={ORDER_EXPORT_PHONE_MAX_LENGTH} placeholder={om.phonePlaceholder} allowClear />
          </Form.Item>
        )}
        {utype === 2 && (
          <Form.Item label={om.batchFile} required extra={formatMessage(om.batchHint, { max: (maxRows.data ?? 1_000_000).toLocaleString('zh-CN') })}>
            <Upload
              accept=".txt"
              maxCount={1}
              beforeUpload={pickFile}
              onRemove={() => setFile(null)}
              fileList={file ? [{ uid: '1', name: file.name, status: 'done' }] : []}
            >
              <Button icon={<UploadOutlined />}>{om.pickFile}</Button>
            </Upload>
          </Form.Item>
        )}
        <Form.Item name="days" label={cancelling ? om.cancelDays : om.orderDays}>
          <DatePicker.RangePicker style={{ width: '100%' }} />
        </Form.Item>
        <FilterFields cancelling={cancelling} />
        <Form.Item name="addOn" label={om.addOn}>
          <Checkbox.Group options={ORDER_ADDON_COLUMNS.map((c) => ({ value: c.flag, label: om[c.flag] }))} />
        </Form.Item>
        {addOn.length > 0 && (
          <Form.Item name="months" label={om.addOnMonths} rules={required}>
            <DatePicker.RangePicker picker="month" style={{ width: '100%' }} />
          </Form.Item>
        )}
        <Form.Item name="mcomment" label={om.taskName}>
          <Input maxLength={100} placeholder={om.taskNamePlaceholder} allowClear />
        </Form.Item>
      </div>
      <Form.Item name="outputs" label={om.outputs}>
        <Checkbox.Group options={ORDER_OUTPUT_COLUMNS.map((c) => ({ value: c.flag, label: c.title }))} />
      </Form.Item>
      <Space>
        <Button type="primary" htmlType="submit" loading={busy}>
          {om.submit}
        </Button>
        <Button onClick={() => (form.resetFields(), setFile(null))}>{om.reset}</Button>
      </Space>
    </Form>
  );
}
