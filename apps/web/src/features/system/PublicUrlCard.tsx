import { useEffect } from 'react';
import { Button, Card, Form, Input, Skeleton } from 'antd';
import { SaveOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PUBLIC_URL_MAX, normalizePublicUrl, publicUrlInvalid, type PublicUrlSettings } from '@shutu/contracts';
import { API, http } from '../../shared/api.ts';
import { msg } from '../../shared/messages.ts';
import { notifySuccess } from '../../shared/notify.ts';
import { applyFieldErrors } from '../../shared/form-errors.ts';

const pm = {
  title: '公开访问地址',
  hint: '订阅消息里的“查看详情”链接、机器人消息里的图片和分享链接都以这个地址开头。系统部署在反向代理或域名之后时，填写用户实际访问的地址。',
  label: '公开访问地址',
  placeholder: 'https://bi.example.com',
  extra: '以 http:// 或 https:// 开头，可带路径前缀（如 https://example.com/shutu）。保存后立即生效，已生成的分享链接也随之改变。',
  envDefault: (value: string) => `留空时使用环境变量 PUBLIC_URL：${value}`,
  requestDefault: '留空时：分享链接使用浏览器访问本系统的地址，订阅消息使用服务器自身的地址（通常无法从外部打开）。',
  save: '保存公开访问地址',
} as const;

const publicUrlKey = ['system', 'publicUrl'] as const;

interface Values {
  publicUrl: string;
}

/** 系统设置 → 公开访问地址 (administrators): the base of every link sent out (docs/decisions.md). */
export function PublicUrlCard() {
  const [form] = Form.useForm<Values>();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: publicUrlKey, queryFn: () => http.get<PublicUrlSettings>(API.system.publicUrl) });
  useEffect(() => {
    if (settings.data) form.setFieldsValue({ publicUrl: settings.data.publicUrl });
  }, [settings.data, form]);
  const save = useMutation({
    mutationFn: (values: Values) => http.put<PublicUrlSettings>(API.system.publicUrl, { publicUrl: values.publicUrl ?? '' }),
    onSuccess: (saved) => {
      notifySuccess(msg.saved);
      queryClient.setQueryData(publicUrlKey, saved);
      form.setFieldsValue({ publicUrl: saved.publicUrl });
    },
    onError: (e) => applyFieldErrors(form, e),
  });
  const envPublicUrl = settings.data?.envPublicUrl ?? '';

  return (
    <Card title={pm.title} className="settings-card" style={{ marginTop: 16 }} data-testid="public-url-settings">
      {settings.isPending ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : (
        <Form<Values> form={form} layout="vertical" className="settings-form-public-url" onFinish={(v) => save.mutate(v)}>
          <p style={{ color: 'rgba(0,0,0,0.45)', marginTop: 0 }}>{pm.hint}</p>
          <Form.Item
            label={pm.label}
            name="publicUrl"
            extra={
              <>
                <div>{pm.extra}</div>
                <div data-testid="public-url-default">{envPublicUrl ? pm.envDefault(envPublicUrl) : pm.requestDefault}</div>
              </>
            }
            rules={[
              {
                validator: (_, value: string | undefined) =>
                  normalizePublicUrl(value ?? '') === undefined || (value ?? '').length > PUBLIC_URL_MAX
                    ? Promise.reject(new Error(publicUrlInvalid))
                    : Promise.resolve(),
              },
            ]}
          >
            <Input placeholder={envPublicUrl || pm.placeholder} maxLength={PUBLIC_URL_MAX} allowClear data-testid="public-url" />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={save.isPending} data-testid="public-url-save">
              {pm.save}
            </Button>
          </Form.Item>
        </Form>
      )}
    </Card>
  );
}
