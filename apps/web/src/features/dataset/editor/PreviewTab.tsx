import { useQuery } from '@tanstack/react-query';
import { Alert, Table } from 'antd';
import type { CubePreviewResult } from '@shutu/contracts';
import { previewCellText } from '../../../shared/charts/format.ts';
import { errorText } from '../../../shared/notify.ts';
import type { FilterTree } from '../filter/types.ts';
import { previewModel } from './api.ts';
import type { EditorModel } from './model-state.ts';
import { buildPreviewBody } from './payload.ts';
import { em } from './messages.ts';

interface Props {
  model: EditorModel;
  datasourceId: number;
  cubeDataId: number | null;
  /** The global filter as edited: applied without its parameter conditions. */
  globalFilter: FilterTree | null;
  /** Bumped by the toolbar's refresh button. */
  refreshKey: number;
}

/** 数据预览: the first rows of the current model, a detail request over the visible fields. */
export function PreviewTab({ model, datasourceId, cubeDataId, globalFilter, refreshKey }: Props) {
  const body = buildPreviewBody(model, datasourceId, cubeDataId, globalFilter);
  const preview = useQuery({
    queryKey: ['dataset', 'editor', 'preview', JSON.stringify(body), refreshKey],
    queryFn: () => previewModel(body!),
    enabled: body !== null,
    retry: false,
    staleTime: 0,
  });
  if (!body) return <Alert type="info" showIcon title={em.previewNeedsFields} />;
  if (preview.isError) return <Alert type="error" showIcon title={errorText(preview.error)} data-testid="ds-preview-error" />;
  return <PreviewTable result={preview.data} loading={preview.isFetching} />;
}

/** The rows of a preview answer, dates and date-times as the spec writes them. */
export function PreviewTable({ result, loading }: { result: CubePreviewResult | undefined; loading: boolean }) {
  const rows = result?.dataList ?? [];
  return (
    <Table
      data-testid="ds-preview"
      size="small"
      bordered
      loading={loading}
      rowKey="__row"
      pagination={false}
      scroll={{ x: 'max-content', y: 360 }}
      columns={(result?.fieldDict ?? []).map((d) => {
        const text = previewCellText(
          d.viewDataType,
          rows.map((r) => r[d.alias]),
        );
        return { key: d.alias, dataIndex: d.alias, title: d.title, ellipsis: true, render: text };
      })}
      dataSource={rows.map((r, i) => ({ ...r, __row: i }))}
      locale={{ emptyText: em.noData }}
    />
  );
}
