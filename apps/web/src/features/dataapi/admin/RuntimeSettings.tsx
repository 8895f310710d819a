import { useState } from 'react';
import { App, Button, InputNumber, Space, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { DataApiSettingsSave } from '@shutu/contracts';
import { errorText } from '../../../shared/notify.ts';
import { dataApiKeys, fetchApiSettings, saveApiSettings } from '../api.ts';
import { am } from '../messages.ts';

/** 日志保留天数 (older calls are deleted at save and hourly) and 缓存时间 (seconds identical published calls share an answer; 0 none). */
export function RuntimeSettings() {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: dataApiKeys.settings, queryFn: fetchApiSettings });
  const [draft, setDraft] = useState<DataApiSettingsSave>({});
  const days = draft.logRetentionDays ?? settings.data?.logRetentionDays ?? null;
  const cache = draft.cacheSeconds ?? settings.data?.cacheSeconds ?? null;
  const save = async () => {
    try {
      message.success((await saveApiSettings(draft)).msg);
      setDraft({});
      void queryClient.invalidateQueries({ queryKey: ['dataapi'] });
    } catch (e) {
      message.error(errorText(e));
    }
  };
  return (
    <Space wrap>
      <Typography.Text type="secondary">{am.retention}</Typography.Text>
      <InputNumber
        min={1}
        max={3650}
        precision={0}
        value={days}
        onChange={(v) => setDraft((d) => ({ ...d, logRetentionDays: v ?? 0 }))}
        addonAfter="天"
        style={{ width: 130 }}
        aria-label={am.retention}
      />
      <Typography.Text type="secondary">{am.cacheSeconds}</Typography.Text>
      <InputNumber
        min={0}
        max={3600}
        precision={0}
        value={cache}
        onChange={(v) => setDraft((d) => ({ ...d, cacheSeconds: v ?? -1 }))}
        addonAfter="秒"
        style={{ width: 130 }}
        aria-label={am.cacheSeconds}
      />
      <Button size="small" onClick={save} disabled={Object.keys(draft).length === 0} data-testid="dataapi-runtime-save">
        {am.save}
      </Button>
    </Space>
  );
}
