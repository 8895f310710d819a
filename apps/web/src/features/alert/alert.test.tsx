import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { alertMessages } from '@shutu/contracts';
import { mockFetch, ok, type Call } from '../../test/fetch-mock.ts';
import { renderWithApp } from '../../test/render.tsx';
import { AlertListPage } from './AlertListPage.tsx';
import { AlertLogPage } from './AlertLogPage.tsx';
import AlertEditorPage from './editor/AlertEditorPage.tsx';
import { emptyDraft, withDataset } from './editor/draft.ts';

const path = (c: Call) => new URL(c.url, 'http://x').pathname;
const record = {
  id: 3,
  name: '订单数预警',
  requestFreq: 300,
  enableStatus: 1,
  cubeDataName: '订单明细',
  datasourceName: '内置数仓',
  state: 'firing',
  lastCheckTime: '2026-11-25T02:00:00.000Z',
  lastFiredTime: '2026-11-25T02:00:00.000Z',
};

describe('alert pages (issue 19)', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('lists alerts with their dataset, state and actions; 立即检查 queues a check', async () => {
    const calls = mockFetch((c) => {
      if (path(c) === '/api/alert/alerts') return ok({ records: [record], total: 1, current: 1, size: 10 });
      if (path(c) === '/api/alert/alerts/3/check') return ok(null, '已加入检查队列');
      return undefined;
    });
    renderWithApp(<AlertListPage />);
    await screen.findByText('订单数预警');
    expect(screen.getByText('订单明细（内置数仓）')).toBeTruthy();
    expect(screen.getByText('预警中')).toBeTruthy();
    fireEvent.click(document.querySelector('[data-testid="alert-check-3"]')!);
    await waitFor(() => expect(calls.some((c) => path(c) === '/api/alert/alerts/3/check' && c.method === 'POST')).toBe(true));
  });

  it('the log shows each check with why it notified and each channel', async () => {
    mockFetch((c) =>
      path(c) === '/api/alert/logs'
        ? ok({
            records: [
              {
                id: 1,
                alertId: 3,
                alertName: '订单数预警',
                slot: '2026-11-25T02:00:00.000Z',
                status: 'done',
                windowStart: '2026-11-23',
                windowEnd: '2026-11-24',
                rowCount: 2,
                state: 'firing',
                notifyReason: 'started',
                channels: [{ channel: 'email', recipient: 'a@b.c', status: 'sent', errMsg: null }],
                errMsg: null,
                durationMs: 12,
                checkTime: '2026-11-25T02:00:00.000Z',
              },
            ],
            total: 1,
            current: 1,
            size: 10,
          })
        : undefined,
    );
    renderWithApp(<AlertLogPage />, { path: '/newbi/warning/log?alertId=3' });
    await screen.findByText('开始预警');
    expect(screen.getByText('2026-11-23 至 2026-11-24')).toBeTruthy();
    expect(screen.getByText('邮件 已发送')).toBeTruthy();
  });

  it('the editor refuses an incomplete alert with the spec message and saves nothing', async () => {
    const calls = mockFetch((c) => {
      if (path(c) === '/api/alert/recipients') return ok({ users: [], departments: [] });
      if (path(c) === '/api/dataset/cubes') return ok({ records: [], total: 0, current: 1, size: 1000 });
      if (path(c) === '/api/alert/window') return ok(['2026-11-23', '2026-11-24']);
      return undefined;
    });
    renderWithApp(<AlertEditorPage />, { path: '/newbi/warning/edit' });
    await screen.findByText('时间范围：2026-11-23 至 2026-11-24');
    fireEvent.click(document.querySelector('[data-testid="alert-save"]')!);
    await screen.findByText(alertMessages.formIncomplete);
    expect(calls.some((c) => path(c) === '/api/alert/alerts')).toBe(false);
  });

  it('changing the dataset clears every chosen field and the time columns (spec 3 §4)', () => {
    const draft = {
      ...emptyDraft(),
      cubeDataId: 1,
      columnJson: [{ cubeColumnId: 5, dimensionType: 'ZHIBIAO' as const }],
      filterTimeJson: { ...emptyDraft().filterTimeJson, timeColumn: 7 },
    };
    const next = withDataset(draft, 2);
    expect([next.cubeDataId, next.columnJson, next.filterJson, next.filterTimeJson.timeColumn]).toEqual([2, [], [], null]);
    expect(next.filterTimeJson.relativeTime).toEqual({ leftVal: 2, leftModifier: 'BEFORE', rightVal: 1, rightModifier: 'BEFORE' });
  });
});
