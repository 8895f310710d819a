import { useEffect } from 'react';
import { Button, Card, Form, Input, Skeleton } from 'antd';
import { SaveOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { systemConfigSchema, type SystemConfig } from '@shutu/contracts';
import { msg, t } from '../../shared/messages.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { applyFieldErrors } from '../../shared/form-errors.ts';
import { PageContainer } from '../../shared/PageContainer.tsx';
import { zodRules } from '../../shared/zod-rules.ts';
import { fetchSystemConfig, saveSystemConfig, systemKeys } from './api.ts';
import { NotifySettingsCard } from './NotifySettingsCard.tsx';
import { EmbedSettingsCard } from './EmbedSettingsCard.tsx';
import { PublicUrlCard } from './PublicUrlCard.tsx';
import { TimeZoneCard } from './TimeZoneCard.tsx';
import { FileTableSourceCard } from './FileTableSourceCard.tsx';
import { AiSettingsCard } from './AiSettingsCard.tsx';
import { FrameSettingsCard } from '../app/FrameSettingsCard.tsx';

export function SystemSettingsPage() {
  const [form] = Form.useForm<SystemConfig>();
  const queryClient = useQueryClient();
  const config = useQuery({ queryKey: systemKeys.config, queryFn: fetchSystemConfig });

  useEffect(() => {
    if (config.data) form.setFieldsValue(config.data);
  }, [config.data, form]);

  const mutation = useMutation({
    mutationFn: (v: SystemConfig) => saveSystemConfig({ systemName: v.systemName.trim() }),
    onSuccess: async (saved) => {
      notifySuccess(msg.saved);
      queryClient.setQueryData(systemKeys.config, saved);
      await queryClient.invalidateQueries({ queryKey: systemKeys.config });
    },
    onError: (e) => applyFieldErrors(form, e),
  });

  return (
    <PageContainer title={t.pageSettings} description={t.settingsDesc}>
      <Card title={t.systemBasic} className="settings-card">
        {config.isPending ? (
          <Skeleton active paragraph={{ rows: 2 }} />
        ) : (
          <Form<SystemConfig> form={form} layout="vertical" className="settings-form" onFinish={(v) => mutation.mutate(v)}>
            <Form.Item label={t.systemName} name="systemName" extra={t.systemNameHint} rules={zodRules(systemConfigSchema, 'systemName')}>
              <Input placeholder={t.systemNamePlaceholder} maxLength={50} showCount />
            </Form.Item>
            <Form.Item>
              <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={mutation.isPending}>
                {t.save}
              </Button>
            </Form.Item>
          </Form>
        )}
      </Card>
      <TimeZoneCard />
      <PublicUrlCard />
      <FileTableSourceCard />
      <NotifySettingsCard />
      <EmbedSettingsCard />
      <AiSettingsCard />
      <FrameSettingsCard />
    </PageContainer>
  );
}
