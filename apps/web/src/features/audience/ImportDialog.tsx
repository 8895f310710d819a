import { useState } from 'react';
import { Button, DatePicker, Form, Input, Modal, Radio, Upload, type UploadFile } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { AUDIENCE_IMPORT_EXTENSIONS, type AudienceImportResult } from '@shutu/contracts';
import { notifyError, notifySuccess } from '../../shared/notify.ts';
import { importAudience } from './api.ts';
import { aum, fmt } from './messages.ts';

interface Values {
  name: string;
  userGroupStatus: 0 | 1;
  months?: [Dayjs, Dayjs];
}

const lastMonth = () => dayjs().subtract(1, 'month');

/**
 * 新建导入人群 (spec 3 §2 "Import-user-group dialog", §4 "Group import", §5 "Import group"): one
 * xlsx / xls / txt file of phone numbers, the name, the analysis option (default 不创建) and its
 * month range (default last month). The answer's valid / invalid / duplicate counts are shown.
 */
export function ImportDialog({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: (r: AudienceImportResult) => void }) {
  const [form] = Form.useForm<Values>();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<AudienceImportResult | null>(null);
  const analysis = Form.useWatch('userGroupStatus', form);

  const submit = async () => {
    const values = await form.validateFields();
    const file = files[0]?.originFileObj;
    if (!file) return notifyError(new Error(aum.importFileRequired));
    const data = new FormData();
    data.set('name', values.name);
    data.set('userGroupStatus', String(values.userGroupStatus));
    if (values.userGroupStatus === 1 && values.months) {
      data.set('startAnalyseDate', values.months[0].format('YYYY-MM'));
      data.set('endAnalyseDate', values.months[1].format('YYYY-MM'));
    }
    data.set('file', file, file.name);
    setBusy(true);
    try {
      const r = await importAudience(data);
      notifySuccess(r.msg);
      setResult(r.data);
      onDone(r.data);
    } catch (error) {
      notifyError(error);
    } finally {
      setBusy(false);
    }
  };
  const close = () => {
    form.resetFields();
    setFiles([]);
    setResult(null);
    onClose();
  };

  return (
    <Modal
      title={aum.importTitle}
      open={open}
      onCancel={close}
      onOk={result ? close : submit}
      confirmLoading={busy}
      destroyOnHidden
      data-testid="audience-import"
    >
      <Form form={form} layout="vertical" initialValues={{ userGroupStatus: 0, months: [lastMonth(), lastMonth()] }}>
        <Form.Item name="name" label={aum.name} rules={[{ required: true, whitespace: true, message: aum.importNameRequired }]}>
          <Input maxLength={100} data-testid="audience-import-name" />
        </Form.Item>
        <Form.Item label={aum.file} required>
          <Upload
            accept={AUDIENCE_IMPORT_EXTENSIONS.map((e) => `.${e}`).join(',')}
            maxCount={1}
            fileList={files}
            beforeUpload={(file) => {
              const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
              if (!(AUDIENCE_IMPORT_EXTENSIONS as readonly string[]).includes(ext)) {
                notifyError(new Error(aum.importFileType));
                return Upload.LIST_IGNORE;
              }
              return false; // sent with the form
            }}
            onChange={({ fileList }) => setFiles(fileList.slice(-1))}
          >
            <Button icon={<UploadOutlined />} data-testid="audience-import-file">
              {aum.chooseFile}
            </Button>
          </Upload>
        </Form.Item>
        <Form.Item name="userGroupStatus" label={aum.analysis}>
          <Radio.Group
            options={[
              { value: 0, label: aum.analysisNo },
              { value: 1, label: aum.analysisYes },
            ]}
          />
        </Form.Item>
        {analysis === 1 && (
          <Form.Item name="months" label={aum.analysisMonths}>
            <DatePicker.RangePicker picker="month" format="YYYY-MM" allowClear={false} />
          </Form.Item>
        )}
      </Form>
      {result && (
        <div className="audience-import-result" data-testid="audience-import-result">
          {fmt(aum.importResult, { valid: result.valid, invalid: result.invalid, duplicate: result.duplicate })}
        </div>
      )}
    </Modal>
  );
}
