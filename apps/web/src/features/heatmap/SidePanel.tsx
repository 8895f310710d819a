import { Card, Table, Typography } from 'antd';
import type { HeatmapArea, HeatmapResult } from '@shutu/contracts';
import { hmt } from './messages.ts';

type PageCount = HeatmapResult['pages'][number];

/** Beside the map: the clicks per page for the same user and dates, and the busiest areas of the page shown. */
export function SidePanel({ result, title, onPick }: { result: HeatmapResult; title: string; onPick: (title: string) => void }) {
  return (
    <div className="heatmap-side">
      <Card size="small" title={hmt.pages} data-testid="heatmap-pages">
        <Table<PageCount>
          size="small"
          rowKey="title"
          pagination={false}
          dataSource={result.pages}
          locale={{ emptyText: hmt.noClicks }}
          onRow={(row) => ({ onClick: () => onPick(row.title), style: { cursor: 'pointer' } })}
          columns={[
            {
              title: hmt.colPage,
              dataIndex: 'title',
              render: (text: string) => (text === title ? <Typography.Text strong>{text}</Typography.Text> : text),
            },
            {
              title: hmt.colCount,
              dataIndex: 'count',
              width: 80,
              align: 'right',
              render: (n: number) => <span data-page-count={n}>{n.toLocaleString('zh-CN')}</span>,
            },
          ]}
        />
      </Card>
      <Card size="small" title={hmt.topAreas} data-testid="heatmap-areas">
        <Table<HeatmapArea>
          size="small"
          rowKey={(a) => `${a.x}:${a.y}`}
          pagination={false}
          dataSource={result.topAreas}
          locale={{ emptyText: hmt.noClicks }}
          columns={[
            { title: hmt.colArea, key: 'area', render: (_, a) => hmt.areaLabel(a.x, a.y) },
            { title: hmt.colCount, dataIndex: 'count', width: 80, align: 'right' },
          ]}
        />
      </Card>
    </div>
  );
}
