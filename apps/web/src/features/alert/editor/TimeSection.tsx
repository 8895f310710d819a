import { Form, InputNumber, Radio, Select, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { ALERT_TIME_TYPES, ALERT_TIME_TYPE_LABELS } from '@shutu/contracts';
import { fetchWindow, type FieldOption } from '../api.ts';
import { alm } from '../messages.ts';
import type { AlertDraft } from './draft.ts';

/** Time column, time type, calcType (NORMAL clears the time-type column) and the relative range with its computed absolute range. */
export function TimeSection({ draft, onChange, fields }: { draft: AlertDraft; onChange(d: AlertDraft): void; fields: FieldOption[] }) {
  const time = draft.filterTimeJson;
  const rel = time.relativeTime;
  const set = (patch: Partial<AlertDraft['filterTimeJson']>) => onChange({ ...draft, filterTimeJson: { ...time, ...patch } });
  const setRel = (patch: Partial<typeof rel>) => set({ relativeTime: { ...rel, ...patch } });
  const range = useQuery({
    queryKey: ['alert', 'window', time.timeType, rel],
    queryFn: async () => (await fetchWindow({ timeType: time.timeType, relativeTime: rel })).data,
    retry: false,
  });
  const options = fields.map((f) => ({ label: f.columnTitle, value: f.id }));
  const modifier = (value: 'BEFORE' | 'AFTER' | undefined, change: (v: 'BEFORE' | 'AFTER') => void) => (
    <Select
      style={{ width: 90 }}
      value={value}
      onChange={change}
      options={[
        { label: alm.before, value: 'BEFORE' },
        { label: alm.after, value: 'AFTER' },
      ]}
    />
  );
  return (
    <>
      <Form.Item label={alm.timeColumn} required>
        <Select value={time.timeColumn ?? undefined} options={options} onChange={(id: number) => set({ timeColumn: id })} data-testid="alert-time-column" />
      </Form.Item>
      <Form.Item label={alm.timeType}>
        <Radio.Group
          value={time.timeType}
          onChange={(e) => set({ timeType: e.target.value })}
          optionType="button"
          options={ALERT_TIME_TYPES.map((t) => ({ label: ALERT_TIME_TYPE_LABELS[t], value: t }))}
        />
      </Form.Item>
      <Form.Item label={alm.calcType}>
        <Space>
          <Radio.Group
            value={time.calcType}
            onChange={(e) => set({ calcType: e.target.value, ...(e.target.value === 'NORMAL' ? { timeTypeColumn: null } : {}) })}
            options={[
              { label: alm.calcNormal, value: 'NORMAL' },
              { label: alm.calcSpecial, value: 'SPECIAL' },
            ]}
          />
          {time.calcType === 'SPECIAL' && (
            <Select
              style={{ width: 180 }}
              placeholder={alm.timeTypeColumn}
              value={time.timeTypeColumn ?? undefined}
              options={options}
              onChange={(id: number) => set({ timeTypeColumn: id })}
            />
          )}
        </Space>
      </Form.Item>
      <Form.Item label={alm.relative}>
        <Space wrap>
          <InputNumber min={0} value={rel.leftVal} onChange={(v) => setRel({ leftVal: v ?? 0 })} data-testid="alert-left-val" />
          {modifier(rel.leftModifier, (v) => setRel({ leftModifier: v }))}
          <span>~</span>
          <InputNumber min={0} value={rel.rightVal} onChange={(v) => setRel({ rightVal: v ?? 0 })} />
          {modifier(rel.rightModifier, (v) => setRel({ rightModifier: v }))}
          <Typography.Text type={range.isError ? 'danger' : 'secondary'} data-testid="alert-range">
            {alm.range}：{range.isError ? (range.error as Error).message : (range.data ?? []).join(' 至 ')}
          </Typography.Text>
        </Space>
      </Form.Item>
    </>
  );
}
