import type { ReactNode } from 'react';
import { Button, Empty, Tabs, Tooltip } from 'antd';
import {
  AreaChartOutlined,
  BarChartOutlined,
  CalendarOutlined,
  DashboardOutlined,
  DownOutlined,
  FileTextOutlined,
  FilterOutlined,
  FontSizeOutlined,
  LineChartOutlined,
  PictureOutlined,
  PieChartOutlined,
  PushpinFilled,
  TableOutlined,
  UnorderedListOutlined,
  UpOutlined,
  VerticalAlignBottomOutlined,
  VerticalAlignTopOutlined,
} from '@ant-design/icons';
import { CHART_TYPE_LABELS, type ChartType } from '@shutu/contracts';
import { et } from './messages.ts';
import { CHART_DRAG_TYPE } from './ScreenCanvas.tsx';
import { byLayer, type LayerOp } from './state.ts';
import type { ChartDraft } from './types.ts';

export const CHART_ICONS: Record<ChartType, ReactNode> = {
  bar: <BarChartOutlined />,
  line: <LineChartOutlined />,
  pie: <PieChartOutlined />,
  table: <TableOutlined />,
  detail: <UnorderedListOutlined />,
  pivot: <AreaChartOutlined />,
  card: <DashboardOutlined />,
  text: <FontSizeOutlined />,
  image: <PictureOutlined />,
  filterSelect: <FilterOutlined />,
  filterDate: <CalendarOutlined />,
};

/** The chart types in the groups of the component panel. */
export const CHART_GROUPS: { label: string; types: ChartType[] }[] = [
  { label: et.groups.chart, types: ['bar', 'line', 'pie'] },
  { label: et.groups.table, types: ['table', 'detail', 'pivot'] },
  { label: et.groups.indicator, types: ['card'] },
  { label: et.groups.other, types: ['text', 'image'] },
  { label: et.groups.filter, types: ['filterSelect', 'filterDate'] },
];

interface Props {
  showLayers: boolean;
  charts: readonly ChartDraft[];
  selectedKey: string | null;
  onAdd(type: ChartType): void;
  onSelect(key: string): void;
  onLayer(key: string, op: LayerOp): void;
}

function Palette({ onAdd }: Pick<Props, 'onAdd'>) {
  return (
    <div className="be-palette">
      <div className="be-palette-hint">{et.addHint}</div>
      {CHART_GROUPS.map((group) => (
        <div key={group.label} className="be-palette-group">
          <div className="be-palette-title">{group.label}</div>
          <div className="be-palette-items">
            {group.types.map((type) => (
              <button
                key={type}
                type="button"
                className="be-palette-item"
                data-testid="palette-item"
                data-type={type}
                draggable
                onDragStart={(e) => {
                  e.dataTransfer.setData(CHART_DRAG_TYPE, type);
                  e.dataTransfer.effectAllowed = 'copy';
                }}
                onClick={() => onAdd(type)}
              >
                <span className="be-palette-icon">{CHART_ICONS[type]}</span>
                <span>{CHART_TYPE_LABELS[type]}</span>
              </button>
            ))}
          </div>
        </div>
      ))}
    </div>
  );
}

function Layers({ charts, selectedKey, onSelect, onLayer }: Omit<Props, 'showLayers' | 'onAdd'>) {
  if (charts.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={et.noLayers} />;
  const front = byLayer(charts).reverse();
  const tools: { op: LayerOp; icon: ReactNode; label: string }[] = [
    { op: 'forward', icon: <UpOutlined />, label: et.forward },
    { op: 'backward', icon: <DownOutlined />, label: et.backward },
    { op: 'front', icon: <VerticalAlignTopOutlined />, label: et.toFront },
    { op: 'back', icon: <VerticalAlignBottomOutlined />, label: et.toBack },
  ];
  return (
    <ul className="be-layers">
      {front.map((chart) => (
        <li
          key={chart.key}
          className={`be-layer${chart.key === selectedKey ? ' is-selected' : ''}`}
          data-testid="layer-item"
          data-chart-key={chart.key}
          onClick={() => onSelect(chart.key)}
        >
          <span className="be-layer-icon">{CHART_ICONS[chart.name] ?? <FileTextOutlined />}</span>
          <span className="be-layer-title" title={chart.title}>
            {chart.title || CHART_TYPE_LABELS[chart.name]}
          </span>
          {chart.site.isFilexd && <PushpinFilled className="be-layer-pin" title={et.fixedBadge} />}
          {chart.key === selectedKey && (
            <span className="be-layer-tools" onClick={(e) => e.stopPropagation()}>
              {tools.map((t) => (
                <Tooltip key={t.op} title={t.label}>
                  <Button size="small" type="text" icon={t.icon} aria-label={t.label} onClick={() => onLayer(chart.key, t.op)} />
                </Tooltip>
              ))}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The component panel (chart types, click or drag to add) and, on screen boards, the layer list. */
export function LeftPanel(props: Props) {
  const palette = <Palette onAdd={props.onAdd} />;
  if (!props.showLayers) {
    return (
      <aside className="be-left">
        <div className="be-panel-title">{et.components}</div>
        {palette}
      </aside>
    );
  }
  return (
    <aside className="be-left">
      <Tabs
        size="small"
        centered
        items={[
          { key: 'components', label: et.components, children: palette },
          { key: 'layers', label: `${et.layers} (${props.charts.length})`, children: <Layers {...props} /> },
        ]}
      />
    </aside>
  );
}
