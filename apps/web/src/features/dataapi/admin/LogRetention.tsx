import { useState } from 'react';
import { App, Button, InputNumber, Space, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { errorText } from '../../../shared/notify.ts';
import { dataApiKeys, fetchApiSettings, saveApiSettings } from '../api.ts';
import { am } from '../messages.ts';

/** 日志保留天数: calls older than this are deleted (at save and hourly). */
export function LogRetention() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: dataApiKeys.settings, queryFn: fetchApiSettings });
  const [draft, setDraft] = useState<number | null>(null);
  const days = draft ?? settings.data?.logRetentionDays ?? null;
  const save = async () => {
    try {
      message.success((await saveApiSettings({ logRetentionDays: days ?? 0 })).msg);
      setDraft(null);
      void queryClient.invalidateQueries({ queryKey: ['dataapi'] });
    } catch (e) {
      message.error(errorText(e));
    }
  };
  return (
    <Space>
      <Typography.Text type="secondary">{am.retention}</Typography.Text>
      <InputNumber
        min={1}
        max={3650}
        precision={0}
        value={days}
        onChange={(v) => setDraft(v)}
        addonAfter="天"
        style={{ width: 140 }}
        aria-label={am.retention}
      />
      <Button size="small" onClick={save} disabled={draft === null} data-testid="dataapi-retention-save">
        {am.save}
      </Button>
    </Space>
  );
}
