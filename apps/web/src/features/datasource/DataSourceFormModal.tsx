import { useState } from 'react';
import { Alert, Button, Col, Form, Input, InputNumber, Modal, Row, Select } from 'antd';
import { ApiOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  DATA_SOURCE_DEFAULT_PORTS,
  DATA_SOURCE_TYPE_LABELS,
  SERVER_DATA_SOURCE_TYPES,
  dataSourceSaveSchema,
  type DataSource,
  type DataSourceSave,
  type DataSourceType,
} from '@shutu/contracts';
import { msg, t } from '../../shared/messages.ts';
import { errorText, notifySuccess } from '../../shared/notify.ts';
import { applyFieldErrors } from '../../shared/form-errors.ts';
import { zodRules } from '../../shared/zod-rules.ts';
import { createDataSource, dataSourceKeys, testDataSourceForm, updateDataSource } from './api.ts';

/** What the modal edits: a new source (no record) or a saved one. */
export interface DataSourceTarget {
  record?: DataSource;
}

export interface DataSourceValues {
  dsDb: string;
  type: DataSourceType;
  host?: string;
  port?: number | null;
  database?: string;
  username?: string;
  password?: string;
  path?: string;
  remark?: string;
}

/** Offered in this order; the built-in DuckDB warehouse is one more DuckDB source. */
const TYPE_OPTIONS = (['postgres', 'mysql', 'clickhouse', 'duckdb'] as const).map((value) => ({ value, label: DATA_SOURCE_TYPE_LABELS[value] }));
const CONNECTION_FIELDS = ['type', 'host', 'port', 'database', 'username', 'password', 'path'] as const;

const isServer = (type: DataSourceType | undefined) => type !== undefined && SERVER_DATA_SOURCE_TYPES.includes(type);
const text = (s: string | undefined) => (s && s.trim() ? s.trim() : null);
const defaultPort = (type: DataSourceType) => (type === 'duckdb' ? null : DATA_SOURCE_DEFAULT_PORTS[type]);

/** The body a save sends: only the fields of the chosen engine; an empty password keeps the stored one. */
export function dataSourceBody(v: DataSourceValues): DataSourceSave {
  const base = { dsDb: v.dsDb.trim(), type: v.type, remark: text(v.remark) };
  if (!isServer(v.type)) return { ...base, path: text(v.path) };
  return {
    ...base,
    host: text(v.host),
    port: v.port ?? null,
    database: text(v.database),
    username: text(v.username),
    password: v.password ? v.password : null,
  };
}

function toValues(d: DataSource): DataSourceValues {
  return {
    dsDb: d.dsDb,
    type: d.type,
    host: d.host ?? '',
    port: d.port,
    database: d.database ?? '',
    username: d.username ?? '',
    password: '',
    path: d.path ?? '',
    remark: d.remark ?? '',
  };
}

type TestOutcome = { ok: true; title: string; detail: string } | { ok: false; title: string; detail: string };

