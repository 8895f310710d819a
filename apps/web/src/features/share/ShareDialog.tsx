import { useState } from 'react';
import { Alert, App, Button, DatePicker, Form, Input, Modal, Radio, Space, Typography } from 'antd';
import { CopyOutlined, LinkOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import {
  SHARE_PASSWORD_LENGTH,
  SHARE_PURPOSE_MAX_LENGTH,
  shareLinkCreateSchema,
  type ShareDataType,
  type ShareLink,
  type ShareLinkType,
} from '@shutu/contracts';
import { copyText, createShareLink, formatDateTime } from './api.ts';
import { sm } from './messages.ts';
import './share.css';
import { zodRules } from '../../shared/zod-rules.ts';

export interface ShareDialogProps {
  open: boolean;
  dataType: ShareDataType;
  dataId: number;
  title: string;
  onClose: () => void;
}

interface FormValues {
  purpose?: string;
  linkType: ShareLinkType;
  password?: string;
  expiry: 'forever' | 'until';
  expireAt?: Dayjs | null;
}

const INITIAL: FormValues = { linkType: 0, expiry: 'forever', purpose: '', password: '' };

/** The created link: its address with 复制链接, and what the visitor needs to know. */
function CreatedLink({ link, password, onAnother }: { link: ShareLink; password: string; onAnother: () => void }) {
  const { message } = App.useApp();
  const copy = async () => {
    const text = password ? `${link.shortLink}\n${sm.passwordNote(password)}` : link.shortLink;
    if (await copyText(text)) void message.success(sm.copied);
    else void message.error(sm.copyFailed);
  };
  return (
    <div className="share-created" data-testid="share-created">
      <Alert type="success" showIcon title={sm.linkReady} />
      <Space.Compact className="share-link-row">
        <Input readOnly value={link.shortLink} prefix={<LinkOutlined />} data-testid="share-link" aria-label={sm.copy} />
        <Button type="primary" icon={<CopyOutlined />} onClick={() => void copy()} data-testid="share-copy">
          {sm.copy}
        </Button>
      </Space.Compact>
      <Typography.Paragraph type="secondary" className="share-created-facts">
        {sm.linkTypeLabels[link.linkType]}
        {password ? ` · ${sm.passwordNote(password)}` : ''}
        {` · ${sm.expiry}：${link.expireTime ? formatDateTime(link.expireTime) : sm.forever}`}
      </Typography.Paragraph>
      <Button type="link" onClick={onAnother} className="share-another">
        {sm.another}
      </Button>
    </div>
  );
}

/**
 * 分享: makes a short link to a dashboard, report or slideshow — 用途, 访问方式 (免登录 / 账号匹配),
 * optional 访问密码, 有效期 (永久 or a date and time) — and shows it with 复制链接.
 */
export function ShareDialog({ open, dataType, dataId, title, onClose }: ShareDialogProps) {
  const [form] = Form.useForm<FormValues>();
  const [created, setCreated] = useState<{ link: ShareLink; password: string } | null>(null);
  const linkType = Form.useWatch('linkType', form) ?? 0;
  const expiry = Form.useWatch('expiry', form) ?? 'forever';

  const create = useMutation({
    mutationFn: (values: FormValues) =>
      createShareLink({
        dataType,
        dataId,
        purpose: values.purpose?.trim() ?? '',
        linkType: values.linkType,
        password: values.password || null,
        expireTime: values.expiry === 'until' && values.expireAt ? values.expireAt.toISOString() : null,
      }),
    onSuccess: (result, values) => setCreated({ link: result.data, password: values.password ?? '' }),
  });

  const close = () => {
    setCreated(null);
    form.resetFields();
    create.reset();
    onClose();
  };
  const another = () => {
    setCreated(null);
    create.reset();
  };

  return (
    <Modal
      open={open}
      title={sm.dialogTitle(title)}
      onCancel={close}
      destroyOnHidden
      width={560}
      footer={
        created ? (
          <Button onClick={close}>{sm.close}</Button>
        ) : (
          <Space>
            <Button onClick={close}>{sm.cancel}</Button>
            <Button type="primary" loading={create.isPending} onClick={() => form.submit()} data-testid="share-create">
              {sm.create}
            </Button>
          </Space>
        )
      }
    >
      <div data-testid="share-dialog">
        {created ? (
          <CreatedLink link={created.link} password={created.password} onAnother={another} />
        ) : (
          <Form<FormValues> form={form} layout="vertical" initialValues={INITIAL} onFinish={(values) => create.mutate(values)} requiredMark={false}>
            <Form.Item name="purpose" label={sm.purpose}>
              <Input placeholder={sm.purposePlaceholder} maxLength={SHARE_PURPOSE_MAX_LENGTH} data-testid="share-purpose" />
            </Form.Item>
            <Form.Item name="linkType" label={sm.linkType} extra={linkType === 1 ? sm.accountMatchingHint : sm.loginFreeHint}>
              <Radio.Group
                optionType="button"
                buttonStyle="solid"
                data-testid="share-link-type"
                options={[
                  { value: 0, label: sm.linkTypeLabels[0] },
                  { value: 1, label: sm.linkTypeLabels[1] },
                ]}
              />
            </Form.Item>
            <Form.Item name="password" label={sm.password} rules={zodRules(shareLinkCreateSchema, 'password')}>
              <Input.Password
                placeholder={sm.passwordPlaceholder}
                maxLength={SHARE_PASSWORD_LENGTH.max}
                autoComplete="new-password"
                data-testid="share-password"
              />
            </Form.Item>
            <Form.Item label={sm.expiry} required={false}>
              <Space wrap>
                <Form.Item name="expiry" noStyle>
                  <Radio.Group
                    data-testid="share-expiry"
                    options={[
                      { value: 'forever', label: sm.forever },
                      { value: 'until', label: sm.until },
                    ]}
                  />
                </Form.Item>
                {expiry === 'until' && (
                  <Form.Item name="expireAt" noStyle rules={[{ required: true, message: sm.expiryRequired }]}>
                    <DatePicker
                      showTime={{ format: 'HH:mm' }}
                      format="YYYY-MM-DD HH:mm"
                      placeholder={sm.expiryPlaceholder}
                      disabledDate={(d) => d.isBefore(dayjs(), 'day')}
                      data-testid="share-expire-at"
                    />
                  </Form.Item>
                )}
              </Space>
            </Form.Item>
          </Form>
        )}
      </div>
    </Modal>
  );
}
