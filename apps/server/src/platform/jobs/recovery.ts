import os from 'node:os';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, JobRunTable } from '../db/schema.ts';

/**
 * Jobs whose process died (issue 14; docs/architecture.md "Jobs"). pg-boss 10 has no heartbeat:
 * a job whose process is killed stays `active` until its expiry (15 minutes by default), and an
 * expiry short enough to notice a crash soon would also expire a long export that is still
 * running. So every process working jobs is an instance with a heartbeat (job_instance, renewed
 * every HEARTBEAT_MS), and every job it runs is a run row (job_run) for as long as the handler
 * runs. A run whose instance stopped heart-beating for STALE_AFTER_MS (or, with the embedded
 * store, any run of another instance at start-up: PGlite is opened by one process only) is
 * abandoned; the recovery sweep of a live process takes it over (`takeAbandonedRuns`, atomic:
 * of two sweepers one wins) and Jobs hands it to the job's `abandoned` hook, then fails the
 * pg-boss job on the dead process's behalf so pg-boss retries it at once (its retryLimit).
 * A live process's runs are never touched, however long they take.
 *
 * A process killed after pg-boss handed it a job but before it recorded the run leaves a job
 * `active` with no run (issue 27): the sweep finds it (`findOrphanedJobs`), confirms it on its
 * next pass and fails it the same way, so it is retried within STALE + 2 × SWEEP seconds
 * instead of after pg-boss's 15-minute expiry.
 */

/** Seconds from the environment (positive), else the default: operators and the kill -9 tests tune the periods. */
function secondsFromEnv(name: string, fallbackMs: number): number {
  const value = Number(process.env[name]);
  return process.env[name] && Number.isFinite(value) && value > 0 ? value * 1000 : fallbackMs;
}

/** How often a working process renews its heartbeat (SHUTU_JOB_HEARTBEAT_SECONDS, default 5). */
export const HEARTBEAT_MS = secondsFromEnv('SHUTU_JOB_HEARTBEAT_SECONDS', 5_000);
/** A process whose heartbeat is older than this is dead: its runs are abandoned (SHUTU_JOB_STALE_SECONDS, default 30). */
export const STALE_AFTER_MS = secondsFromEnv('SHUTU_JOB_STALE_SECONDS', 30_000);
/** How often a working process looks for abandoned runs, and once when it starts working (SHUTU_JOB_SWEEP_SECONDS, default 10). */
export const SWEEP_EVERY_MS = secondsFromEnv('SHUTU_JOB_SWEEP_SECONDS', 10_000);
/** Dead instances without runs are forgotten after this long. */
const FORGET_INSTANCE_MS = 3600_000;

/** What a user sees on a task whose process died (the task can be retried). */
export const INTERRUPTED_MESSAGE = '服务重启或异常退出，任务已中断，请重试';

type Db = Kysely<Database>;
export type JobRunRow = Selectable<JobRunTable>;

/** The time `ms` ago, by the database's clock (processes on several hosts compare one clock). */
const dbAgo = (ms: number) => sql<Date>`now() - ${ms / 1000} * interval '1 second'`;

export async function registerInstance(db: Db, id: string): Promise<void> {
  await db
    .insertInto('jobInstance')
    .values({ id, host: os.hostname().slice(0, 255), pid: process.pid, startedAt: sql<Date>`now()`, heartbeatAt: sql<Date>`now()` })
    .onConflict((oc) => oc.column('id').doUpdateSet({ heartbeatAt: sql<Date>`now()` }))
    .execute();
}

/** Renews the heartbeat (and re-registers an instance a sweep forgot, e.g. after a long database outage). */
export async function heartbeat(db: Db, id: string): Promise<void> {
  const result = await db
    .updateTable('jobInstance')
    .set({ heartbeatAt: sql<Date>`now()` })
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) await registerInstance(db, id);
}

