import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import iconv from 'iconv-lite';
import * as XLSX from '@e965/xlsx';
import { collect } from '@shutu/connectors';
import { defaultFileTableName, type FileColumn } from '@shutu/contracts';
import { createTestServer, PG_URL, storeKinds, type TestServer } from '../../../test/harness.ts';
import { call, createUser, type Call } from '../../../test/fixtures.ts';
import { multipart, type MultipartFile } from '../../../test/multipart.ts';
import { getDataSourceDriver } from '../datasource/registry.ts';

const kinds = await storeKinds();
const withPostgres = kinds.includes('postgres');

const CSV = '姓名,城市,金额,下单时间\n张三,北京,12.5,2024-03-05 08:30:00\n李四,"上海, 浦东",3,2024/3/6\n王五,,,\n';
const COLUMNS: FileColumn[] = [
  { comment: '姓名', columnName: 'name', columnType: 'STRING' },
  { comment: '城市', columnName: 'city', columnType: 'STRING' },
  { comment: '金额', columnName: 'amount', columnType: 'NUMBER' },
  { comment: '下单时间', columnName: 'ordered_at', columnType: 'DATETIME' },
];
const EXPECTED_ROWS = [
  { name: '张三', city: '北京', amount: 12.5, ordered_at: '2024-03-05T08:30:00' },
  { name: '李四', city: '上海, 浦东', amount: 3, ordered_at: '2024-03-06T00:00:00' },
  { name: '王五', city: null, amount: null, ordered_at: null },
];

let seq = 0;
const uniqueTable = (prefix = 'ft') => `${prefix}_${Date.now().toString(36)}_${++seq}`;

