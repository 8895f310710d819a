import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { CamelCasePlugin, Kysely, PostgresDialect, sql, type PostgresPool } from 'kysely';
import { PGlitePool } from './pglite-pool.ts';

interface Db {
  item: { id: number; value: number };
}

describe('PGlitePool', () => {
  let pool: PGlitePool;
  let db: Kysely<Db>;
  beforeAll(async () => {
    const pglite = new PGlite();
    await pglite.waitReady;
    pool = new PGlitePool(pglite);
    db = new Kysely<Db>({ dialect: new PostgresDialect({ pool: pool as unknown as PostgresPool }), plugins: [new CamelCasePlugin()] });
  });
  afterAll(() => db?.destroy());
  beforeEach(async () => {
    await pool.query('drop table if exists item; create table item (id int primary key, value int not null)');
  });

  it('lets a transaction hold the connection: a concurrent query waits until commit', async () => {
    const client = await pool.connect();
    await client.query('begin');
    await client.query('insert into item (id, value) values (1, 1)');

    let settled = false;
    const outside = pool.query('select value from item where id = 1').then((result) => {
      settled = true;
      return result;
    });
    // Several round trips inside the transaction: the outside query gets every chance to run.
    for (let i = 0; i < 5; i++) await client.query('select 1');
    expect(settled).toBe(false);
    await client.query('update item set value = 2 where id = 1');
    await client.query('commit');
    expect(settled).toBe(false);
    client.release();

    // It ran after the commit, so it sees the final value, never the in-between one.
    expect((await outside).rows).toEqual([{ value: 2 }]);
  });

  it('serialises Kysely transactions against other queries on the same pool', async () => {
    const order: string[] = [];
    let reachedInside!: () => void;
    const inside = new Promise<void>((resolve) => (reachedInside = resolve));
    const trx = db.transaction().execute(async (t) => {
      await t.insertInto('item').values({ id: 1, value: 1 }).execute();
      reachedInside();
      for (let i = 0; i < 5; i++) await sql`select 1`.execute(t);
      order.push('transaction done');
    });
    await inside;
    const count = db
      .selectFrom('item')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
      .then((row) => {
        order.push('count');
        return Number(row.n);
      });
    await trx;
    expect(await count).toBe(1);
    expect(order).toEqual(['transaction done', 'count']);
  });

  it('releases the connection when a Kysely transaction rolls back', async () => {
    await expect(
      db.transaction().execute(async (t) => {
        await t.insertInto('item').values({ id: 1, value: 1 }).execute();
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await db.selectFrom('item').selectAll().execute()).toEqual([]);
  });

  it('runs multi-statement scripts without parameters', async () => {
    const result = await pool.query(`
      insert into item (id, value) values (1, 10), (2, 20);
      update item set value = value + 1;
      select sum(value)::int as total from item;
    `);
    expect(result.rows).toEqual([{ total: 32 }]);
  });

  it('refuses multi-statement text with parameters instead of guessing', async () => {
    await expect(pool.query('insert into item (id, value) values ($1, 1); select 1', [1])).rejects.toThrow(/multiple commands/);
  });

  it('reports the command and affected row count of writes', async () => {
    const inserted = await pool.query('insert into item (id, value) values (1, 1), (2, 2), (3, 3)');
    expect(inserted).toMatchObject({ command: 'INSERT', rowCount: 3 });
    const updated = await pool.query('update item set value = value * 10 where id >= $1', [2]);
    expect(updated).toMatchObject({ command: 'UPDATE', rowCount: 2 });
    const viaCte = await pool.query('with doomed as (select id from item where id = 3) delete from item where id in (select id from doomed)');
    expect(viaCte).toMatchObject({ command: 'DELETE', rowCount: 1 });
    const none = await pool.query('update item set value = 0 where id = 99');
    expect(none).toMatchObject({ command: 'UPDATE', rowCount: 0 });
    const selected = await pool.query('select id from item order by id');
    expect(selected).toMatchObject({ command: 'SELECT', rowCount: 2, rows: [{ id: 1 }, { id: 2 }] });
  });

  it('gives Kysely the affected row counts of updates and deletes', async () => {
    await db
      .insertInto('item')
      .values([
        { id: 1, value: 1 },
        { id: 2, value: 2 },
        { id: 3, value: 3 },
      ])
      .execute();
    const updated = await db.updateTable('item').set({ value: 0 }).where('id', '<', 3).executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(2n);
    const deleted = await db.deleteFrom('item').where('value', '=', 0).executeTakeFirst();
    expect(deleted.numDeletedRows).toBe(2n);
  });
});
