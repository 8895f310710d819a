import {
  apiPath,
  type Page,
  type Subscription,
  type SubscriptionLog,
  type SubscriptionLogQuery,
  type SubscriptionSave,
  type NotifyType,
} from '@shutu/contracts';
import { API, http, request } from '../../shared/api.ts';

export const subscriptionKeys = {
  all: ['subscription'] as const,
  check: (notifyType: NotifyType) => ['subscription', 'check', notifyType] as const,
  logs: (query: SubscriptionLogQuery) => ['subscription', 'logs', query] as const,
  mine: (current: number, size: number) => ['subscription', 'mine', current, size] as const,
};

/** Subscription check: 0 usable; otherwise msg says why (spec 1 §7). */
export async function checkNotifyType(notifyType: NotifyType): Promise<{ usable: boolean; msg: string }> {
  const result = await request<number>(API.subscription.check, { method: 'POST', body: { notifyType } });
  return { usable: result.data === 0, msg: result.msg };
}

export const saveSubscription = (form: SubscriptionSave) => request<Subscription>(API.subscription.subscriptions, { method: 'POST', body: form });
export const fetchSubscriptions = (current: number, size: number) => http.get<Page<Subscription>>(API.subscription.subscriptions, { current, size });
export const setSubscriptionEnabled = (id: number, enabled: boolean) => http.put<Subscription>(apiPath(API.subscription.enabled, { id }), { enabled });
export const deleteSubscription = (id: number) => request<null>(apiPath(API.subscription.subscription, { id }), { method: 'DELETE' });
export const sendSubscriptionNow = (id: number) => request<null>(apiPath(API.subscription.sendNow, { id }), { method: 'POST', body: {} });
export const fetchSubscriptionLogs = (query: SubscriptionLogQuery) =>
  http.get<Page<SubscriptionLog>>(API.subscription.logs, query as Record<string, string | number | undefined>);
export const fetchSubscriptionLog = (id: number) => http.get<SubscriptionLog>(apiPath(API.subscription.log, { id }));
