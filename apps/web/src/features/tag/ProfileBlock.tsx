import { Card, Statistic } from 'antd';
import type { ProfileShare, ProfileStats } from '@shutu/contracts';
import { BarWidget } from '../../shared/charts/BarLineWidget.tsx';
import { tg } from './messages.ts';

const CHARTS = ['provinces', 'areas', 'products', 'channels', 'usage', 'tags'] as const;
type ChartKey = (typeof CHARTS)[number];

function ShareChart({ title, rows, horizontal }: { title: string; rows: ProfileShare[]; horizontal?: boolean }) {
  return (
    <div>
      <div className="profile-chart-title">{title}</div>
      <BarWidget
        chartData={rows}
        rowParamList={[{ name: 'name', title }]}
        indexParamList={[{ name: 'num', title: tg.users }]}
        horizontal={horizontal}
        height={horizontal ? 280 : 220}
      />
    </div>
  );
}

/** One audience's statistics block of the comparison page: its size and one chart per dimension. */
export function ProfileBlock({ stats }: { stats: ProfileStats }) {
  const horizontal: Partial<Record<ChartKey, boolean>> = { areas: true, tags: true };
  return (
    <Card
      size="small"
      className="profile-block"
      title={stats.groupName}
      extra={`${tg.analyse} ${stats.startAnalyseDate} ~ ${stats.endAnalyseDate}`}
      data-testid={`profile-block-${stats.id}`}
    >
      <Statistic title={tg.profile.size} value={stats.size} suffix="人" />
      {CHARTS.map((key) => (
        <ShareChart key={key} title={tg.profile[key]} rows={stats[key]} horizontal={horizontal[key]} />
      ))}
    </Card>
  );
}
