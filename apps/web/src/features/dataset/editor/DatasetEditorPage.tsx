import { useQuery } from '@tanstack/react-query';
import { Result, Spin } from 'antd';
import { useSearchParams } from 'react-router';
import { errorText } from '../../../shared/notify.ts';
import { editorKeys, fetchDataset, fetchDatasetFields, fetchUsableSources } from './api.ts';
import { DatasetEditor } from './DatasetEditor.tsx';
import { fromSaved } from './model-state.ts';
import { em } from './messages.ts';
import './editor.css';

const positive = (text: string | null): number | null => {
  const n = Number(text);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
};

/**
 * /newbi/dataset/edit: `id` opens a saved dataset; `sourceid` + `ws` (+ optional
 * `tableName`) start a new one. Loads what the editor starts from, then mounts it.
 */
export default function DatasetEditorPage() {
  const [params] = useSearchParams();
  const id = positive(params.get('id'));
  const sourceId = positive(params.get('sourceid'));
  const ws = positive(params.get('ws'));
  const tableName = params.get('tableName');

  const detail = useQuery({ queryKey: editorKeys.detail(id ?? 0), queryFn: () => fetchDataset(id!), enabled: id !== null });
  const fields = useQuery({ queryKey: editorKeys.fields(id ?? 0), queryFn: () => fetchDatasetFields(id!), enabled: id !== null });
  const usable = useQuery({ queryKey: editorKeys.usable, queryFn: fetchUsableSources, enabled: id === null && sourceId !== null });

  if (id !== null) {
    if (detail.isError || fields.isError) return <Result status="error" title={em.loadFailed} subTitle={errorText(detail.error ?? fields.error)} />;
    if (!detail.data || !fields.data) return <Spin className="ds-page-spin" />;
    const d = detail.data;
    return (
      <DatasetEditor
        key={`${id}:${detail.dataUpdatedAt}:${fields.dataUpdatedAt}`}
        id={id}
        datasourceId={d.datasourceId}
        dsName={d.dsName}
        saved={d}
        initial={{
          model: {
            tables: d.cubeTableNames,
            joins: d.linksJoin.map((j) => ({
              ...j,
              joinKeys: j.joinKeys.map((k) => ({ ...k, sourceKeyVtState: k.sourceKeyVtState ? 1 : 0, targetKeyVtState: k.targetKeyVtState ? 1 : 0 })),
            })),
            fields: fields.data.map(fromSaved),
          },
          cubeName: d.cubeName,
          workspaceId: d.workspaceId,
          remark: d.remark ?? '',
        }}
      />
    );
  }
  if (sourceId === null) return <Result status="warning" title={em.dsRequired} />;
  const ds = usable.data?.find((s) => s.id === sourceId);
  return (
    <DatasetEditor
      key={`new:${sourceId}`}
      id={null}
      datasourceId={sourceId}
      dsName={ds?.dsDb ?? String(sourceId)}
      saved={null}
      preDrop={tableName}
      initial={{ model: { tables: [], joins: [], fields: [] }, cubeName: '', workspaceId: ws, remark: '' }}
    />
  );
}
