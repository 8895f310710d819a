import { useQuery } from '@tanstack/react-query';
import { Alert, Table } from 'antd';
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
  const dict = preview.data?.fieldDict ?? [];
  const rows = preview.data?.dataList ?? [];
  return (
    <Table
      data-testid="ds-preview"
      size="small"
      bordered
      loading={preview.isFetching}
      rowKey={(_, i) => String(i)}
      pagination={false}
      scroll={{ x: 'max-content', y: 360 }}
      columns={dict.map((d) => {
        const text = previewCellText(
          d.viewDataType,
          rows.map((r) => r[d.alias]),
        );
        return { key: d.alias, dataIndex: d.alias, title: d.title, ellipsis: true, render: text };
      })}
      dataSource={rows}
      locale={{ emptyText: em.noData }}
    />
  );
}
