import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import dayjs from 'dayjs';
import type { SubscriptionLog } from '@shutu/contracts';
import { fail, mockFetch, ok, type Call } from '../../test/fetch-mock.ts';
import { renderWithApp } from '../../test/render.tsx';
import { SubscriptionDialog } from './SubscriptionDialog.tsx';
import { SubscriptionLogPage } from './SubscriptionLogPage.tsx';

const url = (c: Call) => new URL(c.url, 'http://x');
/** A day of the installation's clock (Asia/Shanghai here), as the log page sends it. */
const day = (d: dayjs.Dayjs) => d.format('YYYY-MM-DD');
const today = () => dayjs(new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10));
const saveButton = () => document.querySelector<HTMLButtonElement>('[data-testid="subscription-save"]')!;
/** Opens an antd Select (by the test id on its root) and returns the option labels it lists. */
function openSelect(testId: string): string[] {
  const root = document.querySelector(`[data-testid="${testId}"]`)!;
  fireEvent.mouseDown(root.querySelector('.ant-select-selector, .ant-select-content, input') ?? root);
  const lists = document.querySelectorAll('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
  const list = lists[lists.length - 1];
  return Array.from(list?.querySelectorAll('.ant-select-item-option') ?? []).map((o) => o.textContent ?? '');
}

describe('subscription dialog', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  it('shows why a method cannot be used in red and blocks saving; a usable one saves the form', async () => {
    const calls = mockFetch((c) => {
      const path = url(c).pathname;
      if (path === '/api/subscription/check') {
        const type = (c.body as { notifyType: string }).notifyType;
        return type === 'email' ? ok(1, '请先在个人设置中填写邮箱') : ok(0, '可以使用');
      }
      if (path === '/api/subscription/subscriptions' && c.method === 'POST') return ok({ id: 1 }, '已订阅');
      return undefined;
    });
    const onClose = vi.fn();
    renderWithApp(<SubscriptionDialog open dataType="visual" dataId={7} subTitle="销售概览" onClose={onClose} />);

    await screen.findByText('请先在个人设置中填写邮箱');
    expect(document.querySelector('.ant-modal-title')?.textContent).toBe('销售概览');
    expect(document.querySelector<HTMLInputElement>('[data-testid="subscription-title"]')!.value).toBe('销售概览');
    expect(document.querySelector('.ant-form-item-has-error [data-testid="subscription-unusable"]')).not.toBeNull();
    expect(document.querySelector('[data-testid="subscription-go-settings"]')?.getAttribute('href')).toBe('/info/index');
    expect(saveButton().disabled).toBe(true);

    // All 24 hours, 00:00 to 23:00.
    const hours = openSelect('subscription-hour');
    expect(hours).toHaveLength(24);
    expect(hours[0]).toBe('00:00');
    expect(hours[23]).toBe('23:00');

    expect(openSelect('subscription-notify-type')).toEqual(['邮件', '企业微信', '钉钉', '飞书', '天象云']);
    fireEvent.click(screen.getByTitle('钉钉'));
    await waitFor(() => expect(saveButton().disabled).toBe(false));
    expect(screen.queryByText('请先在个人设置中填写邮箱')).toBeNull();

    fireEvent.change(document.querySelector('[data-testid="subscription-title"]')!, { target: { value: ' ' } });
    fireEvent.click(saveButton());
    await screen.findByText('请输入通知标题');
    expect(calls.some((c) => url(c).pathname === '/api/subscription/subscriptions')).toBe(false);

    fireEvent.change(document.querySelector('[data-testid="subscription-title"]')!, { target: { value: '每日销售' } });
    fireEvent.click(saveButton());
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const saved = calls.find((c) => url(c).pathname === '/api/subscription/subscriptions')!;
    expect(saved.body).toMatchObject({
      dataType: 'visual',
      dataId: 7,
      subTitle: '销售概览',
      notifyTitle: '每日销售',
      notifyType: 'dingtalk',
      triggerPeriod: 'day',
      format: 'image',
    });
    const checked = calls.filter((c) => url(c).pathname === '/api/subscription/check').map((c) => (c.body as { notifyType: string }).notifyType);
    expect([...new Set(checked)]).toEqual(['email', 'dingtalk']);
  });

  it('shows the server’s refusal when saving fails', async () => {
    mockFetch((c) => {
      if (url(c).pathname === '/api/subscription/check') return ok(0, '可以使用');
      if (url(c).pathname === '/api/subscription/subscriptions') return fail(400, '未配置邮件服务器，请联系管理员');
      return undefined;
    });
    renderWithApp(<SubscriptionDialog open dataType="ppt" dataId={3} subTitle="月度汇报" onClose={() => undefined} />);
    await waitFor(() => expect(saveButton().disabled).toBe(false));
    fireEvent.click(saveButton());
    await screen.findByText('未配置邮件服务器，请联系管理员');
  });
});