export function DataSourceFormModal({ target, onClose }: { target: DataSourceTarget | null; onClose: () => void }) {
  const [form] = Form.useForm<DataSourceValues>();
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<TestOutcome | null>(null);
  const record = target?.record;
  const builtin = record?.isBuiltin === true;
  const type = Form.useWatch('type', form) ?? record?.type ?? 'postgres';
  const server = isServer(type);
  const open = target !== null;

  const close = () => {
    setOutcome(null);
    onClose();
  };

  const save = useMutation({
    mutationFn: (v: DataSourceValues) => (record ? updateDataSource(record.id, dataSourceBody(v)) : createDataSource(dataSourceBody(v))),
    onSuccess: async () => {
      notifySuccess(msg.saved);
      close();
      await queryClient.invalidateQueries({ queryKey: dataSourceKeys.all });
    },
    onError: (e) => applyFieldErrors(form, e),
  });

  // The outcome is shown in the dialog, so the global toast stays quiet.
  const test = useMutation({
    mutationFn: (v: DataSourceValues) => testDataSourceForm({ ...dataSourceBody(v), id: record?.id ?? null }),
    meta: { silent: true },
    onMutate: () => setOutcome(null),
    onSuccess: ({ data, msg: title }) => setOutcome({ ok: true, title, detail: t.dsTestOk(data.serverVersion, data.elapsedMs) }),
    onError: (e) => {
      if (!applyFieldErrors(form, e)) setOutcome({ ok: false, title: t.dsTestFailed, detail: errorText(e) });
    },
  });

  const runTest = async () => {
    try {
      await form.validateFields([...CONNECTION_FIELDS]);
    } catch {
      return;
    }
    test.mutate(form.getFieldsValue(true) as DataSourceValues);
  };

  const onTypeChange = (next: DataSourceType) => {
    const port = form.getFieldValue('port') as number | null | undefined;
    const knownDefault = port === undefined || port === null || Object.values(DATA_SOURCE_DEFAULT_PORTS).includes(port);
    if (knownDefault) form.setFieldValue('port', defaultPort(next));
  };

  const initialValues: Partial<DataSourceValues> = record ? toValues(record) : { type: 'postgres', port: DATA_SOURCE_DEFAULT_PORTS.postgres };
  const required = (message: string) => [{ required: true, whitespace: true, message }];
  const needsLogin = type === 'postgres' || type === 'mysql';

  return (
    <Modal
      open={open}
      title={record ? t.dsEdit : t.dsAdd}
      width={640}
      destroyOnHidden
      okText={t.save}
      cancelText={t.cancel}
      onCancel={close}
      okButtonProps={{ htmlType: 'submit', loading: save.isPending }}
      footer={(_, { OkBtn, CancelBtn }) => (
        <div className="ds-form-footer">
          <Button icon={<ApiOutlined />} loading={test.isPending} onClick={() => void runTest()} data-testid="ds-form-test">
            {t.dsTest}
          </Button>
          <span className="ds-form-footer-right">
            <CancelBtn />
            <OkBtn />
          </span>
        </div>
      )}
      modalRender={(dom) => (
        <Form<DataSourceValues>
          form={form}
          layout="vertical"
          clearOnDestroy
          initialValues={initialValues}
          onFinish={(v) => save.mutate({ ...form.getFieldsValue(true), ...v } as DataSourceValues)}
          onValuesChange={(changed: Partial<DataSourceValues>) => {
            if (CONNECTION_FIELDS.some((f) => f in changed)) setOutcome(null);
          }}
          className="ds-form"
        >
          {dom}
        </Form>
      )}
    >
      {builtin && <Alert className="ds-form-alert" type="info" showIcon title={t.dsBuiltinHint} />}
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item label={t.dsNameLabel} name="dsDb" rules={zodRules(dataSourceSaveSchema, 'dsDb')}>
            <Input placeholder={t.dsNamePlaceholder} maxLength={50} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label={t.dsTypeLabel} name="type" rules={zodRules(dataSourceSaveSchema, 'type')}>
            <Select options={TYPE_OPTIONS} disabled={builtin} onChange={onTypeChange} />
          </Form.Item>
        </Col>
        {server ? (
          <>
            <Col span={16}>
              <Form.Item label={t.dsHost} name="host" rules={required(msg.dsHostRequired)}>
                <Input placeholder={t.dsHostPlaceholder} maxLength={255} />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item label={t.dsPort} name="port" rules={[{ required: true, message: msg.dsPortInvalid }]}>
                <InputNumber min={1} max={65535} precision={0} className="full-width" />
              </Form.Item>
            </Col>
            <Col span={24}>
              <Form.Item label={t.dsDatabase} name="database" rules={needsLogin ? required(msg.dsDatabaseRequired) : []}>
                <Input placeholder={needsLogin ? t.dsDatabasePlaceholder : t.dsDatabaseOptional} maxLength={128} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item label={t.dsUsername} name="username" rules={needsLogin ? required(msg.dsUsernameRequired) : []}>
                <Input placeholder={needsLogin ? t.dsUsernamePlaceholder : t.dsUsernameOptional} maxLength={128} autoComplete="off" />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item label={t.dsPassword} name="password">
                <Input.Password placeholder={record?.hasPassword ? t.dsPasswordKeep : t.dsPasswordPlaceholder} maxLength={256} autoComplete="new-password" />
              </Form.Item>
            </Col>
          </>
        ) : (
          <Col span={24}>
            <Form.Item label={t.dsPath} name="path" rules={required(msg.dsPathRequired)} extra={builtin ? undefined : t.dsPathHint}>
              <Input placeholder={t.dsPathPlaceholder} maxLength={1000} readOnly={builtin} variant={builtin ? 'filled' : 'outlined'} className="mono" />
            </Form.Item>
          </Col>
        )}
        <Col span={24}>
          <Form.Item label={t.dsRemark} name="remark">
            <Input.TextArea placeholder={t.dsRemarkPlaceholder} maxLength={255} showCount autoSize={{ minRows: 2, maxRows: 4 }} />
          </Form.Item>
        </Col>
      </Row>
      {outcome && (
        <Alert
          className="ds-test-result"
          data-testid="ds-test-result"
          type={outcome.ok ? 'success' : 'error'}
          showIcon
          title={outcome.title}
          description={outcome.detail}
        />
      )}
    </Modal>
  );
}
