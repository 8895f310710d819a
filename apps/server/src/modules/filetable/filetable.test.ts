import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import iconv from 'iconv-lite';
import * as XLSX from '@e965/xlsx';
import { createTestServer, storeKinds, type TestServer } from '../../../test/harness.ts';
import { call, createUser, type Call } from '../../../test/fixtures.ts';
import { multipart, type MultipartFile } from '../../../test/multipart.ts';
import { isKeptUploadName } from '../../platform/files/upload.ts';

const kinds = await storeKinds();

const CSV = '姓名,城市,金额,下单时间,Order ID,编码\n张三,北京,12.5,2024-03-05 08:30:00,1001,0012\n李四,"上海, 浦东",3,2024/3/6,1002,0013\n';

function workbook(rows: unknown[][], bookType: 'xlsx' | 'biff8'): Buffer {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), '数据');
  return XLSX.write(book, { type: 'buffer', bookType }) as Buffer;
}

describe.each(kinds)('file structure detection on %s', (kind) => {
  let server: TestServer;
  let admin: Record<string, string>;
  beforeAll(async () => {
    server = await createTestServer(kind);
    admin = await server.login();
  });
  afterAll(() => server?.close());

  const structure = async (file: MultipartFile | undefined, headers = admin): Promise<Call> => {
    const body = multipart({}, file);
    const raw = await server.app.inject({ method: 'POST', url: '/api/filetable/structure', headers: { ...headers, ...body.headers }, payload: body.payload });
    return { status: raw.statusCode, body: raw.json(), raw };
  };
  const uploadsLeft = () => {
    const dir = path.join(server.ctx.config.dataDir, 'uploads');
    // Files kept for a confirm call are not leftovers (filetable-kept.test.ts).
    return fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => !isKeptUploadName(n)) : [];
  };

  it.each([
    ['UTF-8', Buffer.from(CSV, 'utf8'), 'UTF-8'],
    ['UTF-8 with BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(CSV, 'utf8')]), 'UTF-8'],
    ['GBK', iconv.encode(CSV, 'gbk'), 'GBK'],
  ])('reads a %s CSV with Chinese headers and values', async (_label, bytes, encoding) => {
    const res = await structure({ name: '订单明细.csv', content: bytes });
    expect(res.status, res.raw.body).toBe(200);
    expect(res.body.data).toMatchObject({ fileName: '订单明细.csv', fileType: 'csv', encoding, sampledRows: 2 });
    expect(res.body.data.columns).toEqual([
      { comment: '姓名', columnName: 'col_1', columnType: 'STRING' },
      { comment: '城市', columnName: 'col_2', columnType: 'STRING' },
      { comment: '金额', columnName: 'col_3', columnType: 'NUMBER' },
      { comment: '下单时间', columnName: 'col_4', columnType: 'DATETIME' },
      { comment: 'Order ID', columnName: 'order_id', columnType: 'NUMBER' },
      { comment: '编码', columnName: 'col_6', columnType: 'STRING' },
    ]);
    expect(res.body.data.previewRows[1]).toEqual({ col_1: '李四', col_2: '上海, 浦东', col_3: '3', col_4: '2024/3/6', order_id: '1002', col_6: '0013' });
    expect(uploadsLeft()).toEqual([]);
  });

  it.each([
    ['xlsx', 'xlsx'],
    ['xls', 'biff8'],
  ] as const)('reads the first sheet of an %s file', async (extension, bookType) => {
    const bytes = workbook(
      [
        ['日期', '数量', '名称'],
        [new Date(2024, 0, 2), 5, '甲'],
        [new Date(2024, 0, 3, 12, 0), 7.5, '乙'],
      ],
      bookType,
    );
    const res = await structure({ name: `表格.${extension}`, content: bytes });
    expect(res.status, res.raw.body).toBe(200);
    expect(res.body.data).toMatchObject({ fileType: extension, encoding: null });
    expect(res.body.data.columns.map((c: { columnType: string }) => c.columnType)).toEqual(['DATETIME', 'NUMBER', 'STRING']);
    expect(res.body.data.previewRows[1]).toEqual({ col_1: '2024-01-03 12:00:00', col_2: 7.5, col_3: '乙' });
  });

  it('refuses a wrong extension, a missing file and a request that is not multipart', async () => {
    for (const name of ['data.txt', 'data.xlsx.exe', 'noextension', 'data.CSVX']) {
      const res = await structure({ name, content: 'a,b\n1,2\n' });
      expect(res.status, name).toBe(400);
      expect(res.body.msg, name).toBe('请检查文件格式');
    }
    expect((await structure({ name: 'DATA.CSV', content: 'a,b\n1,2\n' })).status).toBe(200);
    expect((await structure(undefined)).body.msg).toBe('请选择要上传的文件');
    const json = await call(server, 'POST', '/api/filetable/structure', { headers: admin, payload: { file: 'x' } });
    expect(json.status).toBe(400);
    expect(json.body.msg).toBe('请选择要上传的文件');
    expect(uploadsLeft()).toEqual([]);
  });

  it('refuses empty, header-only and corrupted files with clear messages', async () => {
    const cases: [MultipartFile, string][] = [
      [{ name: 'empty.csv', content: '' }, '文件内容为空'],
      [{ name: 'blank.csv', content: '\n\n' }, '文件内容为空'],
      [{ name: 'header.csv', content: '姓名,金额\n' }, '文件只有表头，没有数据行'],
      [{ name: 'header.xlsx', content: workbook([['姓名', '金额']], 'xlsx') }, '文件只有表头，没有数据行'],
      [{ name: 'empty.xlsx', content: '' }, '文件内容为空'],
      [{ name: 'broken.xlsx', content: workbook([['a'], [1]], 'xlsx').subarray(0, 300) }, '文件已损坏或不是有效的 xlsx 文件'],
      [{ name: 'text.xlsx', content: 'just some text' }, '文件已损坏或不是有效的 xlsx 文件'],
      [{ name: 'random.xls', content: Buffer.from([1, 2, 3, 4, 5, 6, 7, 8, 9]) }, '文件已损坏或不是有效的 xls 文件'],
      [{ name: 'quote.csv', content: 'a,b\n"x,1\n' }, '文件第 2 行格式有误：引号没有闭合'],
    ];
    for (const [file, message] of cases) {
      const res = await structure(file);
      expect(res.status, file.name).toBe(400);
      expect(res.body.msg, file.name).toBe(message);
    }
    expect(uploadsLeft()).toEqual([]);
  });

  it('answers 413 with the limit when a file is larger than allowed, and keeps nothing of it', async () => {
    const { config } = server.ctx;
    const saved = [config.uploadMaxBytes, config.spreadsheetMaxBytes];
    try {
      config.uploadMaxBytes = 64 * 1024;
      const big = await structure({ name: 'big.csv', content: `a,b\n${'1,2\n'.repeat(40_000)}` });
      expect(big.status).toBe(413);
      expect(big.body.msg).toBe('文件大小不能超过 64 KB');
      expect((await structure({ name: 'small.csv', content: 'a,b\n1,2\n' })).status).toBe(200);

      config.uploadMaxBytes = saved[0]!;
      config.spreadsheetMaxBytes = 4 * 1024;
      // Workbooks read whole (xls) have their own cap; an xlsx is streamed, so only the upload cap holds it.
      const rows = [['a'], ...Array.from({ length: 500 }, (_, i) => [i])];
      const sheet = await structure({ name: 'big.xls', content: workbook(rows, 'biff8') });
      expect(sheet.status).toBe(413);
      expect(sheet.body.msg).toBe('文件大小不能超过 4 KB');
      const streamed = await structure({ name: 'big.xlsx', content: workbook(rows, 'xlsx') });
      expect(streamed.status).toBe(200);
      expect(streamed.body.data.sampledRows).toBe(500);
    } finally {
      [config.uploadMaxBytes, config.spreadsheetMaxBytes] = saved as [number, number];
    }
    expect(uploadsLeft()).toEqual([]);
  });

  it('is for administrators only, like the data-source screens', async () => {
    const user = await createUser(server, admin);
    const res = await structure({ name: 'a.csv', content: 'a\n1\n' }, await server.login(user.account, user.password));
    expect(res.status).toBe(403);
  });
});
