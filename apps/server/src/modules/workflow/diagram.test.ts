import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKFLOW_PATHS as P } from '@shutu/contracts';
import { createTestServer, type TestServer } from '../../../test/harness.ts';
import { call, createUser } from '../../../test/fixtures.ts';
import { closeRenderer } from '../../platform/render/renderer.ts';
import type { AppContext } from '../../context.ts';
import type { Session } from '../../platform/auth/session.ts';
import { startTestS3Server } from '../../platform/files/s3-test-server.ts';
import { fileStorage } from '../../platform/files/storage.ts';
import { diagramCacheSize, diagramImage } from './diagram.ts';

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
    // Stored for the other processes (the data directory by default).
    expect(fs.readdirSync(`${server.ctx.config.dataDir}/workflow-diagrams`)).toHaveLength(1);

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
  it('with the file storage in an S3 bucket, another process answers a drawn state from the bucket', async () => {
    const s3 = await startTestS3Server();
    const local = server.ctx.config.files;
    server.ctx.config.files = s3.config;
    const processA: AppContext = { ...server.ctx };
    try {
      const admin = await server.login();
      const approver = await createUser(server, admin, { name: '审批人二' });
      const definitionId = (await call(server, 'GET', P.startList, { headers: admin })).body.data[0].processDefinitionId;
      const started = await call(server, 'POST', P.leaveStart, {
        headers: admin,
        payload: { processDefinitionId: definitionId, taskUser: approver.id, startTime: '2026-12-02 09:00:00', endTime: '2026-12-02 18:00:00', reason: '年假' },
      });
      const { processInstanceId } = started.body.data;
      // Process A: a context of its own (this state is already drawn in the server's memory).
      const session: Session = { userId: 1, account: 'admin', isAdministrator: true, permissions: new Set(), token: '' };
      const first = (await diagramImage(processA, session, processInstanceId)).png;
      expect(first.subarray(1, 4).toString()).toBe('PNG');
      const [key] = s3.objectKeys();
      expect(key).toMatch(/^workflow-diagrams\/[0-9a-f]{64}\.png$/);
      expect((await fileStorage(server.ctx).read(key!))!.equals(first)).toBe(true);

      // A second process (its own context, nothing drawn in memory) takes the bucket's drawing:
      // replaced here by a marker, which is what it answers.
      const marker = Buffer.concat([first.subarray(0, 8), Buffer.from('marker')]);
      await fileStorage(server.ctx).put(key!, marker);
      const other: AppContext = { ...server.ctx };
      expect((await diagramImage(other, session, processInstanceId)).png.equals(marker)).toBe(true);
      expect(diagramCacheSize(other)).toBe(1);
    } finally {
      await closeRenderer(processA);
      server.ctx.config.files = local;
      await s3.stop();
    }
  }, 120_000);
});
