import { useEffect } from 'react';
import { Button, Card, Form, Input, Skeleton } from 'antd';
import { SaveOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { EMBED_ORIGIN_PATTERN, EMBED_ORIGINS_MAX, embedOriginInvalid, normalizeEmbedOrigin, type EmbedSettings } from '@shutu/contracts';
import { API, http } from '../../shared/api.ts';
import { msg } from '../../shared/messages.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { applyFieldErrors } from '../../shared/form-errors.ts';

const em = {
  title: '嵌入设置',
  hint: '默认只有本系统自己的页面可以用 iframe 嵌入报表预览（/openview）和分享链接（/share）。需要嵌入到其他系统（如门户、OA）时，在这里填写那些系统的来源地址；其他页面始终不允许被外部嵌入。',
  label: '允许嵌入的来源',
  placeholder: 'https://portal.example.com\nhttps://*.example.com:8443',
  extra: `每行一个，只填协议、域名和端口（不含路径），可用 *. 表示所有子域名；最多 ${EMBED_ORIGINS_MAX} 个。保存后立即生效。`,
  tooMany: `最多填写${EMBED_ORIGINS_MAX}个来源`,
  save: '保存嵌入设置',
} as const;

const embedKey = ['system', 'embed'] as const;

/** The form holds the list as text, one origin a line; field errors of `embedOrigins` land on it. */
interface Values {
  embedOrigins: string;
}

const lines = (text: string | undefined) =>
  (text ?? '')
    .split(/[\n,，\s]+/)
    .map(normalizeEmbedOrigin)
    .filter((v) => v !== '');

/** 系统设置 → 嵌入设置 (administrators): the origins allowed to frame /openview and share links. */
export function EmbedSettingsCard() {
  const [form] = Form.useForm<Values>();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: embedKey, queryFn: () => http.get<EmbedSettings>(API.system.embed) });
  useEffect(() => {
    if (settings.data) form.setFieldsValue({ embedOrigins: settings.data.embedOrigins.join('\n') });
  }, [settings.data, form]);
  const save = useMutation({
    mutationFn: (values: Values) => http.put<EmbedSettings>(API.system.embed, { embedOrigins: lines(values.embedOrigins) }),
    onSuccess: (saved) => {
      notifySuccess(msg.saved);
      queryClient.setQueryData(embedKey, saved);
    },
    onError: (e) => applyFieldErrors(form, e),
  });

  return (
    <Card title={em.title} className="settings-card" style={{ marginTop: 16 }} data-testid="embed-settings">
      {settings.isPending ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : (
        <Form<Values> form={form} layout="vertical" className="settings-form-embed" onFinish={(v) => save.mutate(v)}>
          <p style={{ color: 'rgba(0,0,0,0.45)', marginTop: 0 }}>{em.hint}</p>
          <Form.Item
            label={em.label}
            name="embedOrigins"
            extra={em.extra}
            rules={[
              {
                validator: (_, value: string | undefined) => {
                  const list = lines(value);
                  if (list.length > EMBED_ORIGINS_MAX) return Promise.reject(new Error(em.tooMany));
                  const bad = list.find((v) => !EMBED_ORIGIN_PATTERN.test(v));
                  return bad ? Promise.reject(new Error(embedOriginInvalid(bad))) : Promise.resolve();
                },
              },
            ]}
          >
            <Input.TextArea rows={4} placeholder={em.placeholder} data-testid="embed-origins" />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={save.isPending}>
              {em.save}
            </Button>
          </Form.Item>
        </Form>
      )}
    </Card>
  );
}
