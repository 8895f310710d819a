import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { signalTask, startProcess } from './engine.ts';

const xml = fs.readFileSync(new URL('./processes/leave.bpmn', import.meta.url), 'utf8');

describe('leave process on bpmn-engine', () => {
  it('waits at the approver task, then ends at 已同意 or 已驳回 from the saved state alone', async () => {
    const started = await startProcess(xml, 'leave', { applicant: 1 });
    expect(started.ended).toBe(false);
    expect(started.waiting).toEqual([{ id: 'approverTask', name: '审批人审批' }]);
    expect(started.finished).toEqual(['start', 'toApprove']);
    const saved = JSON.parse(JSON.stringify(started.state)) as unknown;

    const approved = await signalTask(saved, 'leave', 'approverTask', { pass: true, comment: '同意' });
    expect(approved.ended).toBe(true);
    expect(approved.endEventId).toBe('approvedEnd');
    expect(approved.finished).toEqual(['approverTask', 'toDecision', 'decision', 'toApproved', 'approvedEnd']);

    const rejected = await signalTask(saved, 'leave', 'approverTask', { pass: false, comment: '不同意' });
    expect(rejected.endEventId).toBe('rejectedEnd');
  });

  it('refuses to signal a task that is not waiting', async () => {
    const started = await startProcess(xml, 'leave', {});
    const approved = await signalTask(started.state, 'leave', 'approverTask', { pass: true });
    await expect(signalTask(approved.state, 'leave', 'approverTask', { pass: true })).rejects.toThrow(/not waiting/);
  });
});
