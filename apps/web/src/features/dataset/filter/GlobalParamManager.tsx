import { useState, type CSSProperties } from 'react';
import { Alert, App, Button, Empty, Form, Input, Modal, Select, Space, Spin, Table, Tag, Tooltip, Typography } from 'antd';
import { AppstoreOutlined, DeleteOutlined, EditOutlined, FolderOutlined, PlusOutlined } from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  datasetMessages,
  PARAM_KEY_MAX_LENGTH,
  VIEW_DATA_TYPES,
  globalParamTypeSaveSchema,
  globalParamSaveSchema,
  type GlobalParam,
  type GlobalParamType,
  type ViewDataType,
} from '@shutu/contracts';
import { ApiError } from '../../../shared/api.ts';
import { notifySuccess } from '../../../shared/notify.ts';
import { applyFieldErrors } from '../../../shared/form-errors.ts';
import { useUserInfo } from '../../../shared/session.ts';
import { zodRules } from '../../../shared/zod-rules.ts';
import { deleteParam, deleteParamType, fetchParams, fetchParamTypes, paramKeys, saveParam, saveParamType, type ParamListParams } from './param-api.ts';
import { PARAM_TYPE_LABELS, pm } from './param-messages.ts';

/** 全部: no category filter. */
export const ALL_PARAM_TYPES = 0;
const PAGE_SIZES = [10, 20, 50, 100];
const TYPE_NAME_MAX_LENGTH = 50;
const PARAM_NAME_MAX_LENGTH = 50;

