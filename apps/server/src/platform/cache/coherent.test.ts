import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MetadataStore } from '../db/store.ts';
import { openTestStore } from '../../../test/harness.ts';
import { busOf, cachedRead, CoherentMemo } from './coherent.ts';

/**
 * The metadata memo follows writes made through the store's Kysely (watch.ts), whichever code
 * makes them and without any publish: a kept row is read again after its table changed.
 */
describe('cachedRead on the embedded store', () => {
  let store: MetadataStore;
  let cleanup: () => Promise<void>;
  let loads = 0;
  let id = 0;
  const readName = (id: number) =>
    cachedRead(store.db, `test-user:${id}`, async () => {
      loads += 1;
      return (await store.db.selectFrom('sysUser').select('name').where('id', '=', id).executeTakeFirstOrThrow()).name;
    });

  beforeAll(async () => {
    ({ store, cleanup } = await openTestStore('pglite'));
    id = (
      await store.db
        .insertInto('sysUser')
        .values({ account: 'cache_probe', name: '旧名', passwordHash: 'x', isAdministrator: false, status: 1 })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(() => cleanup?.());

  it('keeps a row until its table is written, then reads it again', async () => {
    expect(await readName(id)).toBe('旧名');
    expect(await readName(id)).toBe('旧名');
    expect(loads).toBe(1);
    const before = busOf(store.db).generation('dataset');
    await store.db.updateTable('sysUser').set({ name: '新名' }).where('id', '=', id).execute();
    expect(busOf(store.db).generation('dataset')).toBeGreaterThan(before);
    expect(await readName(id)).toBe('新名');
    expect(loads).toBe(2);
  });

  it('never serves or keeps a read made inside a transaction', async () => {
    await store.db.transaction().execute(async (trx) => {
      await trx.updateTable('sysUser').set({ name: '事务中' }).where('id', '=', id).execute();
      const inside = await cachedRead(
        trx,
        `test-user:${id}`,
        async () => (await trx.selectFrom('sysUser').select('name').where('id', '=', id).executeTakeFirstOrThrow()).name,
      );
      expect(inside).toBe('事务中');
    });
    expect(await readName(id)).toBe('事务中');
  });

  it('forgets a failed load and a load that a change overtook', async () => {
    const memo = new CoherentMemo<number>(['dict'], 60_000);
    const holder = {};
    await expect(memo.get(holder, 'k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await memo.get(holder, 'k', async () => 1)).toBe(1);
    let release: (v: number) => void = () => undefined;
    const slow = memo.get(holder, 'j', () => new Promise<number>((resolve) => (release = resolve)));
    busOf(holder).publish('dict');
    release(2);
    expect(await slow).toBe(2);
    expect(await memo.get(holder, 'j', async () => 3)).toBe(3);
  });
});
