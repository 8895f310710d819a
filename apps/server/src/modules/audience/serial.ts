import type { AppContext } from '../../context.ts';

/**
 * Computations of one audience run one after another in a process (a 刷新 computed in the request
 * while the pg-boss job computes the same audience): each loads its own uniquely named member table,
 * and the switch (repo.switchMembers, under the audience row's lock) lets only the newest-started
 * computation win, so between processes too the audience always points at a table that exists and
 * the loser drops only its own table.
 */
const queues = new WeakMap<AppContext, Map<number, Promise<unknown>>>();

export async function oneAtATime<T>(ctx: AppContext, audienceId: number, work: () => Promise<T>): Promise<T> {
  let byId = queues.get(ctx);
  if (!byId) queues.set(ctx, (byId = new Map()));
  const before = byId.get(audienceId) ?? Promise.resolve();
  const run = before.then(work, work);
  const settled = run.catch(() => undefined);
  byId.set(audienceId, settled);
  try {
    return await run;
  } finally {
    if (byId.get(audienceId) === settled) byId.delete(audienceId);
  }
}
