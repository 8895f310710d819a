import { useState } from 'react';
import { Alert, App, Button, Form, Input, InputNumber, Modal, Popconfirm, Select, Space, Switch, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { DATA_API_DEFAULT_RATE_LIMIT, type DataApiAccessKey } from '@shutu/contracts';
import { errorText } from '../../../shared/notify.ts';
import { formatDateTime } from '../../../shared/time.ts';
import { createAccessKey, dataApiKeys, deleteAccessKey, fetchAccessKeys, fetchDataApis, updateAccessKey, type AccessKeyForm } from '../api.ts';
import { am } from '../messages.ts';

/** Access keys (administrators): create (the secret shown this once), scope to APIs, disable, delete. */
export function AccessKeysTab() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: dataApiKeys.keys, queryFn: fetchAccessKeys });
  const apis = useQuery({ queryKey: dataApiKeys.list({ size: 1000 }), queryFn: () => fetchDataApis({ current: 1, size: 1000 }) });
  const [editing, setEditing] = useState<DataApiAccessKey | 'new' | null>(null);
  const [created, setCreated] = useState<{ accessKey: string; secret: string } | null>(null);
  const [form] = Form.useForm<AccessKeyForm>();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: dataApiKeys.keys });
  const act = async (run: () => Promise<{ msg: string }>) => {
    try {
      message.success((await run()).msg || am.done);
      refresh();
    } catch (e) {
      message.error(errorText(e));
    }
  };
  const apiName = (id: number) => apis.data?.records.find((a) => a.id === id)?.apiName ?? `#${id}`;
  const open = (key: DataApiAccessKey | 'new') => {
    setEditing(key);
    form.setFieldsValue(
      key === 'new'
        ? { keyName: '', apiIds: [], rateLimit: DATA_API_DEFAULT_RATE_LIMIT }
        : { keyName: key.keyName, apiIds: key.apiIds, rateLimit: key.rateLimit },
    );
  };
  const submit = async () => {
    let values: AccessKeyForm;
    try {
      values = await form.validateFields();
    } catch {
      return; // the form shows what is missing
    }
    try {
      if (editing === 'new') {
        const { data } = await createAccessKey(values);
        setCreated({ accessKey: data.accessKey, secret: data.secret });
      } else if (editing) {
        message.success((await updateAccessKey(editing.id, values)).msg);
      }
      setEditing(null);
      refresh();
    } catch (e) {
      message.error(errorText(e));
    }
  };

  const columns: TableColumnsType<DataApiAccessKey> = [
    { title: am.keyName, dataIndex: 'keyName' },
    {
      title: am.accessKey,
      dataIndex: 'accessKey',
      render: (k: string) => (
        <Typography.Text copyable code>
          {k}
        </Typography.Text>
      ),
    },
    { title: am.keyApis, key: 'apis', render: (_, k) => k.apiIds.map((id) => <Tag key={id}>{apiName(id)}</Tag>) },
    { title: am.rateLimit, dataIndex: 'rateLimit', width: 120 },
    {
      title: am.enabled,
      key: 'enabled',
      width: 80,
      render: (_, k) => <Switch size="small" checked={k.enabled} onChange={(enabled) => act(() => updateAccessKey(k.id, { enabled }))} />,
    },
    { title: am.lastUsed, key: 'lastUsed', width: 170, render: (_, k) => (k.lastUsedTime ? formatDateTime(k.lastUsedTime) : '-') },
    {
      title: am.colActions,
      key: 'actions',
      width: 120,
      render: (_, k) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => open(k)}>
            {am.edit}
          </Button>
          <Popconfirm title={am.deleteConfirm} onConfirm={() => act(() => deleteAccessKey(k.id))}>
            <Button type="link" size="small" danger>
              {am.delete}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => open('new')} style={{ marginBottom: 16 }} data-testid="dataapi-new-key">
        {am.newKey}
      </Button>
      <Table<DataApiAccessKey>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={keys.data ?? []}
        loading={keys.isFetching}
        locale={{ emptyText: am.noKeys }}
        pagination={false}
      />
      <Modal
        open={editing !== null}
        title={editing === 'new' ? am.newKey : am.edit}
        onCancel={() => setEditing(null)}
        onOk={submit}
        destroyOnHidden
        forceRender
      >
        <Form form={form} layout="vertical">
          <Form.Item name="keyName" label={am.keyName} rules={[{ required: true, whitespace: true, message: am.keyNameRequired }]}>
            <Input maxLength={100} data-testid="dataapi-key-name" />
          </Form.Item>
          <Form.Item name="apiIds" label={am.keyApis} extra={am.keyApisHint}>
            <Select
              mode="multiple"
              optionFilterProp="label"
              options={(apis.data?.records ?? []).map((a) => ({ value: a.id, label: `${a.apiName}（${a.apiKey}）` }))}
              data-testid="dataapi-key-apis"
            />
          </Form.Item>
          <Form.Item name="rateLimit" label={am.rateLimit}>
            <InputNumber min={1} max={100000} style={{ width: '100%' }} />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        open={created !== null}
        title={am.keyCreated}
        onCancel={() => setCreated(null)}
        footer={
          <Button type="primary" onClick={() => setCreated(null)}>
            {am.secretSaved}
          </Button>
        }
      >
        {created && (
          <Space direction="vertical" style={{ width: '100%' }} data-testid="dataapi-secret">
            <Alert type="warning" showIcon message={am.secretOnce} />
            <div>
              {am.accessKey}：
              <Typography.Text copyable code data-testid="dataapi-created-access-key">
                {created.accessKey}
              </Typography.Text>
            </div>
            <div>
              {am.secret}：
              <Typography.Text copyable code data-testid="dataapi-created-secret">
                {created.secret}
              </Typography.Text>
            </div>
          </Space>
        )}
      </Modal>
    </>
  );
}
