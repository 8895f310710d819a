import { useState } from 'react';
import { Tabs, Tag, Typography } from 'antd';
import { CHART_TYPE_LABELS } from '@shutu/contracts';
import type { ChartConfigPanelProps } from '../types.ts';
import { DataTab } from './DataTab.tsx';
import { LinkTab } from './LinkTab.tsx';
import { cm } from './messages.ts';
import { chartName, configOf, isStatic } from './rules.ts';
import { StyleTab } from './StyleTab.tsx';
import { useChartFields } from './data.ts';
import { withAutoTitle } from './title.ts';
import './config.css';

type TabKey = 'data' | 'style' | 'link';

/**
 * The right-hand panel of the board editors for the selected chart: 数据 (dataset, field
 * lists by the type's rule, filter, sort, limit), 样式 (title, frame, colours, chart
 * switches, number formats, text / image content) and 联动 (links the chart receives, or
 * whom it drives). Text and image charts have no 数据 tab. Every edit calls onChange with
 * a whole new chart; the panel edits the selected chart only.
 */
export function ChartConfigPanel({ chart, charts, boardType, defaultCubeId, onChange: report }: ChartConfigPanelProps) {
  const staticChart = isStatic(chart.name);
  // An automatic title (the type's label or the fields') follows the fields; a typed one stays.
  const cubeId = configOf(chart, defaultCubeId)?.cubeId ?? null;
  const fields = useChartFields(staticChart ? null : cubeId);
  const onChange = (next: typeof chart) => report(staticChart ? next : withAutoTitle(chart, next, fields.data, cubeId));
  const [tab, setTab] = useState<TabKey>(staticChart ? 'style' : 'data');
  const active: TabKey = staticChart && tab === 'data' ? 'style' : tab;
  const items = [
    ...(staticChart
      ? []
      : [{ key: 'data', label: cm.tabData, children: <DataTab key={chart.key} chart={chart} defaultCubeId={defaultCubeId} onChange={onChange} /> }]),
    { key: 'style', label: cm.tabStyle, children: <StyleTab chart={chart} boardType={boardType} onChange={onChange} /> },
    { key: 'link', label: cm.tabLink, children: <LinkTab key={chart.key} chart={chart} charts={charts} defaultCubeId={defaultCubeId} onChange={onChange} /> },
  ];
  return (
    <div className="ccp" data-testid="chart-config-panel" data-chart={chart.key}>
      <div className="ccp-header">
        <Tag color="blue">{CHART_TYPE_LABELS[chart.name]}</Tag>
        <Typography.Text strong ellipsis className="ccp-header-title">
          {chartName(chart)}
        </Typography.Text>
      </div>
      <Tabs size="small" activeKey={active} onChange={(k) => setTab(k as TabKey)} items={items} className="ccp-tabs" />
    </div>
  );
}
