import fs from 'node:fs';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { openDriver, type DataSourceConfig } from '@shutu/connectors';
import { orderQuerySchema } from '@shutu/contracts';
import { csvLine, csvRecords, plainSliceToCsv, shownField, statsRuleOutFormula } from './csv-lines.ts';
import { csvCopyStatement, csvSliceStatement, FIELD_MARK, isTimeColumn, textColumns, textColumnStatsStatement, type OrderIdRange } from './query.ts';

/**
 * The order-data file's CSV (issue 20): the engine formats the lines (query.ts) exactly as
 * csvLine would — a plain slice when no field needs care (checked on its bytes), the careful
 * statement otherwise — and pageresult reads them back (csvRecords) as they were — quotes,
 * commas, line breaks, formula-looking text — whatever the chunk boundaries of the file.
 */
const TRICKY = ['普通', '含,逗号', '含"引号"', '换\r\n行', '=SUM(A1)', '-5', '@x', null];

async function records(text: string, chunk: number): Promise<string[][]> {
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += chunk) parts.push(text.slice(i, i + chunk));
  const out: string[][] = [];
  for await (const r of csvRecords(Readable.from(parts))) out.push(r);
  return out;
}

const FORM = orderQuerySchema.parse({ utype: 3, CUsertype: 1, outputSpname: 1, outputOrdertime: 1 });
// The tables v_order_data is made of (query.ts ORDER_ROWS): ids 1–8 tricky names, 101–103 plain ones.
const TRICKY_ROWS = TRICKY.map((v, i) => [i + 1, `1380000000${i}`, '900101', v, `2026-01-0${i + 1} 08:09:10`]);
const PLAIN_ROWS = [101, 102, 103].map((id, i) => [id, `1390000000${i}`, '900101', `普通${i}`, `2026-02-0${i + 1} 08:09:10`]);

/** A DuckDB with the tables ORDER_ROWS reads, holding TRICKY_ROWS and PLAIN_ROWS. */
async function tricky(config: DataSourceConfig) {
  const driver = openDriver(config);
  const text = (name: string) => ({ name, type: 'STRING' as const });
  try {
    await driver.bulkLoad('products', [text('spid'), text('prmid'), { name: 'type_l1_id', type: 'INTEGER' }], [['900101', 'P1', 1]]);
    const order = [
      { name: 'order_id', type: 'INTEGER' as const },
      text('phone'),
      text('spid'),
      text('shortname'),
      { name: 'order_time', type: 'DATETIME' as const },
    ];
    const more = ['province', 'area', 'channel_name', 'belongto', 'channel_id', 'status'].map(text);
    await driver.bulkLoad(
      'orders',
      [...order, ...more],
      [...TRICKY_ROWS, ...PLAIN_ROWS].map((r) => [...r, '广东', '广州', '营业厅', '线下', 'c1', '订购成功']),
    );
    const cancel = [
      { name: 'order_id', type: 'INTEGER' as const },
      { name: 'cancel_time', type: 'DATETIME' as const },
      ...['channel_name', 'belongto', 'channel_id'].map(text),
    ];
    await driver.bulkLoad('cancellations', cancel, [[1, '2026-03-01 00:00:00', '营业厅', '线下', 'c1']]);
    return driver;
  } catch (error) {
    await driver.close();
    throw error;
  }
}

/** The first row of a statement on a driver. */
async function firstRow(driver: ReturnType<typeof openDriver>, statement: { sql: string; params: readonly unknown[] }) {
  for await (const row of driver.query(statement.sql, statement.params as never)) return row;
  return undefined;
}

// The lines come in no particular order: compared as sorted records.
const sortedRecords = async (text: string) => (await records(text, 1000)).map((r) => r.join('\t')).sort();
const expected = (rows: (string | number | null)[][]) => sortedRecords(rows.map((r) => csvLine([r[1]!, r[3]!, r[4]!])).join(''));