describe.each(kinds)('file tables on %s', (kind) => {
  let server: TestServer;
  let admin: Record<string, string>;
  let warehouseId: number;
  let postgresId: number | undefined;
  const pgTables: string[] = [];

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
          dsDb: `本地PG${Date.now()}`,
          type: 'postgres',
          host: url.hostname,
          port: Number(url.port || 5432),
          database: url.pathname.slice(1),
          username: url.username,
        },
      });
      expect(created.status, created.raw.body).toBe(200);
      postgresId = created.body.data.id;
    }
  });
  afterAll(async () => {
    if (pgTables.length > 0) {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      for (const t of pgTables) await client.query(`drop table if exists "${t}"`);
      await client.end();
    }
    await server?.close();
  });

  const upload = async (fields: Record<string, string | number>, file: MultipartFile = { name: '订单.csv', content: CSV }): Promise<Call> => {
    const body = multipart(fields, file);
    const raw = await server.app.inject({ method: 'POST', url: '/api/filetable/tables', headers: { ...admin, ...body.headers }, payload: body.payload });
    return { status: raw.statusCode, body: raw.json(), raw };
  };
  const form = (overrides: Record<string, string | number> = {}) => ({
    tableName: uniqueTable(),
    tableComment: '订单',
    dsId: warehouseId,
    tableColumnList: JSON.stringify(COLUMNS),
    ...overrides,
  });
  const rowsOf = async (dsId: number, table: string) => {
    const driver = await getDataSourceDriver(server.ctx, dsId);
    return (await collect(driver.query(`SELECT * FROM "${table}" ORDER BY name`))).rows;
  };
  const tableExists = async (dsId: number, table: string) => {
    const driver = await getDataSourceDriver(server.ctx, dsId);
    return (await driver.listTables()).some((t) => t.name === table);
  };
  const listed = async (dsId: number) =>
    (await call(server, 'GET', '/api/filetable/tables', { headers: admin, query: { dsId } })).body.data as { tableName: string }[];

  it('loads every row of a CSV into the built-in warehouse, typed, with comments, and lists it', async () => {
    const tableName = defaultFileTableName();
    const res = await upload(form({ tableName, tableComment: '订单明细' }));
    expect(res.status, res.raw.body).toBe(200);
    expect(res.body.msg).toBe('上传成功');
    expect(res.body.data).toMatchObject({
      datasourceId: warehouseId,
      tableName,
      tableComment: '订单明细',
      fileName: '订单.csv',
      rowCount: 3,
      columns: COLUMNS,
    });
    expect(await rowsOf(warehouseId, tableName)).toEqual(EXPECTED_ROWS);
    const driver = await getDataSourceDriver(server.ctx, warehouseId);
    const columns = await driver.listColumns(tableName);
    expect(columns.map((c) => [c.name, c.comment, c.viewDataType])).toEqual([
      ['name', '姓名', 'STRING'],
      ['city', '城市', 'STRING'],
      ['amount', '金额', 'NUMBER'],
      ['ordered_at', '下单时间', 'DATETIME'],
    ]);
    expect((await listed(warehouseId)).find((t) => t.tableName === tableName)).toMatchObject({ datasourceId: warehouseId, tableComment: '订单明细' });

    const again = await upload(form({ tableName: tableName.toUpperCase() }));
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe(`表【${tableName.toUpperCase()}】已存在，请更换表名`);
  });

  it('loads GBK CSV, xlsx and xls files alike', async () => {
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(
      book,
      XLSX.utils.aoa_to_sheet([
        ['姓名', '城市', '金额', '下单时间'],
        ['张三', '北京', 12.5, new Date(2024, 2, 5, 8, 30)],
        ['李四', '上海, 浦东', 3, '2024/3/6'],
        ['王五'],
      ]),
      'S',
    );
    const files: MultipartFile[] = [
      { name: 'gbk.csv', content: iconv.encode(CSV, 'gbk') },
      { name: 'book.xlsx', content: XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer },
      { name: 'book.xls', content: XLSX.write(book, { type: 'buffer', bookType: 'biff8' }) as Buffer },
    ];
    for (const file of files) {
      const tableName = uniqueTable();
      const res = await upload(form({ tableName }), file);
      expect(res.status, `${file.name}: ${res.raw.body}`).toBe(200);
      expect(await rowsOf(warehouseId, tableName), file.name).toEqual(EXPECTED_ROWS);
    }
  });

  it.runIf(withPostgres)('loads into a PostgreSQL data source and reads the rows back through its driver', async () => {
    const tableName = uniqueTable('ft_pg');
    pgTables.push(tableName);
    const res = await upload(form({ tableName, dsId: postgresId! }), { name: 'gbk.csv', content: iconv.encode(CSV, 'gbk') });
    expect(res.status, res.raw.body).toBe(200);
    expect(await rowsOf(postgresId!, tableName)).toEqual(EXPECTED_ROWS);
    expect((await listed(postgresId!)).map((t) => t.tableName)).toContain(tableName);
    expect((await listed(warehouseId)).map((t) => t.tableName)).not.toContain(tableName);
  });

  it.each([
    ['warehouse', () => warehouseId],
    ['PostgreSQL', () => postgresId],
  ] as const)('drops the table again when a value does not fit its column (%s)', async (_label, dsId) => {
    if (dsId() === undefined) return;
    const tableName = uniqueTable('ft_bad');
    if (dsId() === postgresId) pgTables.push(tableName);
    const rows = Array.from({ length: 3000 }, (_, i) => `名${i},城,${i === 2500 ? 'abc' : i},2024-01-01`);
    const content = `姓名,城市,金额,下单时间\n${rows.join('\n')}\n`;
    const res = await upload(form({ tableName, dsId: dsId()! }), { name: 'bad.csv', content });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('第 2502 行【金额】的值“abc”不是数字');
    expect(await tableExists(dsId()!, tableName)).toBe(false);
    expect((await listed(dsId()!)).map((t) => t.tableName)).not.toContain(tableName);
    // The name is free again.
    const ok = await upload(form({ tableName, dsId: dsId()! }));
    expect(ok.status, ok.raw.body).toBe(200);
  });

  it('checks the form in the spec order, with every message', async () => {
    const cases: [Record<string, string | number>, string][] = [
      [{ tableName: '' }, '请填写表名'],
      [{ tableName: '  ', tableComment: '' }, '请填写表名'],
      [{ tableComment: '' }, '请填写表注释名'],
      [{ tableName: '1abc', tableComment: '' }, '请填写表注释名'],
      [{ tableName: '1abc' }, '请检查表名拼写'],
      [{ tableName: '_abc' }, '请检查表名拼写'],
      [{ tableName: 'ab-c' }, '请检查表名拼写'],
      [{ tableName: '表名' }, '请检查表名拼写'],
      [{ tableName: `a${'b'.repeat(30)}` }, '表名不能超过30个字符'],
      [{ tableComment: '注'.repeat(101) }, '表注释名不能超过100个字符'],
      [{ dsId: '' }, '请选择数据源'],
      [{ dsId: 'abc' }, '请选择数据源'],
      [{ tableColumnList: 'not json' }, '字段配置格式有误'],
      [{ tableColumnList: '[]' }, '字段配置格式有误'],
      [{ tableColumnList: JSON.stringify([{ ...COLUMNS[0], columnType: 'BLOB' }]) }, '字段类型须为 NUMBER、DATETIME 或 STRING'],
      [{ tableColumnList: JSON.stringify(COLUMNS.slice(0, 3)) }, '字段配置有 3 列，文件有 4 列，请重新上传文件'],
      [
        { tableColumnList: JSON.stringify([...COLUMNS.slice(0, 3), { ...COLUMNS[3], columnName: '时间' }]) },
        '字段名【时间】须以字母开头，只含字母、数字或下划线',
      ],
      [{ tableColumnList: JSON.stringify([...COLUMNS.slice(0, 3), { ...COLUMNS[3], columnName: 'NAME' }]) }, '字段名【NAME】重复'],
    ];
    for (const [overrides, message] of cases) {
      const res = await upload(form(overrides));
      expect(res.status, JSON.stringify(overrides)).toBe(400);
      expect(res.body.msg, JSON.stringify(overrides)).toBe(message);
    }
    const missing = await upload({ tableComment: '订单', dsId: warehouseId, tableColumnList: JSON.stringify(COLUMNS) });
    expect(missing.body.msg).toBe('请填写表名');
    const unknown = await upload(form({ dsId: 999999 }));
    expect(unknown.status).toBe(404);
    expect(unknown.body.msg).toBe('数据源不存在');
    // 30 characters is the limit, not past it.
    const longest = `a${Date.now().toString(36)}`.padEnd(30, 'x');
    expect((await upload(form({ tableName: longest }))).status).toBe(200);
  });

  it('creates no table for empty, header-only, corrupted or wrongly named files', async () => {
    const before = (await listed(warehouseId)).length;
    for (const [file, message] of [
      [{ name: 'e.csv', content: '' }, '文件内容为空'],
      [{ name: 'h.csv', content: '姓名,城市,金额,下单时间\n' }, '文件只有表头，没有数据行'],
      [{ name: 'c.xlsx', content: Buffer.from('PK\x03\x04broken') }, '文件已损坏或不是有效的 xlsx 文件'],
      [{ name: 'x.json', content: '{}' }, '请检查文件格式'],
    ] as [MultipartFile, string][]) {
      const tableName = uniqueTable('ft_none');
      const res = await upload(form({ tableName }), file);
      expect(res.body.msg, file.name).toBe(message);
      expect(await tableExists(warehouseId, tableName), file.name).toBe(false);
    }
    expect((await listed(warehouseId)).length).toBe(before);
  });

  it('lists by data source and asks for one', async () => {
    expect((await call(server, 'GET', '/api/filetable/tables', { headers: admin })).body.msg).toBe('请选择数据源');
    expect((await call(server, 'GET', '/api/filetable/tables', { headers: admin, query: { dsId: 999999 } })).status).toBe(404);
  });

  it('file tables in a shared warehouse (issue 27): the target source is a setting every uploader reads, and uploads land there through its bulk path', async () => {
    const analyst = await server.login((await createUser(server, admin)).account, 'secret123');
    const target = (headers = admin) => call(server, 'GET', '/api/system/file-table-source', { headers });
    const setTarget = (datasourceId: unknown, headers = admin) => call(server, 'PUT', '/api/system/file-table-source', { headers, payload: { datasourceId } });
    expect((await target(analyst)).body.data).toEqual({ datasourceId: null });
    expect((await setTarget(warehouseId, analyst)).status).toBe(403);
    const missing = await setTarget(999_999);
    expect([missing.status, missing.body.msg]).toEqual([400, '数据源不存在']);
    expect((await setTarget('x')).status).toBe(400);
    if (!postgresId) return;
    const saved = await setTarget(postgresId);
    expect([saved.status, saved.body.msg, saved.body.data]).toEqual([200, '保存成功', { datasourceId: postgresId }]);
    expect((await target(analyst)).body.data).toEqual({ datasourceId: postgresId });

    // 3 000 rows through COPY into PostgreSQL; the built-in warehouse has no such table.
    const tableName = uniqueTable('shared');
    pgTables.push(tableName);
    const rows = Array.from({ length: 3000 }, (_, i) => `客户${i},城市${i % 7},${i}.5,2024-03-05 08:30:00`);
    const res = await upload(form({ tableName, dsId: postgresId }), { name: '共享.csv', content: `姓名,城市,金额,下单时间\n${rows.join('\n')}\n` });
    expect(res.status, res.raw.body).toBe(200);
    expect(res.body.data).toMatchObject({ tableName, datasourceId: postgresId, rowCount: 3000 });
    const pgDriver = await getDataSourceDriver(server.ctx, postgresId);
    expect((await collect(pgDriver.query(`SELECT count(*)::int AS n, sum(amount) AS s FROM "${tableName}"`))).rows).toEqual([{ n: 3000, s: 4500000 }]);
    expect(await (await getDataSourceDriver(server.ctx, warehouseId)).tableExists(tableName)).toBe(false);

    expect((await setTarget(null)).body.data).toEqual({ datasourceId: null });
    expect((await target()).body.data).toEqual({ datasourceId: null });
  });
});
