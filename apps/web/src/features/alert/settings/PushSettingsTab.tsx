import { useState } from 'react';
import { Alert, Button, Form, Input } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AlertPushSettings } from '@shutu/contracts';
import { notifyError, notifySuccess } from '../../../shared/notify.ts';
import { fetchPushSettings, savePushSettings } from '../api.ts';
import { alm } from '../messages.ts';

const KEY = ['alert', 'push-settings'];

function PushForm({ settings }: { settings: AlertPushSettings }) {
  const client = useQueryClient();
  const [form, setForm] = useState(settings);
  const save = useMutation({
    mutationFn: () => savePushSettings(form),
    onSuccess: (r) => {
      notifySuccess(r.msg);
      void client.invalidateQueries({ queryKey: KEY });
    },
    onError: notifyError,
  });
  return (
    <Form layout="horizontal" labelCol={{ flex: '120px' }} style={{ maxWidth: 720 }}>
      <Alert type="info" showIcon title={alm.pushHint} style={{ marginBottom: 16 }} />
      <Form.Item label={alm.pushUrl}>
        <Input value={form.url} placeholder="https://" onChange={(e) => setForm({ ...form, url: e.target.value })} data-testid="push-url" />
      </Form.Item>
      <Form.Item label={alm.pushSecret} extra={alm.secretKept}>
        <Input.Password value={form.secret} onChange={(e) => setForm({ ...form, secret: e.target.value })} data-testid="push-secret" />
      </Form.Item>
      <Form.Item label=" " colon={false}>
        <Button type="primary" loading={save.isPending} onClick={() => save.mutate()} data-testid="push-save">
          {alm.save}
        </Button>
      </Form.Item>
    </Form>
  );
}

/** 第三方推送设置: the endpoint alerts are POSTed to as signed JSON, and its signing secret (answered as ******). */
export function PushSettingsTab() {
  const settings = useQuery({ queryKey: KEY, queryFn: fetchPushSettings });
  return settings.data ? <PushForm key={settings.dataUpdatedAt} settings={settings.data} /> : null;
}
