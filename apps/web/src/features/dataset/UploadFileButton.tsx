import { useState } from 'react';
import { Button, Form, Modal, Select } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { BUILTIN_WAREHOUSE_NAME, CATEGORY_ROOT, type FileTableSource, type UsableDataSource } from '@shutu/contracts';
import { API, http } from '../../shared/api.ts';
import { t } from '../../shared/messages.ts';
import { datasetKeys, fetchUsableSources } from './api.ts';
import { FileUploadDrawer } from './editor/FileUploadDrawer.tsx';
import { sm } from './editor/source-messages.ts';

const PICK_SOURCE_TITLE = '上传到数据源';
/** The settings card's key too (features/system/api.ts fileTableSourceKey): saving there refreshes this. */
const FILE_TABLE_SOURCE_KEY = ['system', 'fileTableSource'] as const;

/** The configured target of uploads (系统设置 → 上传文件表), else the built-in warehouse, when the caller may use it; else the first source. */
export function defaultUploadSource(sources: readonly UsableDataSource[], target: number | null = null): number | undefined {
  return (sources.find((s) => s.id === target) ?? sources.find((s) => s.type === 'duckdb' && s.dsDb === BUILTIN_WAREHOUSE_NAME) ?? sources[0])?.id;
}

/** The new dataset's editor on `sourceId` with `tableName` dropped in (and the list's category, if one is chosen). */
export function uploadedTablePath(sourceId: number, tableName: string, categoryId: number): string {
  const q = new URLSearchParams({ sourceid: String(sourceId) });
  if (categoryId !== CATEGORY_ROOT) q.set('ws', String(categoryId));
  q.set('tableName', tableName);
  return `/newbi/dataset/edit?${q.toString()}`;
}

interface Props {
  /** The category selected in the list's tree (0: 全部). */
  categoryId: number;
}

/**
 * 上传文件 on the dataset list: shown when the caller may use a data source (what the server asks
 * of an upload, and what the editor's 文件表 tab needs). Several sources: choose one first (the
 * built-in warehouse preselected). The editor's upload drawer, then the editor on that source with
 * the new table dropped in.
 */
export function UploadFileButton({ categoryId }: Props) {
  const navigate = useNavigate();
  const [form] = Form.useForm<{ datasourceId: number }>();
  const [picking, setPicking] = useState(false);
  const [sourceId, setSourceId] = useState<number | null>(null);
  const sources = useQuery({ queryKey: datasetKeys.usableSources, queryFn: fetchUsableSources, staleTime: 0, meta: { silent: true } });
  const target = useQuery({
    queryKey: FILE_TABLE_SOURCE_KEY,
    queryFn: () => http.get<FileTableSource>(API.system.fileTableSource),
    staleTime: 0,
    meta: { silent: true },
  });
  // Only sources the caller may upload into (the grant's write permission, issue 28).
  const list = (sources.data ?? []).filter((s) => s.writable !== false);
  if (list.length === 0) return null;

  const start = () => {
    if (list.length === 1) setSourceId(list[0]!.id);
    else setPicking(true);
  };

  return (
    <>
      <Button icon={<UploadOutlined />} onClick={start} data-testid="dataset-upload-file">
        {sm.uploadFile}
      </Button>
      <Modal
        open={picking}
        title={PICK_SOURCE_TITLE}
        width={420}
        destroyOnHidden
        okText={t.dsetNext}
        cancelText={t.cancel}
        onCancel={() => setPicking(false)}
        okButtonProps={{ htmlType: 'submit' }}
        modalRender={(dom) => (
          <Form<{ datasourceId: number }>
            form={form}
            layout="vertical"
            clearOnDestroy
            initialValues={{ datasourceId: defaultUploadSource(list, target.data?.datasourceId ?? null) }}
            onFinish={(v) => {
              setPicking(false);
              setSourceId(v.datasourceId);
            }}
          >
            {dom}
          </Form>
        )}
      >
        <Form.Item label={t.dsetSource} name="datasourceId" rules={[{ required: true, message: t.dsetPickSource }]}>
          <Select<number>
            placeholder={t.dsetPickSource}
            showSearch={{ optionFilterProp: 'label' }}
            options={list.map((s) => ({ value: s.id, label: s.dsDb }))}
            data-testid="upload-file-source"
          />
        </Form.Item>
      </Modal>
      {sourceId !== null && (
        <FileUploadDrawer
          open
          datasourceId={sourceId}
          onClose={() => setSourceId(null)}
          onUploaded={(tableName) => void navigate(uploadedTablePath(sourceId, tableName, categoryId))}
        />
      )}
    </>
  );
}
