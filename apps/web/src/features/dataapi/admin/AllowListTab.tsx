import { useState } from 'react';
import { Alert, App, Button, Input } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { errorText } from '../../../shared/notify.ts';
import { dataApiKeys, fetchApiSettings, saveApiSettings } from '../api.ts';
import { am } from '../messages.ts';

/** The hosts external APIs may call (one a line; exact names or *.example.com). */
export function AllowListTab() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: dataApiKeys.settings, queryFn: fetchApiSettings });
  // What the administrator typed; until then the saved list.
  const [draft, setDraft] = useState<string | null>(null);
  const text = draft ?? (settings.data?.allowedHosts ?? []).join('\n');
  const save = async () => {
    try {
      const allowedHosts = text
        .split('\n')
        .map((h) => h.trim())
        .filter(Boolean);
      message.success((await saveApiSettings({ allowedHosts })).msg);
      setDraft(null);
      void queryClient.invalidateQueries({ queryKey: dataApiKeys.settings });
    } catch (e) {
      message.error(errorText(e));
    }
  };
  return (
    <div style={{ maxWidth: 640 }}>
      <Alert type="info" showIcon message={am.hostsHint} style={{ marginBottom: 12 }} />
      <Input.TextArea
        rows={8}
        value={text}
        onChange={(e) => setDraft(e.target.value)}
        placeholder={'api.example.com\n*.example.org'}
        data-testid="dataapi-hosts"
      />
      <Button type="primary" onClick={save} style={{ marginTop: 12 }} data-testid="dataapi-hosts-save">
        {am.save}
      </Button>
    </div>
  );
}
