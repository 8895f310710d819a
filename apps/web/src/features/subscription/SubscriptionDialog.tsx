import { useEffect } from 'react';
import { Form, Input, Modal, Radio, Select, Space, type ButtonProps } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  NOTIFY_TYPES,
  NOTIFY_TYPE_LABELS,
  SUBSCRIPTION_FORMATS,
  SUBSCRIPTION_FORMAT_LABELS,
  TRIGGER_DAY_VALUES,
  TRIGGER_HOURS,
  TRIGGER_PERIODS,
  TRIGGER_PERIOD_LABELS,
  TRIGGER_WEEK_VALUES,
  WEEKDAY_LABELS,
  NOTIFY_TITLE_MAX_LENGTH,
  subscriptionMessages,
  subscriptionSaveSchema,
  type NotifyType,
  type Subscription,
  type SubscriptionFormat,
  type TriggerPeriod,
} from '@shutu/contracts';
import { notifyError, notifySuccess } from '../../shared/notify.ts';
import { zodRules } from '../../shared/zod-rules.ts';
import { displayTimeZoneName } from '../../shared/time.ts';
import { checkNotifyType, saveSubscription, subscriptionKeys } from './api.ts';
import { sm } from './messages.ts';

/** What can be subscribed to (spec 1 §3 "Subscription form" dataType). */
export type SubscriptionDataType = 'ppt' | 'visual' | 'report';

export interface SubscriptionDialogProps {
  open: boolean;
  dataType: SubscriptionDataType;
  /** The slideshow or board id. */
  dataId: number;
  /** The subscription name (slideshow or board title): the notification title defaults to it. */
  subTitle: string;
  onClose(): void;
  /** Editing an existing subscription (我的订阅); absent creates one. */
  subscription?: Subscription;
}

interface FormValues {
  notifyTitle: string;
  notifyType: NotifyType;
  triggerPeriod: TriggerPeriod;
  triggerHour: number;
  triggerWeekValue: number;
  triggerDayValue: number;
  format: SubscriptionFormat;
}

/** Where the user fills in their email (spec 1 §2.10: the dialog opens account settings at /info/index). */
export const ACCOUNT_SETTINGS_PATH = '/info/index';

const initialValues = (subTitle: string, subscription?: Subscription): FormValues => ({
  notifyTitle: subscription?.notifyTitle ?? subTitle,
  notifyType: subscription?.notifyType ?? 'email',
  triggerPeriod: subscription?.triggerPeriod ?? 'day',
  triggerHour: subscription?.triggerHour ?? 8,
  triggerWeekValue: subscription?.triggerWeekValue ?? 2,
  triggerDayValue: subscription?.triggerDayValue ?? 1,
  format: subscription?.format ?? 'image',
});

/**
 * 订阅 (spec 1 §4, §5): the notification title starts as the subscription name (required,
 * 请输入通知标题); choosing a method asks the server whether it can be used, and when it
 * cannot, its message shows in red under the field and 保存 stays disabled (email: with a link
 * to 个人设置). Periods: day with all 24 hours, week 周日(1)…周六(7), month days 1–30.
 */
