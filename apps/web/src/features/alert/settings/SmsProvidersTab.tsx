import { useState } from 'react';
import { Button, Card, Form, Input, Space } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SMS_CATEGORIES, SMS_CATEGORY_LABELS, SMS_PROVIDER_FIELDS, type SmsCategory, type SmsProvider } from '@shutu/contracts';
import { notifyError, notifySuccess } from '../../../shared/notify.ts';
import { fetchSmsProviders, saveSmsProvider } from '../api.ts';
import { alm } from '../messages.ts';

const KEY = ['alert', 'sms-providers'];

/** One provider's form: its fields as SMS_PROVIDER_FIELDS lists them (labels and defaults per provider); the secret comes back as ******. */
function ProviderCard({ provider }: { provider: SmsProvider }) {
  const client = useQueryClient();
  const [form, setForm] = useState(provider);
  const save = useMutation({
    mutationFn: () => saveSmsProvider(form),
    onSuccess: (r) => {
      notifySuccess(r.msg);
      void client.invalidateQueries({ queryKey: KEY });
    },
    onError: notifyError,
  });
  const category = provider.category;
  return (
    <Card size="small" title={SMS_CATEGORY_LABELS[category]} data-testid={`sms-provider-${category}`}>
      <Form layout="horizontal" labelCol={{ flex: '120px' }}>
        {SMS_PROVIDER_FIELDS[category].map((f) => {
          const key = f.key as keyof SmsProvider;
          const Field = f.secret ? Input.Password : Input;
          return (
            <Form.Item key={f.key} label={f.label} extra={f.secret ? alm.secretKept : undefined}>
              <Field
                value={form[key]}
                placeholder={f.default}
                onChange={(e) => setForm({ ...form, [key]: e.target.value })}
                data-testid={`sms-${category}-${f.key}`}
              />
            </Form.Item>
          );
        })}
        <Form.Item label=" " colon={false}>
          <Button type="primary" loading={save.isPending} onClick={() => save.mutate()} data-testid={`sms-${category}-save`}>
            {alm.save}
          </Button>
        </Form.Item>
      </Form>
    </Card>
  );
}

/** 短信服务商: aliyun, qiniu and tencent, each with its own fields (spec 3 §3; spec 2 §9 region defaults). */
export function SmsProvidersTab() {
  const providers = useQuery({ queryKey: KEY, queryFn: fetchSmsProviders });
  const byCategory = (c: SmsCategory) => providers.data?.find((p) => p.category === c);
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%', maxWidth: 720 }}>
      {SMS_CATEGORIES.map((c) => {
        const p = byCategory(c);
        return p ? <ProviderCard key={`${c}:${providers.dataUpdatedAt}`} provider={p} /> : null;
      })}
    </Space>
  );
}
