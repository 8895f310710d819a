import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, openTestStore, storeKinds, type TestServer } from '../../../test/harness.ts';
import { call } from '../../../test/fixtures.ts';
import { migrateToLatest } from '../../platform/db/store.ts';
import { DEFAULT_PERM_TYPE_KEY, seed, seedDefaultPermType } from '../../platform/db/seed.ts';

const kinds = await storeKinds();

/** Issue 16: a fresh install could not create a permission group, having no category to put it in. */
describe.each(kinds)('the default permission-group category on %s', (kind) => {
  let server: TestServer;
  let admin: Record<string, string>;
  beforeAll(async () => {
    server = await createTestServer(kind);
    admin = await server.login();
  });
  afterAll(() => server?.close());

  it('is there on a fresh store, and a group can be created in it', async () => {
    const types = await call(server, 'GET', '/api/perm/types', { headers: admin });
    expect(types.body.data).toEqual([{ id: expect.any(Number), typeName: '默认分类', sortNum: 0 }]);
    const typeId = types.body.data[0].id as number;
    const saved = await call(server, 'POST', '/api/perm/groups', {
      headers: admin,
      payload: { permName: '第一个权限组', typeId, permJson: { dpList: [], roleList: [], userList: [], blackUserList: [] } },
    });
    expect(saved.status, saved.raw.body).toBe(200);
    expect(saved.body.data).toMatchObject({ permName: '第一个权限组', typeId, typeName: '默认分类' });
    const listed = await call(server, 'GET', '/api/perm/groups', { headers: admin, query: { typeId } });
    expect(listed.body.data.records.map((g: { permName: string }) => g.permName)).toEqual(['第一个权限组']);
  });

  it('is seeded once per store: on an existing store without a category, never again once considered', async () => {
    const { store, cleanup } = await openTestStore(kind);
    try {
      await migrateToLatest(store.db);
      const typeNames = async () => (await store.db.selectFrom('permType').select('typeName').orderBy('id').execute()).map((t) => t.typeName);
      // An existing store (seeded before this change) with a category of its own: nothing is added.
      await store.db.insertInto('permType').values({ typeName: '销售体系', sortNum: 1 }).execute();
      expect(await seed(store.db)).toMatchObject({ createdAdmin: true });
      expect(await typeNames()).toEqual(['销售体系']);
      // Considered once: deleting every category later does not bring the default back.
      await store.db.deleteFrom('permType').execute();
      expect(await seedDefaultPermType(store.db)).toBe(false);
      expect(await seed(store.db)).toEqual({ createdAdmin: false });
      expect(await typeNames()).toEqual([]);
      // An existing store from before the marker, with no category: it gets the default at its next start.
      await store.db.deleteFrom('sysConfig').where('key', '=', DEFAULT_PERM_TYPE_KEY).execute();
      expect(await seed(store.db)).toEqual({ createdAdmin: false });
      expect(await typeNames()).toEqual(['默认分类']);
      expect(await seedDefaultPermType(store.db)).toBe(false);
      expect(await typeNames()).toEqual(['默认分类']);
    } finally {
      await cleanup();
    }
  });
});
