import { useImperativeHandle, useState, type RefObject } from 'react';
import { Button, Card, Empty, Form, Radio, Space, Table, Tooltip, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import type { ApiParam, ShowField } from '@shutu/contracts';
import { ChartView } from '../../../shared/charts/index.ts';
import { am } from '../messages.ts';
import { CHART_KINDS, chartInput, effectiveKind, kindEnabled, panelsOf, type ChartKind, type Panels } from '../model.ts';
import { DefaultInput } from './ParamSection.tsx';
import { PreviewPanels } from './PreviewPanels.tsx';
import type { PreviewState } from './useDataApiEditor.ts';

interface Props {
  params: ApiParam[];
  preview: PreviewState | null;
  previewing: boolean;
  onPreview: (values: Record<string, unknown>) => void;
  fields: ShowField[];
  onFields: (fields: ShowField[]) => void;
  /** /apiedit1: chart kinds and the row, column and indicator panels; /apiedit: the rows as a table and JSON. */
  withChart: boolean;
  /** The page header's 预览 runs the same preview with the values typed here. */
  triggerRef?: RefObject<{ run: () => void } | null>;
}

function RowsTable({ rows }: { rows: Record<string, unknown>[] }) {
  const keys = rows[0] ? Object.keys(rows[0]) : [];
  const cell = (v: unknown) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v ?? ''));
  return (
    <Table
      size="small"
      rowKey={(_, i) => String(i)}
      scroll={{ x: 'max-content', y: 320 }}
      pagination={false}
      columns={keys.map((k) => ({ title: k, dataIndex: k, render: cell }))}
      dataSource={rows}
    />
  );
}

/** 图表预览 (spec 2 §2): typed parameter values, 预览 / 刷新, the chart kinds and the first 100 rows. */
export function PreviewCard({ params, preview, previewing, onPreview, fields, onFields, withChart, triggerRef }: Props) {
  const [values] = Form.useForm<Record<string, ApiParam['def']>>();
  const [kind, setKind] = useState<ChartKind>('table');
  const [panels, setPanels] = useState<Panels>(() => panelsOf(fields));
  // Each answer lays the fields out anew: dimensions in the row panel, indicators in the indicator panel (spec 2 §4).
  const [laidOut, setLaidOut] = useState(preview);
  if (laidOut !== preview) {
    setLaidOut(preview);
    setPanels(panelsOf(fields));
  }
  const shown = effectiveKind(kind, panels);
  const declared = params.filter((p, i) => p.key.trim() && params.findIndex((q) => q.key.trim() === p.key.trim()) === i);
  const run = () => {
    const typed = values.getFieldsValue();
    onPreview(Object.fromEntries(Object.entries(typed).filter(([, v]) => v !== null && v !== undefined && v !== '')));
  };
  useImperativeHandle(triggerRef, () => ({ run }));

  let body;
  if (!preview) body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={am.notPreviewed} />;
  else if (!withChart) body = preview.rows ? <RowsTable rows={preview.rows} /> : <pre className="dataapi-json">{JSON.stringify(preview.data, null, 2)}</pre>;
  else if (shown === 'json' || !preview.rows)
    body = (
      <pre className="dataapi-json" data-testid="dataapi-preview-json">
        {JSON.stringify(preview.rows ?? preview.data, null, 2)}
      </pre>
    );
  else {
    const { chart, data } = chartInput(shown, panels, fields, preview.rows);
    body = (
      <div className="dataapi-chart" data-testid={`dataapi-chart-${shown}`}>
        <ChartView chart={chart} data={data} loading={false} />
      </div>
    );
  }

  return (
    <Card
      size="small"
      title={am.previewArea}
      extra={
        <Button icon={<ReloadOutlined />} size="small" onClick={run} loading={previewing} aria-label={am.refresh}>
          {am.refresh}
        </Button>
      }
    >
      {declared.length > 0 && (
        <Form form={values} layout="inline" preserve={false} style={{ marginBottom: 12, rowGap: 8 }} data-testid="dataapi-param-values">
          {declared.map((p) => (
            // Keyed by the default too: a changed default becomes the value to preview with.
            <Form.Item
              key={`${p.key}\u0000${String(p.def ?? '')}`}
              name={p.key.trim()}
              label={p.name || p.key}
              initialValue={p.def ?? null}
              style={{ minWidth: 200 }}
            >
              <DefaultInput datatype={p.datatype} value={null} onChange={() => undefined} />
            </Form.Item>
          ))}
        </Form>
      )}
      {withChart && (
        <>
          <Radio.Group
            value={shown}
            onChange={(e) => setKind(e.target.value as ChartKind)}
            optionType="button"
            size="small"
            style={{ marginBottom: 12 }}
            data-testid="dataapi-kinds"
          >
            {CHART_KINDS.map((k) => (
              <Tooltip key={k} title={kindEnabled(k, panels) ? '' : am.pieDisabled}>
                <Radio.Button value={k} disabled={!kindEnabled(k, panels)} data-testid={`dataapi-kind-${k}`}>
                  {am.kinds[k]}
                </Radio.Button>
              </Tooltip>
            ))}
          </Radio.Group>
          {fields.length > 0 && <PreviewPanels fields={fields} onFields={onFields} panels={panels} onPanels={setPanels} />}
        </>
      )}
      {preview && (
        <Typography.Paragraph type="secondary" style={{ fontSize: 12, margin: '8px 0' }} data-testid="dataapi-preview-summary">
          {am.previewRows(preview.rows?.length ?? 0, preview.total, preview.elapsedMs)}
        </Typography.Paragraph>
      )}
      <Space direction="vertical" style={{ width: '100%' }}>
        {body}
      </Space>
    </Card>
  );
}