const styles = {
  layout: { display: 'flex', gap: 16, minHeight: 420 },
  side: { width: 220, flex: 'none', borderRight: '1px solid rgba(5, 5, 5, 0.06)', paddingRight: 12 },
  main: { flex: 1, minWidth: 0 },
  toolbar: { display: 'flex', gap: 8, justifyContent: 'space-between', marginBottom: 12 },
  type: { display: 'flex', alignItems: 'center', gap: 6, padding: '4px 8px', borderRadius: 6, cursor: 'pointer' },
  typeActive: { background: 'rgba(22, 119, 255, 0.1)', color: '#1677ff' },
  typeName: { flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
} satisfies Record<string, CSSProperties>;

export interface GlobalParamManagerProps {
  open: boolean;
  onClose: () => void;
}

/**
 * 全局参数管理 (spec 2 §3 "Parameter category and global parameter"): parameter categories on
 * the left (全部 first), the parameters of the chosen category on the right, searchable by
 * name or key. Everyone may look; administrators add, edit and delete (the server refuses
 * others, and refuses deleting or re-keying a parameter a dataset's global filter uses).
 */
export function GlobalParamManager({ open, onClose }: GlobalParamManagerProps) {
  return (
    <Modal open={open} title={pm.managerTitle} width={1000} destroyOnHidden onCancel={onClose} footer={<Button onClick={onClose}>{pm.close}</Button>}>
      {open && <ManagerBody />}
    </Modal>
  );
}

function ManagerBody() {
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const editable = useUserInfo().data?.isAdministrator === true;
  const [typeId, setTypeId] = useState(ALL_PARAM_TYPES);
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState({ current: 1, size: 10 });
  const [typeTarget, setTypeTarget] = useState<{ record?: GlobalParamType } | null>(null);
  const [paramTarget, setParamTarget] = useState<{ record?: GlobalParam } | null>(null);

  const types = useQuery({ queryKey: paramKeys.types, queryFn: fetchParamTypes, staleTime: 0 });
  const query: ParamListParams = { current: page.current, size: page.size, typeId: typeId || undefined, keyword: keyword || undefined };
  const list = useQuery({ queryKey: paramKeys.list(query), queryFn: () => fetchParams(query), placeholderData: keepPreviousData, staleTime: 0 });
  const allTypes = types.data ?? [];
  const records = list.data?.records ?? [];

  // Refusals (409: parameters left in a category, a parameter in use) are toasted by the global handler.
  const removeType = useMutation({
    mutationFn: deleteParamType,
    onSuccess: async (res, id) => {
      notifySuccess(res.msg || pm.deleted);
      if (typeId === id) selectType(ALL_PARAM_TYPES);
      await queryClient.invalidateQueries({ queryKey: paramKeys.all });
    },
  });
  const removeParam = useMutation({
    mutationFn: deleteParam,
    onSuccess: async (res) => {
      notifySuccess(res.msg || pm.deleted);
      if (page.current > 1 && records.length === 1) setPage((p) => ({ ...p, current: p.current - 1 }));
      await queryClient.invalidateQueries({ queryKey: paramKeys.all });
    },
  });

  const confirm = (run: () => Promise<unknown>) =>
    modal.confirm({
      title: pm.confirmTitle,
      content: pm.confirmDelete,
      okText: pm.confirm,
      cancelText: pm.cancel,
      okButtonProps: { danger: true },
      onOk: () => run().catch(() => undefined),
    });

  function selectType(id: number) {
    setTypeId(id);
    setPage((p) => ({ ...p, current: 1 }));
  }

  const typeEntry = (id: number, name: string, record?: GlobalParamType) => (
    <div
      key={id}
      role="button"
      tabIndex={0}
      data-testid="param-type"
      data-id={id}
      aria-current={typeId === id}
      style={{ ...styles.type, ...(typeId === id ? styles.typeActive : {}) }}
      onClick={() => selectType(id)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') selectType(id);
      }}
    >
      {record ? <FolderOutlined /> : <AppstoreOutlined />}
      <span style={styles.typeName} title={name}>
        {name}
      </span>
      {record && editable && (
        <span onClick={(e) => e.stopPropagation()} onKeyDown={(e) => e.stopPropagation()}>
          <Tooltip title={pm.renameCategory}>
            <Button type="text" size="small" icon={<EditOutlined />} aria-label={pm.renameCategory} onClick={() => setTypeTarget({ record })} />
          </Tooltip>
          <Tooltip title={pm.delete}>
            <Button
              type="text"
              size="small"
              danger
              icon={<DeleteOutlined />}
              aria-label={pm.delete}
              onClick={() => confirm(() => removeType.mutateAsync(record.id))}
            />
          </Tooltip>
        </span>
      )}
    </div>
  );

  return (
    <div style={styles.layout} data-testid="param-manager">
      <div style={styles.side}>
        <Typography.Text strong>{pm.categories}</Typography.Text>
        {editable && (
          <Button block type="dashed" size="small" icon={<PlusOutlined />} style={{ margin: '8px 0' }} onClick={() => setTypeTarget({})}>
            {pm.addCategory}
          </Button>
        )}
        <Spin spinning={types.isFetching}>
          <div data-testid="param-types">
            {typeEntry(ALL_PARAM_TYPES, pm.all)}
            {allTypes.map((type) => typeEntry(type.id, type.typeName, type))}
          </div>
        </Spin>
      </div>
      <div style={styles.main}>
        {!editable && <Alert type="info" showIcon title={pm.readOnly} style={{ marginBottom: 12 }} />}
        <div style={styles.toolbar}>
          <Input.Search
            style={{ maxWidth: 320 }}
            placeholder={pm.searchParam}
            aria-label={pm.searchParam}
            allowClear
            enterButton={pm.search}
            onSearch={(v) => {
              setKeyword(v.trim());
              setPage((p) => ({ ...p, current: 1 }));
            }}
          />
          {editable && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setParamTarget({})} data-testid="param-add">
              {pm.addParam}
            </Button>
          )}
        </div>
        <Table<GlobalParam>
          rowKey="id"
          size="small"
          data-testid="param-list"
          loading={list.isFetching}
          dataSource={records}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={pm.empty} /> }}
          pagination={{
            current: page.current,
            pageSize: page.size,
            total: list.data?.total ?? 0,
            showSizeChanger: true,
            pageSizeOptions: PAGE_SIZES.map(String),
            showTotal: pm.total,
            onChange: (current, size) => setPage((p) => ({ current: size !== p.size ? 1 : current, size })),
          }}
          columns={[
            { title: pm.paramName, dataIndex: 'paramName', key: 'paramName', ellipsis: { showTitle: true } },
            { title: pm.paramKey, dataIndex: 'paramKey', key: 'paramKey', ellipsis: { showTitle: true }, render: (v: string) => <code>{v}</code> },
            {
              title: pm.paramType,
              dataIndex: 'paramColumnType',
              key: 'paramColumnType',
              width: 100,
              render: (v: ViewDataType) => <Tag>{PARAM_TYPE_LABELS[v]}</Tag>,
            },
            { title: pm.paramCategory, dataIndex: 'typeName', key: 'typeName', width: 140, ellipsis: { showTitle: true } },
            ...(editable
              ? [
                  {
                    title: pm.actions,
                    key: 'actions',
                    width: 120,
                    render: (_: unknown, p: GlobalParam) => (
                      <Space size={0}>
                        <Button type="link" size="small" onClick={() => setParamTarget({ record: p })}>
                          {pm.edit}
                        </Button>
                        <Button type="link" size="small" danger onClick={() => confirm(() => removeParam.mutateAsync(p.id))}>
                          {pm.delete}
                        </Button>
                      </Space>
                    ),
                  },
                ]
              : []),
          ]}
        />
      </div>
      {editable && <TypeFormModal target={typeTarget} onClose={() => setTypeTarget(null)} />}
      {editable && <ParamFormModal target={paramTarget} types={allTypes} defaultTypeId={typeId || undefined} onClose={() => setParamTarget(null)} />}
    </div>
  );
}

interface TypeValues {
  typeName: string;
}

