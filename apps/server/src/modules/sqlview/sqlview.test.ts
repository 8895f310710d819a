import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeSqlBase64 } from '@shutu/contracts';
import { createTestServer, PG_URL, storeKinds, type TestServer } from '../../../test/harness.ts';
import { call } from '../../../test/fixtures.ts';

const kinds = await storeKinds();
const withPostgres = kinds.includes('postgres');

let seq = 0;
const uniqueView = () => `V_TEST_${Date.now().toString(36).toUpperCase()}_${++seq}`;

describe.each(kinds)('SQL views on %s', (kind) => {
  let server: TestServer;
  let admin: Record<string, string>;
  let warehouseId: number;
  let postgresId: number | undefined;

  beforeAll(async () => {
    server = await createTestServer(kind, {}, { warehouse: true });
    admin = await server.login();
    const sources = await call(server, 'GET', '/api/datasource', { headers: admin, query: { size: 100 } });
    warehouseId = sources.body.data.records.find((s: { isBuiltin: boolean }) => s.isBuiltin).id;
    if (withPostgres) {
      const url = new URL(PG_URL);
      const created = await call(server, 'POST', '/api/datasource', {
        headers: admin,
        payload: {
          dsDb: `视图PG${Date.now()}`,
          type: 'postgres',
          host: url.hostname,
          port: Number(url.port || 5432),
          database: url.pathname.slice(1),
          username: url.username,
        },
      });
      postgresId = created.body.data.id;
    }
  });
  afterAll(() => server?.close());

  const save = (body: Record<string, unknown>) => call(server, 'POST', '/api/sqlview/views', { headers: admin, payload: body });
  const view = (overrides: Record<string, unknown> = {}) => ({
    sqlName: '省份统计',
    viewName: uniqueView(),
    sqlStatement: 'select 1 as n',
    datasourceId: warehouseId,
    ...overrides,
  });
  const preview = (sql: string, datasourceId = warehouseId) =>
    call(server, 'POST', '/api/sqlview/preview', { headers: admin, payload: { datasourceId, sqlStatement: encodeSqlBase64(sql) } });

  it('gives V_SQL_ and the time as YYYYMMDDHHmm (China time) as the default view name', async () => {
    const res = await call(server, 'GET', '/api/sqlview/default-name', { headers: admin });
    expect(res.status).toBe(200);
    expect(res.body.data.viewName).toMatch(/^V_SQL_20\d{10}$/);
    const china = new Date(Date.now() + 8 * 3_600_000).toISOString();
    expect(res.body.data.viewName.slice(6, 14)).toBe(china.slice(0, 10).replace(/-/g, ''));
  });

  it('saves, lists, reads, updates and deletes a view', async () => {
    const created = await save(view({ sqlStatement: "select '北京' as province, 3 as n;" }));
    expect(created.status, created.raw.body).toBe(200);
    expect(created.body.msg).toBe('保存成功');
    const { usedBy, ...saved } = created.body.data;
    expect(usedBy).toEqual([]); // a new view: no dataset uses it yet
    expect(saved).toMatchObject({ datasourceId: warehouseId, sqlName: '省份统计', sqlStatement: "select '北京' as province, 3 as n;" });

    const list = await call(server, 'GET', '/api/sqlview/views', { headers: admin, query: { datasourceId: warehouseId } });
    expect(list.body.data.map((v: { id: number }) => v.id)).toContain(saved.id);
    expect((await call(server, 'GET', `/api/sqlview/views/${saved.id}`, { headers: admin })).body.data).toEqual(saved);

    const updated = await save({ ...view({ sqlName: '改名', viewName: saved.viewName, sqlStatement: 'select 2 as n' }), id: saved.id });
    expect(updated.status, updated.raw.body).toBe(200);
    expect(updated.body.data).toMatchObject({ id: saved.id, sqlName: '改名', sqlStatement: 'select 2 as n' });

    expect((await call(server, 'DELETE', `/api/sqlview/views/${saved.id}`, { headers: admin })).body.msg).toBe('删除成功!');
    const gone = await call(server, 'GET', `/api/sqlview/views/${saved.id}`, { headers: admin });
    expect(gone.status).toBe(404);
    expect(gone.body.msg).toBe('SQL视图不存在');
    expect((await call(server, 'DELETE', `/api/sqlview/views/${saved.id}`, { headers: admin })).status).toBe(404);
    expect((await save({ ...view(), id: 999999 })).status).toBe(404);
  });

  it('requires sqlName, viewName and sqlStatement in that order', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ sqlName: undefined, viewName: undefined, sqlStatement: undefined }, '请输入sql名称'],
      [{ sqlName: '  ', viewName: '', sqlStatement: '' }, '请输入sql名称'],
      [{ viewName: undefined, sqlStatement: undefined }, '请输入视图名称'],
      [{ viewName: '', sqlStatement: '' }, '请输入视图名称'],
      [{ sqlStatement: undefined }, '请编辑sql语句'],
      [{ sqlStatement: '   ' }, '请编辑sql语句'],
      [{ sqlStatement: '-- just a comment' }, '请编辑sql语句'],
      [{ viewName: '视图' }, '请检查视图名称拼写：须以字母开头，只含字母、数字或下划线'],
      [{ datasourceId: undefined }, '请选择数据源'],
    ];
    for (const [overrides, message] of cases) {
      const res = await save(view(overrides));
      expect(res.status, JSON.stringify(overrides)).toBe(400);
      expect(res.body.msg, JSON.stringify(overrides)).toBe(message);
    }
    expect((await save(view({ datasourceId: 999999 }))).status).toBe(404);
  });

  it('refuses a second view of the same name in one data source, ignoring case', async () => {
    const name = uniqueView();
    expect((await save(view({ viewName: name }))).status).toBe(200);
    const again = await save(view({ viewName: name.toLowerCase() }));
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe('视图名称已存在');
  });

  it('refuses statements that are not a single SELECT on save and on preview, before the engine', async () => {
    for (const [sql, message] of [
      ['drop table orders', '只支持 SELECT 查询语句'],
      ['select 1; drop table orders', '只能包含一条SQL语句（第 9 个字符处有分号）'],
      ['with d as (delete from t returning *) select * from d', '不允许使用 DELETE：SQL视图只能查询数据'],
      ["select * from read_csv('/etc/passwd')", '不允许调用 read_csv：SQL视图不能读取服务器文件、外部数据或系统设置'],
      ["select * from '/etc/passwd'", "不允许直接读取文件 '/etc/passwd'"],
    ]) {
      const saved = await save(view({ sqlStatement: sql }));
      expect(saved.status, sql).toBe(400);
      expect(saved.body.msg, sql).toBe(message);
      expect(saved.body.data.position, sql).toBeGreaterThan(0);
      const previewed = await preview(sql!);
      expect(previewed.status, sql).toBe(400);
      expect(previewed.body.msg, sql).toBe(message);
    }
  });

  it('refuses file reads, settings and table functions that only the engine parser sees, saving nothing (issue 14)', async () => {
    const listed = async () =>
      ((await call(server, 'GET', '/api/sqlview/views', { headers: admin, query: { datasourceId: warehouseId } })).body.data as { viewName: string }[]).map(
        (v) => v.viewName,
      );
    const before = await listed();
    for (const [sql, message] of [
      ["SELECT * FROM (PIVOT '/etc/passwd' ON column0 USING count(*))", "不允许直接读取文件 '/etc/passwd'"],
      ["select * from (pivot '/etc/passwd' on column0 in ('root') using count(*))", "不允许直接读取文件 '/etc/passwd'"],
      // \0074 spells readtext, which DuckDB's parser refuses (it has no U& names); \005f spells read_text.
      ['SELECT * FROM U&"read\\0074ext"(\'/etc/passwd\')', 'SQL语句有语法错误：unicode_to_utf8 NOT IMPLEMENTED'],
      ['SELECT * FROM U&"read\\005ftext"(\'/etc/passwd\')', '不允许调用 read_text：SQL视图不能读取服务器文件、外部数据或系统设置'],
      ['SELECT name, setting FROM pg_catalog.pg_settings', '不允许读取 pg_settings：SQL视图不能读取服务器文件、外部数据或系统设置'],
      ['select * from pg_catalog./* c */"PG_SETTINGS"', '不允许读取 PG_SETTINGS：SQL视图不能读取服务器文件、外部数据或系统设置'],
      ["select current_setting('home_directory')", '不允许调用 current_setting：SQL视图不能读取服务器文件、外部数据或系统设置'],
      ['select * from duckdb_settings()', '不允许调用 duckdb_settings：SQL视图不能读取服务器文件、外部数据或系统设置'],
      ['select * from system.main.duckdb_tables', '不允许读取 system.main：SQL视图不能读取服务器文件、外部数据或系统设置'],
      // only DuckDB's parser names these: a table function outside the allow-list, SUMMARIZE as a table
      [
        'with t as (select 1) select * from t, test_all_types()',
        '不允许使用表函数 test_all_types：SQL视图只能使用 range、generate_series、unnest、json_each、json_tree、repeat、repeat_row 这几个表函数',
      ],
      [
        'select * from (summarize select 1 as n)',
        '不允许使用表函数 summarize：SQL视图只能使用 range、generate_series、unnest、json_each、json_tree、repeat、repeat_row 这几个表函数',
      ],
      ['select * from (pivot (select 1 as k) on k using count(*))', '只支持 SELECT 查询语句'],
    ]) {
      const viewName = uniqueView();
      const saved = await save(view({ viewName, sqlStatement: sql }));
      expect(saved.status, sql).toBe(400);
      expect(saved.body.msg, sql).toBe(message);
      expect(saved.body.data.position, sql).toBeGreaterThan(0);
      const previewed = await preview(sql!);
      expect(previewed.status, sql).toBe(400);
      expect(previewed.body.msg, sql).toBe(message);
      expect(await listed(), sql).not.toContain(viewName);
    }
    expect(await listed()).toEqual(before);
  });

  it('still saves and previews views with the allowed table functions and a PIVOT over a query', async () => {
    for (const [sql, rows] of [
      ['select * from generate_series(1, 2) t(n)', [{ n: 1 }, { n: 2 }]],
      ['select unnest([1, 2]) as n', [{ n: 1 }, { n: 2 }]],
      ["select * from (pivot (select 'a' as k, 2 as v union all select 'b', 3) on k in ('a', 'b') using sum(v))", [{ a: 2, b: 3 }]],
    ] as [string, unknown[]][]) {
      const previewed = await preview(sql);
      expect(previewed.status, previewed.raw.body).toBe(200);
      expect(previewed.body.data.rows, sql).toEqual(rows);
      expect((await save(view({ sqlStatement: sql }))).status, sql).toBe(200);
    }
  });

  it('previews the first 100 rows with their columns', async () => {
    const res = await preview("select '中文' as 名称, 1.5 as amount, date '2024-03-05' as day");
    expect(res.status, res.raw.body).toBe(200);
    expect(res.body.data.rows).toEqual([{ 名称: '中文', amount: 1.5, day: '2024-03-05' }]);
    expect(res.body.data.columns.map((c: { name: string; viewDataType: string }) => [c.name, c.viewDataType])).toEqual([
      ['名称', 'STRING'],
      ['amount', 'NUMBER'],
      ['day', 'DATETIME'],
    ]);
    expect(res.body.data.truncated).toBe(false);

    const many = await preview('select range as n from range(150) order by n;');
    expect(many.body.data.rows).toHaveLength(100);
    expect(many.body.data.truncated).toBe(true);
    expect(many.body.data.rows[99]).toEqual({ n: 99 });
    expect(many.body.data.columns).toHaveLength(1);

    const none = await preview('select 1 as n where 1 = 0');
    expect(none.body.data).toMatchObject({ rows: [], truncated: false });
    expect(none.body.data.columns.map((c: { name: string }) => c.name)).toEqual(['n']);
  });

  it('accepts the SQL as plain text too, and refuses bad Base64 and an empty statement', async () => {
    const plain = await call(server, 'POST', '/api/sqlview/preview', { headers: admin, payload: { datasourceId: warehouseId, sql: 'select 42 as answer' } });
    expect(plain.body.data.rows).toEqual([{ answer: 42 }]);
    const bad = await call(server, 'POST', '/api/sqlview/preview', { headers: admin, payload: { datasourceId: warehouseId, sqlStatement: '@@not base64@@' } });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('SQL语句不是合法的Base64编码');
    const latin = await call(server, 'POST', '/api/sqlview/preview', {
      headers: admin,
      payload: { datasourceId: warehouseId, sqlStatement: Buffer.from([0xff, 0xfe]).toString('base64') },
    });
    expect(latin.body.msg).toBe('SQL语句不是合法的Base64编码');
    for (const payload of [
      { datasourceId: warehouseId },
      { datasourceId: warehouseId, sqlStatement: '' },
      { datasourceId: warehouseId, sqlStatement: encodeSqlBase64('  ') },
    ]) {
      const empty = await call(server, 'POST', '/api/sqlview/preview', { headers: admin, payload });
      expect(empty.status).toBe(400);
      expect(empty.body.msg).toBe('请编辑sql语句');
    }
  });

  it('returns the engine error text for the editor’s error tab', async () => {
    const res = await preview('select * from no_such_table_xyz');
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.msg).toMatch(/^查询执行失败：.*no_such_table_xyz/);
    expect(res.body.data.detail).toMatch(/no_such_table_xyz/);
    const syntax = await preview('select from where');
    expect(syntax.status).toBe(400);
    expect(syntax.body.data.detail).toMatch(/syntax error/i);
  });

  it.runIf(withPostgres)('previews on PostgreSQL, read-only, with its own quoting rules', async () => {
    const res = await preview("select 'a;b' as s, $$x;y$$ as d", postgresId);
    expect(res.status, res.raw.body).toBe(200);
    expect(res.body.data.rows).toEqual([{ s: 'a;b', d: 'x;y' }]);
    const err = await preview('select * from no_such_table_xyz', postgresId);
    expect(err.status).toBe(400);
    expect(err.body.data.detail).toMatch(/no_such_table_xyz/);
    // Writing a sequence is refused by the guard, before PostgreSQL's read-only transaction would.
    const write = await preview("select nextval('x')", postgresId);
    expect(write.body.msg).toMatch(/^不允许调用 nextval/);
    for (const sql of ['SELECT name, setting FROM pg_catalog.pg_settings', 'select * from pg_catalog.U&"pg\\005fsettings"', 'select * from pg_file_settings']) {
      const settings = await preview(sql, postgresId);
      expect(settings.status, sql).toBe(400);
      expect(settings.body.msg, sql).toMatch(/^不允许读取 pg_(settings|file_settings)：/);
    }
  });
});
