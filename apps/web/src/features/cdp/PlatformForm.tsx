import { useState } from 'react';
import { Button, Form, Input, Modal, Select, Space, Typography } from 'antd';
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { ACCESS_TYPES, INTERFACE_KINDS, PLATFORM_TYPES, type PlatformType, type PlatformTypeInput } from '@shutu/contracts';
import { notifyError, notifySuccess } from '../../shared/notify.ts';
import { savePlatform } from './api.ts';
import { cm } from './messages.ts';

const options = (labels: Record<number | string, string>) =>
  Object.entries(labels).map(([value, label]) => ({ value: Number.isNaN(Number(value)) ? value : Number(value), label }));

const EMPTY: PlatformTypeInput = {
  platformName: '',
  platformType: 0,
  accessType: 0,
  accessUrl: '/api/cdp/auth/url',
  apiBaseUrl: 'https://api.weixin.qq.com',
  authPageUrl: 'https://mp.weixin.qq.com/cgi-bin/componentloginpage',
  interfaces: [],
};

/** The platform-type editor: names, types, URLs, the open-platform app id and secrets (write-only), interfaces. */
export function PlatformForm({ platform, onClose, onSaved }: { platform: PlatformType | null; onClose: () => void; onSaved: () => void }) {
  const [form] = Form.useForm<PlatformTypeInput>();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    // A failed validation shows its messages on the fields; nothing to send.
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setBusy(true);
    try {
      // The form has no data-source field: keep the type's (set through the API).
      const res = await savePlatform({ ...values, id: platform?.id, datasourceId: platform?.datasourceId ?? null, interfaces: values.interfaces ?? [] });
      notifySuccess(res.msg);
      onSaved();
      onClose();
    } catch (error) {
      notifyError(error);
    } finally {
      setBusy(false);
    }
  };
  const initial = platform ? { ...platform, componentAppSecret: '', messageToken: '' } : EMPTY;
  const ticketUrl = platform ? `${window.location.origin}/api/cdp/ticket/${platform.id}` : '';
  return (
    <Modal
      title={platform ? platform.platformName : cm.add}
      open
      onCancel={onClose}
      onOk={() => void submit()}
      confirmLoading={busy}
      width={720}
      destroyOnHidden
    >
      <Form form={form} layout="horizontal" labelCol={{ span: 6 }} initialValues={initial}>
        <Form.Item name="platformName" label={cm.platformName} rules={[{ required: true, whitespace: true, message: cm.platformNameRequired }]}>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item name="platformType" label={cm.platformType}>
          <Select options={options(PLATFORM_TYPES)} />
        </Form.Item>
        <Form.Item name="accessType" label={cm.accessType}>
          <Select options={options(ACCESS_TYPES)} />
        </Form.Item>
        <Form.Item
          name="accessUrl"
          label={cm.accessUrl}
          rules={[
            { required: true, message: cm.accessUrlRequired },
            { pattern: /^\/api\/[A-Za-z0-9/_-]+$/, message: cm.accessUrlInvalid },
          ]}
        >
          <Input maxLength={300} />
        </Form.Item>
        <Form.Item name="apiBaseUrl" label={cm.apiBaseUrl} rules={[{ required: true, pattern: /^https?:\/\/\S+$/, message: cm.apiBaseUrlInvalid }]}>
          <Input maxLength={300} />
        </Form.Item>
        <Form.Item name="authPageUrl" label={cm.authPageUrl} rules={[{ required: true, pattern: /^https?:\/\/\S+$/, message: cm.apiBaseUrlInvalid }]}>
          <Input maxLength={300} />
        </Form.Item>
        <Form.Item name="componentAppId" label={cm.componentAppId}>
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item name="componentAppSecret" label={cm.componentAppSecret}>
          <Input.Password maxLength={200} autoComplete="new-password" placeholder={platform?.hasAppSecret ? cm.secretKept : ''} />
        </Form.Item>
        <Form.Item name="messageToken" label={cm.messageToken}>
          <Input.Password maxLength={200} autoComplete="new-password" placeholder={platform?.hasMessageToken ? cm.secretKept : ''} />
        </Form.Item>
        {platform && (
          <Form.Item label={cm.ticketUrl}>
            <Typography.Text copyable>{ticketUrl}</Typography.Text>
          </Form.Item>
        )}
        <Typography.Title level={5}>{cm.interfaces}</Typography.Title>
        <Form.List name="interfaces">
          {(fields, { add, remove }) => (
            <>
              {fields.map((field) => (
                <Space key={field.key} align="baseline" wrap>
                  <Form.Item name={[field.name, 'id']} hidden>
                    <Input />
                  </Form.Item>
                  <Form.Item name={[field.name, 'interfaceName']} rules={[{ required: true, whitespace: true, message: cm.interfaceNameRequired }]}>
                    <Input placeholder={cm.interfaceName} style={{ width: 140 }} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'kind']} rules={[{ required: true, message: cm.kind }]}>
                    <Select placeholder={cm.kind} options={options(INTERFACE_KINDS)} style={{ width: 140 }} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'dataType']} initialValue="0">
                    <Select options={options(cm.dataTypes)} style={{ width: 110 }} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'tableName']} rules={[{ required: true, pattern: /^[a-z][a-z0-9_]{0,62}$/, message: cm.tableNameInvalid }]}>
                    <Input placeholder={cm.tableName} style={{ width: 150 }} />
                  </Form.Item>
                  <MinusCircleOutlined aria-label={cm.delete} onClick={() => remove(field.name)} />
                </Space>
              ))}
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ dataType: '0' })}>
                {cm.addInterface}
              </Button>
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}
