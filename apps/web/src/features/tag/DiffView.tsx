import { Card, Select, Space } from 'antd';
import type { ProfileDiff, ProfileShare, ProfileStats } from '@shutu/contracts';
import { BarWidget } from '../../shared/charts/BarLineWidget.tsx';
import { fill, tg } from './messages.ts';

const DIMENSIONS = ['provinces', 'products', 'channels', 'usage', 'tags'] as const;

/** Shares (percent of the audience) of two audiences side by side, by name. */
function sideBySide(a: ProfileStats, b: ProfileStats, key: (typeof DIMENSIONS)[number]) {
  const pct = (rows: ProfileShare[], size: number) => new Map(rows.map((r) => [r.name, size ? Math.round((r.num / size) * 10000) / 100 : 0]));
  const [pa, pb] = [pct(a[key], a.size), pct(b[key], b.size)];
  const names = [...new Set([...pa.keys(), ...pb.keys()])];
  const rows = names.map((name) => ({ name, a: pa.get(name) ?? 0, b: pb.get(name) ?? 0 }));
  // The usage bands keep their order; the other dimensions put the largest gap first.
  return key === 'usage' ? rows : rows.sort((x, y) => Math.abs(y.a - y.b) - Math.abs(x.a - x.b));
}

/** The difference of two audiences: their overlap, and each dimension's shares sorted by the gap. */
export function DiffView(props: { groups: ProfileStats[]; diff: ProfileDiff; onPick: (a: number, b: number) => void }) {
  const { groups, diff } = props;
  const a = groups.find((g) => g.id === diff.a);
  const b = groups.find((g) => g.id === diff.b);
  if (!a || !b) return null;
  const options = groups.map((g) => ({ value: g.id, label: g.groupName }));
  const overlap = [
    { name: tg.profile.both, num: diff.both },
    { name: fill(tg.profile.onlyA, { name: a.groupName }), num: diff.onlyA },
    { name: fill(tg.profile.onlyA, { name: b.groupName }), num: diff.onlyB },
  ];
  const params = [
    { name: 'a', title: `${a.groupName}（%）` },
    { name: 'b', title: `${b.groupName}（%）` },
  ];
  return (
    <Card
      size="small"
      className="profile-diff"
      title={fill(tg.diffOf, { a: a.groupName, b: b.groupName })}
      data-testid="profile-diff"
      extra={
        <Space>
          <Select size="small" value={a.id} options={options} onChange={(v) => props.onPick(v, b.id)} style={{ width: 160 }} />
          <Select size="small" value={b.id} options={options} onChange={(v) => props.onPick(a.id, v)} style={{ width: 160 }} />
        </Space>
      }
    >
      <div className="tag-detail-charts">
        <div>
          <div className="profile-chart-title">{tg.profile.diff}</div>
          <BarWidget chartData={overlap} rowParamList={[{ name: 'name' }]} indexParamList={[{ name: 'num', title: tg.users }]} height={240} />
        </div>
        {DIMENSIONS.map((key) => (
          <div key={key}>
            <div className="profile-chart-title">
              {tg.profile[key]}（{tg.share}）
            </div>
            <BarWidget chartData={sideBySide(a, b, key)} rowParamList={[{ name: 'name' }]} indexParamList={params} height={240} />
          </div>
        ))}
      </div>
    </Card>
  );
}