export function SubscriptionDialog({ open, dataType, dataId, subTitle, onClose, subscription }: SubscriptionDialogProps) {
  const [form] = Form.useForm<FormValues>();
  const queryClient = useQueryClient();
  const notifyType: NotifyType = Form.useWatch('notifyType', form) ?? subscription?.notifyType ?? 'email';
  const period = Form.useWatch('triggerPeriod', form) ?? subscription?.triggerPeriod ?? 'day';

  useEffect(() => {
    if (!open) return;
    form.setFieldsValue(initialValues(subTitle, subscription));
  }, [open, subTitle, subscription, form]);

  const check = useQuery({ queryKey: subscriptionKeys.check(notifyType), queryFn: () => checkNotifyType(notifyType), enabled: open, staleTime: 10_000 });
  const unusable = check.data && !check.data.usable ? check.data.msg : undefined;

  const save = useMutation({
    mutationFn: (values: FormValues) =>
      saveSubscription({
        ...values,
        id: subscription?.id ?? null,
        dataType,
        dataId,
        subTitle,
        notifyTitle: values.notifyTitle.trim(),
        enabled: subscription?.enabled ?? true,
      }),
    onSuccess: async (result) => {
      notifySuccess(result.msg || subscriptionMessages.subscribed);
      await queryClient.invalidateQueries({ queryKey: subscriptionKeys.all });
      onClose();
    },
    onError: notifyError,
  });

  const hourOptions = TRIGGER_HOURS.map((h) => ({ value: h, label: sm.hourLabel(h) }));
  return (
    <Modal
      open={open}
      title={subTitle || sm.dialogTitle}
      okText={sm.save}
      cancelText={sm.cancel}
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ disabled: !check.data?.usable, loading: save.isPending, 'data-testid': 'subscription-save' } as ButtonProps}
      destroyOnHidden
      width={520}
    >
      <Form<FormValues>
        form={form}
        layout="horizontal"
        labelCol={{ span: 5 }}
        initialValues={initialValues(subTitle, subscription)}
        onFinish={(v) => save.mutate(v)}
        className="subscription-form"
      >
        <Form.Item label={sm.subTitle}>
          <span data-testid="subscription-subtitle">{subTitle}</span>
        </Form.Item>
        <Form.Item label={sm.notifyTitle} name="notifyTitle" rules={zodRules(subscriptionSaveSchema, 'notifyTitle')}>
          <Input placeholder={sm.notifyTitlePlaceholder} maxLength={NOTIFY_TITLE_MAX_LENGTH} data-testid="subscription-title" />
        </Form.Item>
        <Form.Item
          label={sm.notifyType}
          name="notifyType"
          validateStatus={unusable ? 'error' : undefined}
          help={
            unusable ? (
              <span data-testid="subscription-unusable">
                {unusable}
                {notifyType === 'email' && (
                  <>
                    {' '}
                    <a href={ACCOUNT_SETTINGS_PATH} target="_blank" rel="noreferrer" data-testid="subscription-go-settings">
                      {sm.goSettings}
                    </a>
                  </>
                )}
              </span>
            ) : check.isFetching ? (
              sm.checking
            ) : undefined
          }
        >
          <Select data-testid="subscription-notify-type" options={NOTIFY_TYPES.map((t) => ({ value: t, label: NOTIFY_TYPE_LABELS[t] }))} />
        </Form.Item>
        <Form.Item label={sm.period} required>
          <Space wrap>
            <Form.Item name="triggerPeriod" noStyle>
              <Radio.Group optionType="button" buttonStyle="solid" options={TRIGGER_PERIODS.map((p) => ({ value: p, label: TRIGGER_PERIOD_LABELS[p] }))} />
            </Form.Item>
            {period === 'week' && (
              <Form.Item name="triggerWeekValue" noStyle>
                <Select
                  style={{ width: 96 }}
                  aria-label={sm.weekday}
                  data-testid="subscription-weekday"
                  options={TRIGGER_WEEK_VALUES.map((w) => ({ value: w, label: WEEKDAY_LABELS[w] }))}
                />
              </Form.Item>
            )}
            {period === 'month' && (
              <Form.Item name="triggerDayValue" noStyle>
                <Select
                  style={{ width: 96 }}
                  aria-label={sm.monthDay}
                  data-testid="subscription-monthday"
                  options={TRIGGER_DAY_VALUES.map((d) => ({ value: d, label: sm.dayLabel(d) }))}
                />
              </Form.Item>
            )}
            <Form.Item name="triggerHour" noStyle>
              <Select style={{ width: 96 }} aria-label={sm.hour} data-testid="subscription-hour" options={hourOptions} listHeight={256} virtual={false} />
            </Form.Item>
            {/* The hour is on the installation's clock, not the browser's: say which. */}
            <span className="subscription-zone" data-testid="subscription-zone" style={{ color: 'rgba(0,0,0,0.45)' }}>
              {displayTimeZoneName()}
            </span>
          </Space>
        </Form.Item>
        <Form.Item label={sm.format} name="format">
          <Radio.Group options={SUBSCRIPTION_FORMATS.map((f) => ({ value: f, label: SUBSCRIPTION_FORMAT_LABELS[f] }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
