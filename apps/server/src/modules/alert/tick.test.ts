import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { ALERT_CHECK_JOB } from '@shutu/contracts';
import { alertWorld, type AlertWorld } from '../../../test/alert-fixtures.ts';
import { call } from '../../../test/fixtures.ts';
import { Jobs } from '../../platform/jobs/boss.ts';
import { moduleJobs } from '../jobs.ts';
import { dueSlot, runAlertTick } from './jobs.ts';

/** The scheduler of alerts: slots, one catch-up check after downtime, and the pg-boss job path (issue 19). */

const log = pino({ level: 'silent' });

describe('alert scheduling', () => {
  let a: AlertWorld;
  beforeAll(async () => {
    a = await alertWorld();
  }, 120_000);
  afterAll(() => a?.w.close());

  it('slots are multiples of the request frequency since the epoch', () => {
    expect(dueSlot(300, new Date('2026-11-25T10:07:59Z')).toISOString()).toBe('2026-11-25T10:05:00.000Z');
    expect(dueSlot(3600, new Date('2026-11-25T10:07:59Z')).toISOString()).toBe('2026-11-25T10:00:00.000Z');
  });

  it('enqueues the current slot once, and after downtime one catch-up check instead of every missed slot', async () => {
    const sent: { name: string; data: { alertId: number; slot: string } }[] = [];
    const ctx = { ...a.w.server.ctx, jobs: { send: async (name: string, data?: object) => (sent.push({ name, data: data as never }), 'id') } };
    const on = await a.save(a.w.admin, a.body({ name: '调度预警' }));
    const off = await a.save(a.w.admin, a.body({ name: '停用的预警', enableStatus: 0 }));
    const t0 = new Date('2030-01-01T08:00:30Z');
    expect(await runAlertTick(ctx, log, t0)).toBe(1);
    expect(await runAlertTick(ctx, log, new Date(t0.getTime() + 60_000))).toBe(0);
    // Three hours down: 36 slots missed, one check of the latest.
    expect(await runAlertTick(ctx, log, new Date(t0.getTime() + 3 * 3_600_000))).toBe(1);
    expect(sent.map((s) => [s.name, s.data.alertId, s.data.slot])).toEqual([
      [ALERT_CHECK_JOB, on.body.data.id, '2030-01-01T08:00:00.000Z'],
      [ALERT_CHECK_JOB, on.body.data.id, '2030-01-01T11:00:00.000Z'],
    ]);
    expect(sent.some((s) => s.data.alertId === off.body.data.id)).toBe(false);
    // Re-enabled: its current slot is checked at the next tick.
    await call(a.w.server, 'PUT', `/api/alert/alerts/${off.body.data.id}/enabled`, { headers: a.w.admin, payload: { enableStatus: 1 } });
    expect(await runAlertTick(ctx, log, new Date(t0.getTime() + 3 * 3_600_000 + 1000))).toBe(1);
    await a.w.server.ctx.db.updateTable('alert').set({ enableStatus: 0 }).execute();
  });

  it('立即检查 runs the check job on pg-boss and writes its log row', async () => {
    expect((await call(a.w.server, 'POST', '/api/alert/alerts/1/check', { headers: a.w.admin })).body.msg).toBe('任务服务未启动');
    const jobs = await Jobs.start(a.w.server.store, log, moduleJobs(a.w.server.ctx, log), { work: true, pollingIntervalSeconds: 0.5 });
    a.w.server.ctx.jobs = jobs;
    try {
      const saved = await a.save(a.w.admin, a.body({ name: '立即检查预警', enableStatus: 0 }));
      const queued = await call(a.w.server, 'POST', `/api/alert/alerts/${saved.body.data.id}/check`, { headers: a.w.admin });
      expect([queued.status, queued.body.msg]).toEqual([200, '已加入检查队列']);
      let records: { status: string; state: string }[] = [];
      for (let i = 0; i < 200 && records.length === 0; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        records = (await call(a.w.server, 'GET', '/api/alert/logs', { headers: a.w.admin, query: { alertId: saved.body.data.id } })).body.data.records.filter(
          (r: { status: string }) => r.status !== 'running',
        );
      }
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ status: 'done', state: 'firing' });
    } finally {
      a.w.server.ctx.jobs = undefined;
      await jobs.stop();
    }
  });
});
