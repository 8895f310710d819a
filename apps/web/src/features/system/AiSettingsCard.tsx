import { useEffect } from 'react';
import { Button, Card, Col, Form, Input, InputNumber, Row, Skeleton, Switch } from 'antd';
import { SaveOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AI_DEFAULTS, SECRET_MASK, aiSettingsSchema, type AiSettings } from '@shutu/contracts';
import { msg } from '../../shared/messages.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { applyFieldErrors } from '../../shared/form-errors.ts';
import { zodRules } from '../../shared/zod-rules.ts';
import { aiKeys, fetchAiSettings, saveAiSettings } from '../ai/index.ts';
import { AiLogTable } from './AiLogTable.tsx';

const at = {
  title: 'AI 助手',
  hint: '“AI 生成 SQL”和“AI 生成公式”调用这里配置的 OpenAI 兼容接口（/chat/completions）。API Key 加密保存，不会再显示；生成的 SQL 和公式都先经过校验再给用户。',
  enabled: '启用',
  baseUrl: '接口地址',
  baseUrlExtra: '例如 https://api.openai.com/v1，或内网部署的兼容服务地址',
  model: '模型',
  apiKey: 'API Key',
  apiKeyKept: `已设置（${SECRET_MASK} 表示保留原值，清空则删除）`,
  temperature: '温度',
  maxTokens: '最大 Token 数',
  timeout: '超时（秒）',
  save: '保存 AI 设置',
} as const;

/** 系统设置 → AI 助手 (administrators): the endpoint, model and key the AI panels use, and the latest calls. */
export function AiSettingsCard() {
  const [form] = Form.useForm<AiSettings>();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: aiKeys.settings, queryFn: fetchAiSettings });
  useEffect(() => {
    if (settings.data) form.setFieldsValue(settings.data);
  }, [settings.data, form]);
  const save = useMutation({
    mutationFn: (values: AiSettings) => saveAiSettings(values),
    onSuccess: async (saved) => {
      notifySuccess(msg.saved);
      queryClient.setQueryData(aiKeys.settings, saved);
      await queryClient.invalidateQueries({ queryKey: aiKeys.status });
    },
    onError: (e) => applyFieldErrors(form, e),
  });
  const rule = (name: keyof AiSettings) => zodRules(aiSettingsSchema, name);

  return (
    <Card title={at.title} className="settings-card" style={{ marginTop: 16 }} data-testid="ai-settings">
      {settings.isPending ? (
        <Skeleton active paragraph={{ rows: 4 }} />
      ) : (
        <Form<AiSettings> form={form} layout="vertical" initialValues={{ ...AI_DEFAULTS, enabled: false }} onFinish={(v) => save.mutate(v)}>
          <p style={{ color: 'rgba(0,0,0,0.45)', marginTop: 0 }}>{at.hint}</p>
          <Row gutter={16}>
            <Col xs={24} md={4}>
              <Form.Item label={at.enabled} name="enabled" valuePropName="checked">
                <Switch data-testid="ai-enabled" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item label={at.baseUrl} name="baseUrl" extra={at.baseUrlExtra} rules={rule('baseUrl')}>
                <Input placeholder="https://" data-testid="ai-baseUrl" />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item label={at.model} name="model" rules={rule('model')}>
                <Input placeholder="gpt-4o-mini" data-testid="ai-model" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item label={at.apiKey} name="apiKey" rules={rule('apiKey')} extra={settings.data?.apiKey === SECRET_MASK ? at.apiKeyKept : undefined}>
                <Input.Password autoComplete="new-password" data-testid="ai-apiKey" />
              </Form.Item>
            </Col>
            <Col xs={8} md={4}>
              <Form.Item label={at.temperature} name="temperature">
                <InputNumber min={0} max={2} step={0.1} style={{ width: '100%' }} data-testid="ai-temperature" />
              </Form.Item>
            </Col>
            <Col xs={8} md={4}>
              <Form.Item label={at.maxTokens} name="maxTokens">
                <InputNumber min={64} max={32768} step={256} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={8} md={4}>
              <Form.Item label={at.timeout} name="timeoutSeconds">
                <InputNumber min={5} max={600} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item>
            <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={save.isPending} data-testid="ai-save">
              {at.save}
            </Button>
          </Form.Item>
        </Form>
      )}
      <AiLogTable />
    </Card>
  );
}
