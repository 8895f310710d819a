import { Form, InputNumber, Select, Switch, TimePicker } from 'antd';
import dayjs from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { ALERT_REQUEST_FREQ_MIN } from '@shutu/contracts';
import { fetchAttachableBoards } from '../api.ts';
import { alm } from '../messages.ts';
import type { AlertDraft } from './draft.ts';

const HM = 'HH:mm';

/** When and with what a notice goes: attached reports, quiet hours, the repeat interval and the recovery notice. */
export function NoticeSection({ draft, onChange }: { draft: AlertDraft; onChange(d: AlertDraft): void }) {
  const boards = useQuery({ queryKey: ['alert', 'boards'], queryFn: fetchAttachableBoards });
  const quiet = draft.quietStart && draft.quietEnd ? ([dayjs(draft.quietStart, HM), dayjs(draft.quietEnd, HM)] as const) : null;
  return (
    <>
      <Form.Item label={alm.reports} extra={alm.reportsHint}>
        <Select
          mode="multiple"
          optionFilterProp="label"
          value={draft.visualDataJson.map((v) => v.id)}
          options={(boards.data?.records ?? []).map((b) => ({ label: b.title, value: b.id }))}
          onChange={(ids: number[]) =>
            onChange({
              ...draft,
              visualDataJson: ids.map((id) => ({
                id,
                title: boards.data?.records.find((b) => b.id === id)?.title ?? draft.visualDataJson.find((v) => v.id === id)?.title ?? '',
              })),
            })
          }
          data-testid="alert-reports"
        />
      </Form.Item>
      <Form.Item label={alm.quietHours} extra={alm.quietHint}>
        <div data-testid="alert-quiet">
          <TimePicker.RangePicker
            format={HM}
            order={false}
            value={quiet ? [quiet[0], quiet[1]] : null}
            onChange={(range) => onChange({ ...draft, quietStart: range?.[0]?.format(HM) ?? null, quietEnd: range?.[1]?.format(HM) ?? null })}
          />
        </div>
      </Form.Item>
      <Form.Item label={alm.repeat}>
        <InputNumber
          min={ALERT_REQUEST_FREQ_MIN}
          value={draft.repeatIntervalSeconds}
          onChange={(v) => onChange({ ...draft, repeatIntervalSeconds: v ?? 86_400 })}
        />
      </Form.Item>
      <Form.Item label={alm.recovery}>
        <Switch checked={draft.notifyRecovery} onChange={(on) => onChange({ ...draft, notifyRecovery: on })} />
      </Form.Item>
    </>
  );
}
