import { Form, Input, Select, Space, Switch } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { templateVariables } from '@shutu/contracts';
import { fetchSmsTemplates, type FieldOption } from '../api.ts';
import { alm } from '../messages.ts';
import type { AlertDraft } from './draft.ts';

const FIXED = '__fixed';

/** SMS (a template, each of its `${var}` mapped to a field or a fixed text) and third-party push (reach ways; the content is the message content). */
export function SmsPushSection({ draft, onChange, fields }: { draft: AlertDraft; onChange(d: AlertDraft): void; fields: FieldOption[] }) {
  const templates = useQuery({ queryKey: ['alert', 'sms-templates'], queryFn: fetchSmsTemplates });
  const smsOn = draft.checkedWays.includes('sms');
  const template = templates.data?.find((t) => t.id === draft.smsId);
  const setParam = (name: string, value: string) => onChange({ ...draft, smsParams: { ...draft.smsParams, [name]: value } });
  const fieldOptions = [...fields.map((f) => ({ label: f.columnTitle, value: `field:${f.id}` })), { label: alm.smsFixed, value: FIXED }];
  return (
    <>
      <Form.Item label={alm.sms}>
        <Switch
          checked={smsOn}
          onChange={(on) => onChange({ ...draft, checkedWays: on ? [...draft.checkedWays, 'sms'] : draft.checkedWays.filter((w) => w !== 'sms') })}
          data-testid="alert-sms"
        />
      </Form.Item>
      {smsOn && (
        <Form.Item label={alm.smsTemplate} required>
          <Select
            value={draft.smsId ?? undefined}
            options={(templates.data ?? []).map((t) => ({ label: t.templateName, value: t.id }))}
            onChange={(id: number) => onChange({ ...draft, smsId: id, smsParams: {} })}
            data-testid="alert-sms-template"
          />
        </Form.Item>
      )}
      {smsOn &&
        template &&
        templateVariables(template.templateContent).map((name) => {
          const value = draft.smsParams[name] ?? '';
          const isField = value.startsWith('field:');
          return (
            <Form.Item key={name} label={`${alm.smsParam}【${name}】`} required>
              <Space>
                <Select
                  style={{ width: 200 }}
                  value={isField ? value : value ? FIXED : undefined}
                  options={fieldOptions}
                  onChange={(v: string) => setParam(name, v === FIXED ? ' ' : v)}
                  data-testid={`alert-sms-param-${name}`}
                />
                {!isField && value !== '' && (
                  <Input
                    placeholder={alm.smsFixedPlaceholder}
                    value={value.trim()}
                    onChange={(e) => setParam(name, e.target.value || ' ')}
                    data-testid={`alert-sms-text-${name}`}
                  />
                )}
              </Space>
            </Form.Item>
          );
        })}
      <Form.Item label={alm.push}>
        <Switch checked={draft.pushEnabled} onChange={(on) => onChange({ ...draft, pushEnabled: on })} />
      </Form.Item>
      {draft.pushEnabled && (
        <Form.Item label={alm.pushWays} required>
          <Select
            mode="tags"
            placeholder={alm.pushWaysPlaceholder}
            value={draft.warningWays.map((w) => w.warningWayEnum)}
            onChange={(ways: string[]) => onChange({ ...draft, warningWays: ways.map((w) => ({ tenantId: '', warningWayEnum: w })) })}
          />
        </Form.Item>
      )}
    </>
  );
}