/** Adds a category, or renames one (`record`). */
function TypeFormModal({ target, onClose }: { target: { record?: GlobalParamType } | null; onClose: () => void }) {
  const [form] = Form.useForm<TypeValues>();
  const queryClient = useQueryClient();
  const record = target?.record;
  const save = useMutation({
    mutationFn: (v: TypeValues) => saveParamType({ id: record?.id ?? null, typeName: v.typeName.trim(), sortNum: record?.sortNum ?? null }),
    onSuccess: async (res) => {
      notifySuccess(res.msg || pm.saved);
      onClose();
      await queryClient.invalidateQueries({ queryKey: paramKeys.all });
    },
    onError: (e) => {
      if (applyFieldErrors(form, e)) return;
      if (e instanceof ApiError && e.status === 409) form.setFields([{ name: 'typeName', errors: [e.message] }]);
    },
  });
  return (
    <Modal
      open={target !== null}
      title={record ? pm.renameCategory : pm.addCategory}
      width={420}
      destroyOnHidden
      okText={pm.save}
      cancelText={pm.cancel}
      onCancel={onClose}
      okButtonProps={{ htmlType: 'submit', loading: save.isPending }}
      modalRender={(dom) => (
        <Form<TypeValues> form={form} layout="vertical" clearOnDestroy initialValues={{ typeName: record?.typeName ?? '' }} onFinish={(v) => save.mutate(v)}>
          {dom}
        </Form>
      )}
    >
      <Form.Item label={pm.categoryName} name="typeName" rules={zodRules(globalParamTypeSaveSchema, 'typeName')}>
        <Input placeholder={datasetMessages.paramTypeNameRequired} maxLength={TYPE_NAME_MAX_LENGTH} autoComplete="off" />
      </Form.Item>
    </Modal>
  );
}

interface ParamValues {
  paramName: string;
  paramKey: string;
  paramColumnType: ViewDataType;
  typeId?: number;
}

const TYPE_OPTIONS = VIEW_DATA_TYPES.map((v) => ({ value: v, label: PARAM_TYPE_LABELS[v] }));

/** Adds a parameter, or edits one (`record`); the key must start with a letter. */
function ParamFormModal({
  target,
  types,
  defaultTypeId,
  onClose,
}: {
  target: { record?: GlobalParam } | null;
  types: GlobalParamType[];
  defaultTypeId?: number;
  onClose: () => void;
}) {
  const [form] = Form.useForm<ParamValues>();
  const queryClient = useQueryClient();
  const record = target?.record;
  const save = useMutation({
    mutationFn: (v: ParamValues) =>
      saveParam({
        id: record?.id ?? null,
        typeId: v.typeId!,
        paramName: v.paramName.trim(),
        paramKey: v.paramKey.trim(),
        paramColumnType: v.paramColumnType,
      }),
    onSuccess: async (res) => {
      notifySuccess(res.msg || pm.saved);
      onClose();
      await queryClient.invalidateQueries({ queryKey: paramKeys.all });
    },
    onError: (e) => {
      if (applyFieldErrors(form, e)) return;
      // 参数key已存在, or a key in use by a dataset's global filter: shown under the key too.
      if (e instanceof ApiError && e.status === 409) form.setFields([{ name: 'paramKey', errors: [e.message] }]);
    },
  });
  const initial: Partial<ParamValues> = record
    ? { paramName: record.paramName, paramKey: record.paramKey, paramColumnType: record.paramColumnType, typeId: record.typeId }
    : { paramColumnType: 'STRING', typeId: types.some((t) => t.id === defaultTypeId) ? defaultTypeId : undefined };
  return (
    <Modal
      open={target !== null}
      title={record ? pm.editParam : pm.addParam}
      width={480}
      destroyOnHidden
      okText={pm.save}
      cancelText={pm.cancel}
      onCancel={onClose}
      okButtonProps={{ htmlType: 'submit', loading: save.isPending }}
      modalRender={(dom) => (
        <Form<ParamValues> form={form} layout="vertical" clearOnDestroy initialValues={initial} onFinish={(v) => save.mutate(v)}>
          {dom}
        </Form>
      )}
    >
      <Form.Item label={pm.paramName} name="paramName" rules={zodRules(globalParamSaveSchema, 'paramName')}>
        <Input placeholder={datasetMessages.paramNameRequired} maxLength={PARAM_NAME_MAX_LENGTH} autoComplete="off" />
      </Form.Item>
      <Form.Item label={pm.paramKey} name="paramKey" rules={zodRules(globalParamSaveSchema, 'paramKey')}>
        <Input placeholder={datasetMessages.paramKeyRequired} maxLength={PARAM_KEY_MAX_LENGTH} autoComplete="off" />
      </Form.Item>
      <Form.Item label={pm.paramType} name="paramColumnType">
        <Select options={TYPE_OPTIONS} aria-label={pm.paramType} />
      </Form.Item>
      <Form.Item label={pm.paramCategory} name="typeId" rules={zodRules(globalParamSaveSchema, 'typeId')}>
        <Select
          aria-label={pm.paramCategory}
          placeholder={datasetMessages.paramTypeRequired}
          options={types.map((t) => ({ value: t.id, label: t.typeName }))}
          showSearch={{ optionFilterProp: 'label' }}
        />
      </Form.Item>
    </Modal>
  );
}
