import { sql, type Kysely } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../platform/db/schema.ts';
import { dropMemberTable, newMemberTableName } from '../read/index.ts';
import './schema.ts';

type Db = Kysely<Database>;

/**
 * When member tables are dropped (docs/audiences.md "Member tables"). A computation names its table
 * first and records it as pending; the switch makes it current and retires the one it replaced. A
 * retired table stays readable for RETIRED_GRACE_MS, so an export or a statistic that began reading
 * it before the switch ends normally; the sweep (every audience tick, and at each process's start)
 * drops it after that. A pending table whose computation died (process killed mid-load) is dropped
 * once no computation could still be running it. A table an audience currently uses is never dropped.
 */

export const RETIRED_GRACE_MS = 60 * 60_000;
/** Longer than any computation may run (REFRESH_TIMEOUT_MS, 30 min) plus the time to switch. */
export const PENDING_LIMIT_MS = 40 * 60_000;

/** A new member table's name, recorded as pending before the engine creates it. */
export async function reserveMemberTable(db: Db, audienceId: number): Promise<string> {
  const table = newMemberTableName(audienceId);
  await db.insertInto('audienceMemberGc').values({ tableName: table, state: 'pending' }).execute();
  return table;
}

/** The table is (again) an audience's current one: nothing to drop. */
export async function settleMemberTable(db: Db, table: string): Promise<void> {
  await db.deleteFrom('audienceMemberGc').where('tableName', '=', table).execute();
}

/** The table was replaced or its audience deleted: dropped by the sweep after the grace period. */
export async function retireMemberTable(db: Db, table: string, now = new Date()): Promise<void> {
  await db
    .insertInto('audienceMemberGc')
    .values({ tableName: table, state: 'retired', since: now })
    .onConflict((oc) => oc.column('tableName').doUpdateSet({ state: 'retired', since: now }))
    .execute();
}

/** A computation's own table that never became current (it failed or lost the race): dropped at once. */
export async function discardMemberTable(ctx: AppContext, table: string): Promise<void> {
  await dropMemberTable(ctx, table);
  await settleMemberTable(ctx.db, table);
}

/** Drops retired tables past their grace and pending tables of dead computations; answers how many. */
export async function sweepMemberTables(ctx: AppContext, now = new Date()): Promise<number> {
  const retiredBefore = new Date(now.getTime() - RETIRED_GRACE_MS);
  const pendingBefore = new Date(now.getTime() - PENDING_LIMIT_MS);
  const due = await ctx.db
    .selectFrom('audienceMemberGc as g')
    .select('g.tableName')
    .where((eb) =>
      eb.or([
        eb.and([eb('g.state', '=', 'retired'), eb('g.since', '<', retiredBefore)]),
        eb.and([eb('g.state', '=', 'pending'), eb('g.since', '<', pendingBefore)]),
      ]),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('audience as a')
            .select(sql`1`.as('one'))
            .whereRef('a.memberTable', '=', 'g.tableName'),
        ),
      ),
    )
    .execute();
  let dropped = 0;
  for (const { tableName } of due) {
    // Another process may sweep the same row: dropping twice is harmless (IF EXISTS), the row goes once.
    await dropMemberTable(ctx, tableName);
    await settleMemberTable(ctx.db, tableName);
    dropped += 1;
  }
  return dropped;
}