const log = (extra: Partial<SubscriptionLog> = {}): SubscriptionLog => ({
  id: 11,
  subscriptionId: 2,
  subTitle: '月度汇报',
  dataType: 'ppt',
  dataId: 5,
  userId: 1,
  userName: '系统管理员',
  notifyType: 'dingtalk',
  state: 'failed',
  errCode: 1,
  errMsg: '钉钉拒绝了消息（310000）：sign not match',
  content: '标题：月度汇报；文件：销售概览.jpg',
  slot: '2026-03-10T01:00:00.000Z',
  createTime: '2026-03-10T01:00:05.000Z',
  ...extra,
});

describe('subscription log page', () => {
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.unstubAllGlobals();
  });

  const logCalls = (calls: Call[]) => calls.filter((c) => url(c).pathname === '/api/subscription/logs').map((c) => Object.fromEntries(url(c).searchParams));

  it('starts from the address: errCode sets the start date to today; the end day is sent plus one', async () => {
    const calls = mockFetch((c) => (url(c).pathname === '/api/subscription/logs' ? ok({ records: [log()], total: 1, current: 1, size: 10 }) : undefined));
    const open = vi.fn();
    vi.stubGlobal('open', open);
    renderWithApp(<SubscriptionLogPage />, { path: '/newbi/mine/subscription-log?subTitle=月度&dataType=ppt&errCode=1' });
    await screen.findByText('钉钉拒绝了消息（310000）：sign not match');
    expect(logCalls(calls)[0]).toEqual({
      current: '1',
      size: '10',
      subTitle: '月度',
      dataType: 'ppt',
      errCode: '1',
      startTime: day(today()),
      endTime: day(today().add(1, 'day')),
    });
    const row = document.querySelector('.ant-table-tbody tr.ant-table-row')!.textContent;
    expect(row).toContain('月度汇报');
    expect(row).toContain('幻灯片');
    expect(row).toContain('钉钉');
    expect(row).toContain('系统管理员');
    expect(row).toContain('失败');

    fireEvent.click(screen.getByText('详情'));
    await screen.findByText('标题：月度汇报；文件：销售概览.jpg');
    fireEvent.click(screen.getByText('预览'));
    expect(open).toHaveBeenCalledWith('/fullpowerpoint/5/0', '_blank');
  });

  it('defaults to the last month and previews boards at /newbi/preview/{id}', async () => {
    const calls = mockFetch((c) =>
      url(c).pathname === '/api/subscription/logs'
        ? ok({
            records: [log({ dataType: 'visual', dataId: 9, state: 'sent', errCode: 0, errMsg: null, notifyType: 'email' })],
            total: 1,
            current: 1,
            size: 10,
          })
        : undefined,
    );
    const open = vi.fn();
    vi.stubGlobal('open', open);
    renderWithApp(<SubscriptionLogPage />, { path: '/newbi/mine/subscription-log' });
    await waitFor(() => expect(document.querySelector('.ant-table-tbody tr.ant-table-row')?.textContent).toContain('成功'));
    expect(logCalls(calls)[0]).toEqual({
      current: '1',
      size: '10',
      startTime: day(today().subtract(1, 'month')),
      endTime: day(today().add(1, 'day')),
    });
    expect(document.querySelector('.ant-table-tbody tr.ant-table-row')?.textContent).toContain('邮件');
    fireEvent.click(screen.getByText('预览'));
    expect(open).toHaveBeenCalledWith('/newbi/preview/9', '_blank');
  });
});
