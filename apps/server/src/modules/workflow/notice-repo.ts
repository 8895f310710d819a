import { randomUUID } from 'node:crypto';
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database } from '../../platform/db/schema.ts';

/**
 * SQL of the approver's email outbox (0030_workflow_notice; docs/workflow.md "Approver mail").
 * A notice is claimed before it is sent (pending → sending, one conditional UPDATE), so of two
 * jobs, sweeps or processes reaching the same notice only one sends it.
 */

type Db = Kysely<Database>;

/** A claim held by a job run is live while its `job_run` row exists; a run-less claim (no queue) for this long. */
export const RUNLESS_CLAIM_LEASE_MS = 5 * 60_000;
/** A notice is claimed at most this often (a process dying in the middle of the send each time). */
export const MAX_NOTICE_ATTEMPTS = 3;

export interface NewNotice {
  instanceId: string;
  taskId: string;
  assigneeId: number;
  kind: 'started' | 'transferred';
}

/** Written inside the step's transaction: the mail is owed as soon as the step is. */
export async function recordNotice(trx: Db, notice: NewNotice): Promise<string> {
  const id = randomUUID();
  await trx
    .insertInto('workflowNotice')
    .values({ id, ...notice })
    .execute();
  return id;
}

/**
 * Claims a notice for `runId` (a job run id, or null for an in-process send): a pending one, or
 * one left `sending` by a claimer that is gone (its run no longer recorded, or a run-less claim
 * older than the lease). Returns false when someone else holds or finished it.
 */
export async function claimNotice(db: Db, id: string, runId: string | null, now = new Date()): Promise<boolean> {
  const leaseEnd = new Date(now.getTime() - RUNLESS_CLAIM_LEASE_MS);
  const claimed = await db
    .updateTable('workflowNotice')
    .set((eb) => ({ status: 'sending', runId, claimTime: now, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('attempts', '<', MAX_NOTICE_ATTEMPTS)
    .where((eb) => eb.or([eb('status', '=', 'pending'), eb.and([eb('status', '=', 'sending'), claimerGone(eb, leaseEnd)])]))
    .executeTakeFirst();
  return claimed.numUpdatedRows === 1n;
}

/** Its claimer is gone: the job run that claimed it is no longer recorded, or a run-less claim outlived its lease. */
function claimerGone(eb: ExpressionBuilder<Database, 'workflowNotice'>, leaseEnd: Date) {
  return eb.or([
    eb.and([eb('runId', 'is not', null), eb.not(eb.exists(eb.selectFrom('jobRun').select('jobRun.id').whereRef('jobRun.id', '=', 'workflowNotice.runId')))]),
    eb.and([eb('runId', 'is', null), eb('claimTime', '<', leaseEnd)]),
  ]);
}

/** Ends a claimed notice; only the claimer's write counts (a claim taken over meanwhile is not overwritten). */
export async function finishNotice(db: Db, id: string, runId: string | null, status: 'sent' | 'failed' | 'skipped', error: string | null): Promise<void> {
  let query = db
    .updateTable('workflowNotice')
    .set({ status, error: error?.slice(0, 1000) ?? null, finishTime: new Date() })
    .where('id', '=', id)
    .where('status', '=', 'sending');
  query = runId === null ? query.where('runId', 'is', null) : query.where('runId', '=', runId);
  await query.execute();
}

/** Notices still owed: pending, or left sending by a claimer that is gone — the sweep enqueues them again. */
export async function owedNotices(db: Db, now = new Date()): Promise<string[]> {
  const leaseEnd = new Date(now.getTime() - RUNLESS_CLAIM_LEASE_MS);
  const rows = await db
    .selectFrom('workflowNotice')
    .select('id')
    .where('attempts', '<', MAX_NOTICE_ATTEMPTS)
    .where((eb) => eb.or([eb('status', '=', 'pending'), eb.and([eb('status', '=', 'sending'), claimerGone(eb, leaseEnd)])]))
    .orderBy('createTime')
    .limit(500)
    .execute();
  return rows.map((r) => r.id);
}

/** A notice left sending after its last allowed claim is failed, never left owed forever. */
export async function failExhaustedNotices(db: Db, message: string, now = new Date()): Promise<void> {
  const leaseEnd = new Date(now.getTime() - RUNLESS_CLAIM_LEASE_MS);
  await db
    .updateTable('workflowNotice')
    .set({ status: 'failed', error: message, finishTime: new Date() })
    .where('status', '=', 'sending')
    .where('attempts', '>=', MAX_NOTICE_ATTEMPTS)
    .where((eb) => claimerGone(eb, leaseEnd))
    .execute();
}

/** What the mail says: the task, its process, the applicant and the leave request. */
export function noticeContent(db: Db, id: string) {
  return db
    .selectFrom('workflowNotice as n')
    .innerJoin('workflowInstance as i', 'i.id', 'n.instanceId')
    .innerJoin('workflowDefinition as d', 'd.id', 'i.definitionId')
    .innerJoin('sysUser as s', 's.id', 'i.starterId')
    .innerJoin('sysUser as a', 'a.id', 'n.assigneeId')
    .leftJoin('workflowHistory as t', 't.id', 'n.taskId')
    .leftJoin('workflowLeave as l', 'l.id', 'i.businessId')
    .select([
      'n.taskId',
      'n.instanceId',
      'i.businessId',
      'i.status as instanceStatus',
      'd.name as processName',
      's.name as starterName',
      'a.email',
      't.endTime as taskEndTime',
      'l.startTime',
      'l.endTime',
      'l.reason',
    ])
    .where('n.id', '=', id)
    .executeTakeFirst();
}
