import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKFLOW_PATHS as P } from '@shutu/contracts';
import { createTestServer, type TestServer } from '../../../test/harness.ts';
import { call, createUser } from '../../../test/fixtures.ts';
import { closeRenderer } from '../../platform/render/renderer.ts';
import { diagramCacheSize } from './diagram.ts';

/** diagram-view: a PNG of the instance drawn by bpmn-js in the server's Chromium, drawn once per state. */
describe('process diagram image', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer('pglite');
  }, 180_000);
  afterAll(async () => {
    if (!server) return;
    await closeRenderer(server.ctx);
    await server.close();
  });

  it('draws the waiting instance, answers the same state from the cache, and redraws after a step', async () => {
    const admin = await server.login();
    const approver = await createUser(server, admin, { name: '审批人' });
    const definitionId = (await call(server, 'GET', P.startList, { headers: admin })).body.data[0].processDefinitionId;
    const started = await call(server, 'POST', P.leaveStart, {
      headers: admin,
      payload: { processDefinitionId: definitionId, taskUser: approver.id, startTime: '2026-12-01 09:00:00', endTime: '2026-12-01 18:00:00', reason: '看病' },
    });
    const { processInstanceId } = started.body.data;
    const url = `${P.diagramView}?processInstanceId=${processInstanceId}`;
    const first = await server.app.inject({ method: 'GET', url, headers: admin });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['content-type']).toBe('image/png');
    const png = first.rawPayload;
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    // 900 × 360 CSS pixels at 1.5.
    expect(png.readUInt32BE(16)).toBe(1350);
    if (process.env.WORKFLOW_DIAGRAM_OUT) fs.writeFileSync(process.env.WORKFLOW_DIAGRAM_OUT, png);
    const second = await server.app.inject({ method: 'GET', url, headers: admin });
    expect(second.rawPayload.equals(png)).toBe(true);
    expect(diagramCacheSize(server.ctx)).toBe(1);

    const headers = await server.login(approver.account, approver.password);
    const taskId = (await call(server, 'GET', P.todoList, { headers })).body.data.records[0].taskId;
    await call(server, 'POST', P.completeTask, { headers, payload: { taskId, processInstanceId, comment: '同意', flag: 'ok' } });
    const after = await server.app.inject({ method: 'GET', url, headers: admin });
    expect(after.statusCode).toBe(200);
    expect(after.rawPayload.equals(png)).toBe(false);
    expect(diagramCacheSize(server.ctx)).toBe(2);
    const stranger = await createUser(server, admin);
    const refused = await server.app.inject({ method: 'GET', url, headers: await server.login(stranger.account, stranger.password) });
    expect(refused.statusCode).toBe(403);
  }, 120_000);
});
