import { useEffect } from 'react';
import { Button, Card, Col, Divider, Form, Input, InputNumber, Row, Skeleton, Switch } from 'antd';
import { SaveOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { SECRET_MASK, type NotifySettings } from '@shutu/contracts';
import { API, http } from '../../shared/api.ts';
import { msg } from '../../shared/messages.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { applyFieldErrors } from '../../shared/form-errors.ts';

const nm = {
  title: '通知设置',
  hint: '订阅通过这里配置的邮件服务器和群机器人发送；密码与密钥加密保存，不会再显示',
  email: '邮件服务器（SMTP）',
  smtpHost: '服务器地址',
  smtpPort: '端口',
  smtpSecure: 'SSL/TLS',
  smtpUser: '用户名',
  smtpPassword: '密码',
  smtpFrom: '发件人地址',
  wecom: '企业微信群机器人',
  dingtalk: '钉钉群机器人',
  feishu: '飞书群机器人',
  tianxiangyun: '天象云',
  webhook: 'Webhook 地址',
  secret: '加签密钥',
  token: '令牌',
  secretKept: `已设置（${SECRET_MASK} 表示保留原值，清空则删除）`,
  save: '保存通知设置',
} as const;

const notifyKey = ['system', 'notify'] as const;

/** 系统设置 → 通知设置 (administrators): SMTP and the robots subscriptions send through. */
export function NotifySettingsCard() {
  const [form] = Form.useForm<NotifySettings>();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: notifyKey, queryFn: () => http.get<NotifySettings>(API.system.notify) });
  useEffect(() => {
    if (settings.data) form.setFieldsValue(settings.data);
  }, [settings.data, form]);
  const save = useMutation({
    mutationFn: (values: NotifySettings) => http.put<NotifySettings>(API.system.notify, values),
    onSuccess: (saved) => {
      notifySuccess(msg.saved);
      queryClient.setQueryData(notifyKey, saved);
    },
    onError: (e) => applyFieldErrors(form, e),
  });
  const secretExtra = (field: keyof NotifySettings) => (settings.data?.[field] === SECRET_MASK ? nm.secretKept : undefined);
  const webhook = (name: keyof NotifySettings) => (
    <Form.Item label={nm.webhook} name={name}>
      <Input placeholder="https://" data-testid={`notify-${name}`} />
    </Form.Item>
  );

  return (
    <Card title={nm.title} className="settings-card" style={{ marginTop: 16 }} data-testid="notify-settings">
      {settings.isPending ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : (
        <Form<NotifySettings> form={form} layout="vertical" onFinish={(v) => save.mutate(v)}>
          <p style={{ color: 'rgba(0,0,0,0.45)', marginTop: 0 }}>{nm.hint}</p>
          <Divider titlePlacement="start">{nm.email}</Divider>
          <Row gutter={16}>
            <Col xs={24} md={10}>
              <Form.Item label={nm.smtpHost} name="smtpHost">
                <Input placeholder="smtp.example.com" data-testid="notify-smtpHost" />
              </Form.Item>
            </Col>
            <Col xs={12} md={6}>
              <Form.Item label={nm.smtpPort} name="smtpPort">
                <InputNumber min={1} max={65535} style={{ width: '100%' }} data-testid="notify-smtpPort" />
              </Form.Item>
            </Col>
            <Col xs={12} md={8}>
              <Form.Item label={nm.smtpSecure} name="smtpSecure" valuePropName="checked">
                <Switch />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item label={nm.smtpUser} name="smtpUser">
                <Input autoComplete="off" />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item label={nm.smtpPassword} name="smtpPassword" extra={secretExtra('smtpPassword')}>
                <Input.Password autoComplete="new-password" />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item label={nm.smtpFrom} name="smtpFrom">
                <Input placeholder="bi@example.com" data-testid="notify-smtpFrom" />
              </Form.Item>
            </Col>
          </Row>
          <Divider titlePlacement="start">{nm.wecom}</Divider>
          {webhook('wecomWebhook')}
          {(
            [
              ['dingtalk', 'dingtalkWebhook', 'dingtalkSecret', nm.secret],
              ['feishu', 'feishuWebhook', 'feishuSecret', nm.secret],
              ['tianxiangyun', 'tianxiangyunWebhook', 'tianxiangyunToken', nm.token],
            ] as const
          ).map(([channel, url, secret, secretLabel]) => (
            <div key={channel}>
              <Divider titlePlacement="start">{nm[channel]}</Divider>
              <Row gutter={16}>
                <Col xs={24} md={14}>
                  {webhook(url)}
                </Col>
                <Col xs={24} md={10}>
                  <Form.Item label={secretLabel} name={secret} extra={secretExtra(secret)}>
                    <Input.Password autoComplete="new-password" data-testid={`notify-${secret}`} />
                  </Form.Item>
                </Col>
              </Row>
            </div>
          ))}
          <Form.Item>
            <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={save.isPending} data-testid="notify-save">
              {nm.save}
            </Button>
          </Form.Item>
        </Form>
      )}
    </Card>
  );
}
