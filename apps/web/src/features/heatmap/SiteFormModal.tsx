import { useEffect } from 'react';
import { Form, Input, InputNumber, Modal } from 'antd';
import { TRACK_RATE_LIMIT_DEFAULT, TRACK_RATE_LIMIT_MAX, TRACK_RETENTION_DEFAULT, TRACK_RETENTION_MAX, trackMessages, type TrackSite } from '@shutu/contracts';
import { smt } from './messages.ts';

export interface SiteFormValues {
  siteName: string;
  project: string;
  rateLimit: number;
  retentionDays: number;
}

/** Add or edit a tracked site: name, project, events per second, retention days. */
export function SiteFormModal({
  open,
  site,
  saving,
  onSave,
  onCancel,
}: {
  open: boolean;
  site: TrackSite | null;
  saving: boolean;
  onSave: (values: SiteFormValues) => void;
  onCancel: () => void;
}) {
  const [form] = Form.useForm<SiteFormValues>();
  useEffect(() => {
    if (!open) return;
    form.setFieldsValue(
      site
        ? { siteName: site.siteName, project: site.project, rateLimit: site.rateLimit, retentionDays: site.retentionDays }
        : { siteName: '', project: 'production', rateLimit: TRACK_RATE_LIMIT_DEFAULT, retentionDays: TRACK_RETENTION_DEFAULT },
    );
  }, [open, site, form]);

  return (
    <Modal
      open={open}
      title={site ? smt.edit : smt.add}
      okText={smt.ok}
      cancelText={smt.cancel}
      confirmLoading={saving}
      onCancel={onCancel}
      onOk={() => void form.validateFields().then(onSave)}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" data-testid="site-form">
        <Form.Item name="siteName" label={smt.siteName} rules={[{ required: true, whitespace: true, message: trackMessages.siteNameRequired }]}>
          <Input maxLength={100} data-testid="site-name" />
        </Form.Item>
        <Form.Item name="project" label={smt.project} rules={[{ required: true, whitespace: true, message: trackMessages.projectInvalid }]}>
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item name="rateLimit" label={smt.rateLimit} rules={[{ required: true, message: trackMessages.rateLimitInvalid }]}>
          <InputNumber min={1} max={TRACK_RATE_LIMIT_MAX} precision={0} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="retentionDays" label={smt.retentionDays} rules={[{ required: true, message: trackMessages.retentionInvalid }]}>
          <InputNumber min={1} max={TRACK_RETENTION_MAX} precision={0} style={{ width: 200 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