/** A process that stops cleanly says so: its unfinished runs (if any) are abandoned at once. */
export async function unregisterInstance(db: Db, id: string): Promise<void> {
  await db.deleteFrom('jobInstance').where('id', '=', id).execute();
}

export async function recordRun(db: Db, run: { id: string; instanceId: string; queue: string; jobId: string; data: unknown }): Promise<void> {
  await db
    .insertInto('jobRun')
    .values({ id: run.id, instanceId: run.instanceId, queue: run.queue, jobId: run.jobId, data: JSON.stringify(run.data ?? {}), startedAt: sql<Date>`now()` })
    .execute();
}

export async function finishRun(db: Db, id: string): Promise<void> {
  await db.deleteFrom('jobRun').where('id', '=', id).execute();
}

/**
 * Removes and returns the runs of dead instances: instances whose heartbeat is older than
 * `staleAfterMs`, or that are gone. With `othersAreDead` (the embedded store at start-up),
 * every instance but `selfId` is dead.
 */
export async function takeAbandonedRuns(db: Db, selfId: string, options: { staleAfterMs?: number; othersAreDead?: boolean } = {}): Promise<JobRunRow[]> {
  const staleAfterMs = options.staleAfterMs ?? STALE_AFTER_MS;
  let query = db.deleteFrom('jobRun').where('instanceId', '!=', selfId);
  if (!options.othersAreDead) {
    query = query.where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('jobInstance as i').select('i.id').whereRef('i.id', '=', 'jobRun.instanceId').where('i.heartbeatAt', '>', dbAgo(staleAfterMs)))),
    );
  }
  return query.returningAll().execute();
}

/** Whether another run of the same pg-boss job is still going (a pg-boss retry a live process works). */
export async function jobStillRunning(db: Db, jobId: string): Promise<boolean> {
  return (await db.selectFrom('jobRun').select('id').where('jobId', '=', jobId).limit(1).executeTakeFirst()) !== undefined;
}

/** A pg-boss job taken (active) with no run recorded for it. */
export interface OrphanedJob {
  id: string;
  queue: string;
  startedOn: string;
}

/**
 * Jobs of `queues` that pg-boss handed out (active) longer than `staleAfterMs` ago for which no
 * process recorded a run: the process that took them died between taking and recording (a few
 * milliseconds). With `othersAreDead` (the embedded store at start-up, before this process works)
 * every such job, whatever its age. The caller confirms them on a second sweep: a live
 * process's job is also without a run for the instant between its run's end and pg-boss
 * completing it.
 */
export async function findOrphanedJobs(
  db: Db,
  queues: readonly string[],
  options: { staleAfterMs?: number; othersAreDead?: boolean } = {},
): Promise<OrphanedJob[]> {
  if (queues.length === 0) return [];
  const staleAfterMs = options.staleAfterMs ?? STALE_AFTER_MS;
  const old = options.othersAreDead ? sql`` : sql`and j.started_on < ${dbAgo(staleAfterMs)}`;
  const { rows } = await sql<OrphanedJob>`
    select cast(j.id as text) as id, j.name as queue, cast(j.started_on as text) as "startedOn"
    from pgboss.job j
    where j.state = 'active' and j.name in (${sql.join(queues)}) ${old}
      and not exists (select 1 from job_run r where r.job_id = cast(j.id as text))
    limit 100`.execute(db);
  return rows;
}

/** Forgets dead instances whose runs have been taken over (and, with `othersAreDead`, every other instance). */
export async function forgetDeadInstances(db: Db, selfId: string, othersAreDead = false): Promise<void> {
  let query = db
    .deleteFrom('jobInstance')
    .where('id', '!=', selfId)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('jobRun as r').select('r.id').whereRef('r.instanceId', '=', 'jobInstance.id'))));
  if (!othersAreDead) query = query.where('heartbeatAt', '<', dbAgo(FORGET_INSTANCE_MS));
  await query.execute();
}