describe('order-data CSV', () => {
  it('reads back every field csvLine wrote, across any chunk boundary', async () => {
    const text = `\ufeff${csvLine(['手机号', '产品名称'])}${TRICKY.map((v, i) => csvLine([`1380000000${i}`, v])).join('')}`;
    const expected = [['手机号', '产品名称'], ...TRICKY.map((v, i) => [`1380000000${i}`, v === null ? '' : csvLine([v]).slice(0, -2)])];
    for (const chunk of [1, 2, 3, 7, 1000]) {
      const got = await records(text, chunk);
      expect(got.map((r) => r[0])).toEqual(expected.map((r) => r[0]));
      expect(got.slice(1).map((r) => shownField(r[1]!))).toEqual(TRICKY.map((v) => v ?? ''));
    }
  });

  it('the engine formats the lines as csvLine does: plain slices pass the byte check, others take the careful statement', async () => {
    const driver = await tricky({ type: 'duckdb', path: ':memory:' });
    try {
      const dialect = await driver.dialect();
      const slice = async (range: OrderIdRange | null, careful: boolean) => {
        const statement = csvSliceStatement(dialect, FORM, { kind: 'all' }, range, careful);
        for await (const row of driver.query(statement.sql, statement.params, { rawBytes: true }))
          return { n: Number(row.n), bytes: row.bytes as unknown as Uint8Array };
        throw new Error('no row');
      };
      const lines = async (bytes: Uint8Array) => sortedRecords(`${Buffer.from(bytes).toString('utf8')}\n`);

      const carefulAll = await slice(null, true);
      expect(carefulAll.n).toBe(11);
      expect(await lines(carefulAll.bytes)).toEqual(await expected([...TRICKY_ROWS, ...PLAIN_ROWS]));

      // The tricky names: the plain slice is refused by the byte check (quotes, commas, breaks, formulas).
      for (let id = 1; id <= 8; id++) {
        const one = await slice({ from: id, to: id }, false);
        expect(plainSliceToCsv(one.bytes, one.n, 3, FIELD_MARK), String(TRICKY[id - 1])).toBe(TRICKY[id - 1] === '普通' || TRICKY[id - 1] === null);
      }
      // Plain names: the plain slice becomes exactly the careful lines.
      const plainSlice = await slice({ from: 100, to: 200 }, false);
      expect(plainSliceToCsv(plainSlice.bytes, plainSlice.n, 3, FIELD_MARK)).toBe(true);
      expect(await lines(plainSlice.bytes)).toEqual(await expected(PLAIN_ROWS));
      // An empty range: no lines, no bytes.
      expect(await slice({ from: 300, to: 400 }, false)).toMatchObject({ n: 0, bytes: null });
    } finally {
      await driver.close();
    }
  });

  it('an engine writing the CSV itself (writesCsvFile) writes the lines csvLine would; its statistics decide which columns get the formula guard', async () => {
    const driver = await tricky({ type: 'duckdb', path: ':memory:', csvOutput: true });
    const files: string[] = [];
    try {
      expect((await driver.info()).capabilities.writesCsvFile).toBe(true);
      const dialect = await driver.dialect();
      const copy = async (range: OrderIdRange | null, guarded: ReadonlySet<string>) => {
        const part = await driver.copySelectToCsvFile!(csvCopyStatement(dialect, FORM, { kind: 'all' }, range, guarded));
        files.push(part.file);
        return { ...part, text: await fs.promises.readFile(part.file, 'utf8') };
      };
      // The statistics of the tricky table: the phones (1…1) and the times need no guard, the names (from 换 to =…) do.
      const stats = (await firstRow(driver, textColumnStatsStatement(FORM))) as Record<string, unknown>;
      const columns = textColumns(FORM);
      expect(columns).toEqual(['userid', 'shortname', 'ordertime']);
      const needGuard = columns.filter((c, i) => !statsRuleOutFormula(stats[`c${i}`], isTimeColumn(c) ? 'time' : 'text'));
      expect(needGuard).toEqual(['shortname']);
      // Guarded where the statistics say so, every line is csvLine's: quotes, commas, CRLF inside a field, the formula guard, NULL empty.
      const all = await copy(null, new Set(needGuard));
      expect(all.rows).toBe(11);
      expect(all.text.endsWith('\r\n')).toBe(true);
      expect(await sortedRecords(all.text)).toEqual(await expected([...TRICKY_ROWS, ...PLAIN_ROWS]));
      // Without the guard the formula-like names would be written bare: the guard is what makes the difference.
      const bare = await copy({ from: 5, to: 5 }, new Set());
      expect(bare.text).toContain(',=SUM(A1),');
      const plain = await copy({ from: 100, to: 200 }, new Set(needGuard));
      // Byte for byte csvLine's lines (in the engine's order).
      expect(plain.text.split(/(?<=\r\n)/).sort()).toEqual(PLAIN_ROWS.map((r) => csvLine([r[1]!, r[3]!, r[4]!])).sort());
      expect(await copy({ from: 300, to: 400 }, new Set(needGuard))).toMatchObject({ rows: 0, text: '' });
    } finally {
      for (const file of files) await fs.promises.rm(file, { force: true });
      await driver.close();
    }
  });

  it('rules a formula start out only where the printed statistics prove it', () => {
    const text = (min: string, max: string) => `[Min: ${min}, Max: ${max}, Has Unicode: true, Max String Length: 9][Has Null: false, Has No Null: true]`;
    expect(statsRuleOutFormula(text('13000000', '18999996'), 'text')).toBe(true); // phones
    expect(statsRuleOutFormula(text('\\xE4\\xB8\\x8A', '\\xE9\\xBB\\x91'), 'text')).toBe(true); // Chinese names
    expect(statsRuleOutFormula(text('A001', 'Z9'), 'text')).toBe(true); // letters: above @
    expect(statsRuleOutFormula(text('', ''), 'text')).toBe(true); // every value empty
    expect(statsRuleOutFormula(text('10\\xE5\\x85', '\\xE9\\xAB'), 'text')).toBe(false); // digits to Chinese: = and @ lie between
    expect(statsRuleOutFormula(text('-5', '9'), 'text')).toBe(false);
    expect(statsRuleOutFormula(text('=A', '=Z'), 'text')).toBe(false);
    expect(statsRuleOutFormula(text('\t', 'a'), 'text')).toBe(false);
    expect(statsRuleOutFormula(text('', '\\xFF\\xFF\\xFF'), 'text')).toBe(false); // unknown bounds
    expect(statsRuleOutFormula(text('a, Max: b', 'c'), 'text')).toBe(false); // ambiguous printout
    expect(statsRuleOutFormula(text('z', 'a'), 'text')).toBe(false);
    expect(statsRuleOutFormula('[No Stats]', 'text')).toBe(false);
    expect(statsRuleOutFormula(null, 'text')).toBe(false);
    expect(statsRuleOutFormula('[Min: 2024-01-01 00:00:00, Max: 2026-11-01 00:00:00][Has Null: true, Has No Null: true]', 'time')).toBe(true);
    expect(statsRuleOutFormula('[Min: -infinity, Max: 2026-11-01 00:00:00][Has Null: false, Has No Null: true]', 'time')).toBe(false);
    expect(statsRuleOutFormula('[Min: 0044-03-15 (BC), Max: 2026-11-01][Has Null: false, Has No Null: true]', 'time')).toBe(false);
  });

  it('the byte check refuses a slice whose marks, breaks or first bytes do not add up', () => {
    const bytes = (text: string) => new Uint8Array(Buffer.from(text.replaceAll('|', '\x1f')));
    const ok = bytes('a|b|\r\nc|d|e\r');
    expect(plainSliceToCsv(ok, 2, 3, FIELD_MARK)).toBe(true);
    expect(Buffer.from(ok).toString()).toBe('a,b,\r\nc,d,e\r');
    expect(plainSliceToCsv(bytes('a|b\r\nc|d|e\r'), 2, 3, FIELD_MARK)).toBe(false); // a mark inside a field
    expect(plainSliceToCsv(bytes('a|b\rx|c\r'), 1, 3, FIELD_MARK)).toBe(false); // a CR inside a field
    expect(plainSliceToCsv(bytes('a|-1\r'), 1, 2, FIELD_MARK)).toBe(false);
    expect(plainSliceToCsv(bytes('=a|1\r'), 1, 2, FIELD_MARK)).toBe(false);
    expect(plainSliceToCsv(bytes('a|1\r\n@b|2\r'), 2, 2, FIELD_MARK)).toBe(false);
  });
});
