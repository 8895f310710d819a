import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, Empty, Result, Select, Spin } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import type { UsableDataSource } from '@shutu/contracts';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../../shared/api.ts';
import { errorText } from '../../../shared/notify.ts';
import { editorKeys, fetchDataset, fetchDatasetFields, fetchUsableSources } from './api.ts';
import { DatasetEditor } from './DatasetEditor.tsx';
import { DatasetReadOnlyView } from './DatasetReadOnlyView.tsx';
import { fromSaved } from './model-state.ts';
import { em } from './messages.ts';
import './editor.css';

const positive = (text: string | null): number | null => {
  const n = Number(text);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
};

/** The dataset list, on the category the address names (`ws`), if any. */
export const datasetListPath = (ws: number | null) => (ws === null ? '/newbi/dataset' : `/newbi/dataset?ws=${ws}`);

/** A dataset that is not there, or not the caller's to see, is a missing page. */
const isMissing = (error: unknown) => error instanceof ApiError && (error.status === 404 || error.status === 403);

/**
 * /newbi/dataset/edit: `id` opens a saved dataset (read-only for who may not change it);
 * `sourceid` + `ws` (+ optional `tableName`) start a new one. Loads what the editor starts from, then mounts it.
 * Without a data source the user picks one in place; an id that is not a dataset the
 * caller may see shows `notFound` (the app's not-found page, passed down by the router).
 */
export default function DatasetEditorPage({ notFound }: { notFound: ReactNode }) {
  const [params] = useSearchParams();
  const id = positive(params.get('id'));
  const sourceId = positive(params.get('sourceid'));
  const ws = positive(params.get('ws'));
  const tableName = params.get('tableName');
  const backPath = datasetListPath(ws);

  const detail = useQuery({ queryKey: editorKeys.detail(id ?? 0), queryFn: () => fetchDataset(id!), enabled: id !== null, retry: false });
  const fields = useQuery({ queryKey: editorKeys.fields(id ?? 0), queryFn: () => fetchDatasetFields(id!), enabled: id !== null, retry: false });
  const usable = useQuery({ queryKey: editorKeys.usable, queryFn: fetchUsableSources, enabled: id === null });

  if (params.has('id') && id === null) return <>{notFound}</>;
  if (id !== null) {
    if (isMissing(detail.error) || isMissing(fields.error)) return <>{notFound}</>;
    if (detail.isError || fields.isError) return <Result status="error" title={em.loadFailed} subTitle={errorText(detail.error ?? fields.error)} />;
    if (!detail.data || !fields.data) return <Spin className="ds-page-spin" />;
    const d = detail.data;
    // Who may read but not change it gets the dataset as it is, with its preview, and nothing to edit.
    if (!d.editable) return <DatasetReadOnlyView dataset={d} fields={fields.data} backPath={backPath} />;
    return (
      <DatasetEditor
        key={`${id}:${detail.dataUpdatedAt}:${fields.dataUpdatedAt}`}
        id={id}
        backPath={backPath}
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
  if (sourceId === null) return <SourcePicker ws={ws} backPath={backPath} loading={usable.isLoading} sources={usable.data ?? []} />;
  const ds = usable.data?.find((s) => s.id === sourceId);
  return (
    <DatasetEditor
      key={`new:${sourceId}`}
      id={null}
      backPath={backPath}
      datasourceId={sourceId}
      dsName={ds?.dsDb ?? String(sourceId)}
      saved={null}
      preDrop={tableName}
      initial={{ model: { tables: [], joins: [], fields: [] }, cubeName: '', workspaceId: ws, remark: '' }}
    />
  );
}

/** No data source in the address: pick one of those the user may use, which opens the editor on it. */
function SourcePicker({ ws, backPath, loading, sources }: { ws: number | null; backPath: string; loading: boolean; sources: UsableDataSource[] }) {
  const navigate = useNavigate();
  const open = (sourceid: number) => void navigate(`/newbi/dataset/edit?sourceid=${sourceid}${ws === null ? '' : `&ws=${ws}`}`);
  return (
    <div className="ds-pick-source" data-testid="ds-pick-source">
      <Result
        status="info"
        title={em.dsRequired}
        subTitle={em.pickSourceHint}
        extra={
          <>
            {loading ? (
              <Spin />
            ) : sources.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={em.noUsableSource} />
            ) : (
              <Select
                showSearch={{ optionFilterProp: 'label' }}
                placeholder={em.dsRequired}
                aria-label={em.dataSource}
                options={sources.map((s) => ({ value: s.id, label: s.dsDb }))}
                onChange={(value: number) => open(value)}
                data-testid="ds-source-select"
              />
            )}
            <div className="ds-pick-source-back">
              <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(backPath)} data-testid="ds-back">
                {em.back}
              </Button>
            </div>
          </>
        }
      />
    </div>
  );
}
