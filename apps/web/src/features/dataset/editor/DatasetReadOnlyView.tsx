import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Table, Tabs, Tag, Tooltip, Typography } from 'antd';
import { ArrowLeftOutlined, EyeOutlined, ReloadOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import type { Dataset, DatasetField } from '@shutu/contracts';
import { errorText } from '../../../shared/notify.ts';
import { previewSavedDataset } from './api.ts';
import { fromSaved } from './model-state.ts';
import { previewableFields } from './payload.ts';
import { PreviewTable } from './PreviewTab.tsx';
import { em, fmt } from './messages.ts';

/** Rows the read-only preview shows, as the editor's preview does. */
const PREVIEW_ROWS = 100;

interface Props {
  dataset: Dataset;
  /** The fields the caller may read (columns their permission filters hide are not among them). */
  fields: DatasetField[];
  backPath: string;
}

/**
 * A dataset the user may read but not change (docs/datasets.md "Reading without editing"): what
 * it is made of and its rows under the user's own permission filters, read through the saved
 * dataset's preview. No edit controls, and no call the user is not allowed to make (tables of
 * the data source, the editor's model preview), so no 403 and no error notices.
 */
export function DatasetReadOnlyView({ dataset, fields, backPath }: Props) {
  const navigate = useNavigate();
  const shown = previewableFields(fields.map(fromSaved));
  const request = { detail: true, dimensions: shown.map((f) => ({ fieldId: f.id })), limit: PREVIEW_ROWS };
  const preview = useQuery({
    queryKey: ['dataset', 'read-only', 'preview', dataset.id, JSON.stringify(request)],
    queryFn: () => previewSavedDataset({ cubeDataId: dataset.id, request }),
    enabled: shown.length > 0,
    retry: false,
    staleTime: 0,
  });
  const tableName = (alias: string) => {
    const t = dataset.cubeTableNames.find((x) => x.tableAliasName === alias);
    return t ? t.tableComment || t.tableName : alias;
  };

  return (
    <div className="ds-readonly" data-testid="dataset-readonly">
      <div className="ds-toolbar">
        <Button size="small" icon={<ArrowLeftOutlined />} onClick={() => void navigate(backPath)} data-testid="ds-back">
          {em.back}
        </Button>
        <Typography.Title level={5} className="ds-readonly-title">
          {dataset.cubeName}
        </Typography.Title>
        <Tooltip title={em.readOnlyHint}>
          <Tag icon={<EyeOutlined />} color="default" data-testid="ds-readonly-tag">
            {em.readOnly}
          </Tag>
        </Tooltip>
        <span className="ds-toolbar-spacer" />
        <Button size="small" icon={<ReloadOutlined />} onClick={() => void preview.refetch()} data-testid="ds-refresh">
          {em.refresh}
        </Button>
      </div>
      <div className="ds-readonly-body">
        <Alert type="info" showIcon title={em.readOnlyHint} className="ds-readonly-hint" />
        <Descriptions size="small" column={3} className="ds-readonly-facts">
          <Descriptions.Item label={em.dataSource}>{dataset.dsName}</Descriptions.Item>
          <Descriptions.Item label={em.category}>{dataset.workspaceName}</Descriptions.Item>
          <Descriptions.Item label={em.creator}>{dataset.createUserName ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={em.tables} span={3}>
            {dataset.cubeTableNames.map((t) => (
              <Tag key={t.tableAliasName}>{t.tableComment ? `${t.tableComment}（${t.tableName}）` : t.tableName}</Tag>
            ))}
            {dataset.linksJoin.map((j) => (
              <Typography.Text key={`${j.source}-${j.target}`} type="secondary" className="ds-readonly-join">
                {tableName(j.source)} {em[j.joinType]} {tableName(j.target)}
              </Typography.Text>
            ))}
          </Descriptions.Item>
          {dataset.remark ? (
            <Descriptions.Item label={em.description} span={3}>
              {dataset.remark}
            </Descriptions.Item>
          ) : null}
        </Descriptions>
        <Tabs
          className="ds-tabs"
          items={[
            {
              key: 'preview',
              label: em.preview,
              children: preview.isError ? (
                <Alert type="error" showIcon title={errorText(preview.error)} data-testid="ds-preview-error" />
              ) : (
                <>
                  <Typography.Text type="secondary" className="ds-readonly-rows">
                    {fmt(em.previewFirstRows, { count: PREVIEW_ROWS })}
                  </Typography.Text>
                  <PreviewTable result={preview.data} loading={preview.isFetching} />
                </>
              ),
            },
            { key: 'fields', label: fmt(em.fieldCount, { count: fields.length }), children: <ReadOnlyFields fields={fields} /> },
          ]}
        />
      </div>
    </div>
  );
}

/** The dataset's fields as a plain table: title, kind, type, physical column or formula. */
function ReadOnlyFields({ fields }: { fields: DatasetField[] }) {
  return (
    <Table
      data-testid="ds-readonly-fields"
      size="small"
      rowKey="id"
      pagination={false}
      scroll={{ y: 360 }}
      dataSource={fields}
      columns={[
        { key: 'title', title: em.fieldTitle, dataIndex: 'columnTitle' },
        { key: 'kind', title: em.fieldKind, render: (_, f) => (f.dimensionType === 'WEIDU' ? em.dimension : em.indicator) },
        { key: 'type', title: em.dataType, render: (_, f) => em[f.viewDataType] },
        { key: 'column', title: em.formulaOrColumn, render: (_, f) => (f.columnAttr === 'VIRTUAL' ? f.columnFormula : f.columnName) },
        { key: 'hidden', title: em.hidden, render: (_, f) => (f.hiddenStatus ? em.yes : em.no) },
      ]}
    />
  );
}
