import { useEffect } from 'react';
import { Button, Card, Form, Input, Typography } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FrameSettings } from '@shutu/contracts';
import { notifyError, notifySuccess } from '../../shared/notify.ts';
import { appKeys, fetchFrameSettings, saveFrameSettings } from './api.ts';
import { am } from './messages.ts';

/** 系统设置 · 登录后全屏大屏: the default address of users without a bigdataId (spec 3 §2). */
export function FrameSettingsCard() {
  const [form] = Form.useForm<FrameSettings>();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: appKeys.frameSettings, queryFn: fetchFrameSettings });
  useEffect(() => {
    if (settings.data) form.setFieldsValue(settings.data);
  }, [settings.data, form]);
  const save = useMutation({
    mutationFn: saveFrameSettings,
    onSuccess: (result) => {
      notifySuccess(result.msg || am.saved);
      queryClient.setQueryData(appKeys.frameSettings, result.data);
      void queryClient.invalidateQueries({ queryKey: appKeys.frame });
    },
    onError: notifyError,
  });
  return (
    <Card title={am.frameCard} className="settings-card" style={{ marginTop: 16 }} data-testid="frame-settings">
      <Typography.Paragraph type="secondary">{am.frameHint}</Typography.Paragraph>
      <Form form={form} layout="inline" onFinish={(v) => save.mutate({ defaultAddress: v.defaultAddress ?? '' })}>
        <Form.Item
          label={am.frameDefault}
          name="defaultAddress"
          rules={[
            {
              validator: (_, v?: string) =>
                !v || v.startsWith('/') || /^https?:\/\//i.test(v) ? Promise.resolve() : Promise.reject(new Error(am.frameAddressInvalid)),
            },
          ]}
        >
          <Input data-testid="frame-default" placeholder={am.framePlaceholder} style={{ width: 360 }} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {am.save}
        </Button>
      </Form>
    </Card>
  );
}
