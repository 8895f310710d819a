import { useEffect } from 'react';
import { Button, Card, Form, Select, Skeleton } from 'antd';
import { SaveOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { BUILTIN_WAREHOUSE_NAME, type FileTableSource, type UsableDataSource } from '@shutu/contracts';
import { API, http } from '../../shared/api.ts';
import { msg } from '../../shared/messages.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { applyFieldErrors } from '../../shared/form-errors.ts';
import { fileTableSourceKey } from './api.ts';

const fm = {
  title: '上传文件表',
  hint: '上传的 CSV、Excel 文件建成文件表时默认写入的数据源，上传时仍可另选。单机部署用内置数仓；多个服务进程共用时，请选择共享的 PostgreSQL 或 ClickHouse 数据源，各进程才能看到同一批文件表。已有的文件表仍留在原数据源中。',
  label: '目标数据源',
  builtin: '内置数仓（默认）',
  save: '保存',
} as const;

/** The Select's value for "none set": the built-in warehouse. */
const BUILTIN = 0;

interface Values {
  datasourceId: number;
}

/** 系统设置 → 上传文件表 (administrators): the data source uploaded file tables go to (issue 27; docs/filetable-load.md). */
export function FileTableSourceCard() {
  const [form] = Form.useForm<Values>();
  const queryClient = useQueryClient();
  const setting = useQuery({ queryKey: fileTableSourceKey, queryFn: () => http.get<FileTableSource>(API.system.fileTableSource) });
  const sources = useQuery({ queryKey: ['system', 'fileTableSources'], queryFn: () => http.get<UsableDataSource[]>(API.datasource.usable) });
  useEffect(() => {
    if (setting.data) form.setFieldsValue({ datasourceId: setting.data.datasourceId ?? BUILTIN });
  }, [setting.data, form]);
  const save = useMutation({
    mutationFn: (values: Values) =>
      http.put<FileTableSource>(API.system.fileTableSource, { datasourceId: values.datasourceId === BUILTIN ? null : values.datasourceId }),
    onSuccess: (saved) => {
      notifySuccess(msg.saved);
      queryClient.setQueryData(fileTableSourceKey, saved);
    },
    onError: (e) => applyFieldErrors(form, e),
  });
  const options = [
    { value: BUILTIN, label: fm.builtin },
    ...(sources.data ?? [])
      .filter((s) => !(s.type === 'duckdb' && s.dsDb === BUILTIN_WAREHOUSE_NAME))
      .map((s) => ({ value: s.id, label: `${s.dsDb}（${s.type}）` })),
  ];

  return (
    <Card title={fm.title} className="settings-card" style={{ marginTop: 16 }} data-testid="file-table-source-settings">
      {setting.isPending ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : (
        <Form<Values> form={form} layout="vertical" onFinish={(v) => save.mutate(v)}>
          <p style={{ color: 'rgba(0,0,0,0.45)', marginTop: 0 }}>{fm.hint}</p>
          <Form.Item label={fm.label} name="datasourceId">
            <Select<number>
              showSearch={{ optionFilterProp: 'label' }}
              options={options}
              loading={sources.isPending}
              style={{ maxWidth: 480 }}
              data-testid="file-table-source"
              aria-label={fm.label}
            />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={save.isPending} data-testid="file-table-source-save">
              {fm.save}
            </Button>
          </Form.Item>
        </Form>
      )}
    </Card>
  );
}
