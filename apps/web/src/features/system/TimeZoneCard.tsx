import { useEffect, useMemo } from 'react';
import { Button, Card, Form, Select, Skeleton } from 'antd';
import { SaveOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { COMMON_TIME_ZONES, describeTimeZone, timeZoneRequired, type TimeZoneSettings } from '@shutu/contracts';
import { API, http } from '../../shared/api.ts';
import { msg } from '../../shared/messages.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { applyFieldErrors } from '../../shared/form-errors.ts';
import { displayTimeZoneName, formatDateTime, setDisplayTimeZone } from '../../shared/time.ts';
import { systemKeys } from './api.ts';

const zm = {
  title: '时区',
  hint: '订阅按此时区的钟点发送，今天、本月、最近7天等相对日期按此时区的日期计算，页面上的时间也都按此时区显示（与浏览器所在时区无关）。',
  label: '系统时区',
  placeholder: '搜索城市或时区名称，如 东京、Asia/Tokyo',
  change: '更改后，每个订阅保持原来的钟点（如每日 8:00）按新时区发送；新时区中今天已经过去的发送时间不再补发。',
  current: (name: string, now: string) => `当前：${name}，现在是 ${now}`,
  save: '保存时区',
} as const;

const timeZoneKey = ['system', 'timeZone'] as const;

interface Values {
  timeZone: string;
}

/** Common zones first (Asia/Shanghai leading), then every other zone this browser knows, by name. */
function zoneOptions(now: Date): { value: string; label: string }[] {
  const common = COMMON_TIME_ZONES.map((z) => z.zone);
  const rest = Intl.supportedValuesOf('timeZone').filter((zone) => !common.includes(zone));
  return [...common, ...rest].map((zone) => ({ value: zone, label: describeTimeZone(zone, now) }));
}

/** 系统设置 → 时区 (administrators): the clock of schedules, relative dates and every time shown (docs/decisions.md "Time zone"). */
export function TimeZoneCard() {
  const [form] = Form.useForm<Values>();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: timeZoneKey, queryFn: () => http.get<TimeZoneSettings>(API.system.timeZone) });
  const options = useMemo(() => zoneOptions(new Date()), []);
  useEffect(() => {
    if (settings.data) form.setFieldsValue(settings.data);
  }, [settings.data, form]);
  const save = useMutation({
    mutationFn: (values: Values) => http.put<TimeZoneSettings>(API.system.timeZone, { timeZone: values.timeZone }),
    onSuccess: async (saved) => {
      notifySuccess(msg.saved);
      setDisplayTimeZone(saved.timeZone);
      queryClient.setQueryData(timeZoneKey, saved);
      await queryClient.invalidateQueries({ queryKey: systemKeys.config });
    },
    onError: (e) => applyFieldErrors(form, e),
  });

  return (
    <Card title={zm.title} className="settings-card" style={{ marginTop: 16 }} data-testid="time-zone-settings">
      {settings.isPending ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : (
        <Form<Values> form={form} layout="vertical" className="settings-form-time-zone" onFinish={(v) => save.mutate(v)}>
          <p style={{ color: 'rgba(0,0,0,0.45)', marginTop: 0 }}>{zm.hint}</p>
          <Form.Item
            label={zm.label}
            name="timeZone"
            rules={[{ required: true, message: timeZoneRequired }]}
            extra={
              <>
                <div data-testid="time-zone-current">{zm.current(displayTimeZoneName(), formatDateTime(new Date()))}</div>
                <div>{zm.change}</div>
              </>
            }
          >
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              placeholder={zm.placeholder}
              options={options}
              style={{ maxWidth: 480 }}
              data-testid="time-zone"
              aria-label={zm.label}
            />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={save.isPending} data-testid="time-zone-save">
              {zm.save}
            </Button>
          </Form.Item>
        </Form>
      )}
    </Card>
  );
}
