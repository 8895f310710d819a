import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { openDriver } from '@shutu/connectors';
import { orderQuerySchema } from '@shutu/contracts';
import { csvLine, csvRecords, shownField } from './csv-lines.ts';
import { csvBlocksStatement } from './query.ts';

/**
 * The order-data file's CSV (issue 20): the engine formats the lines (query.ts) exactly as
 * csvLine would, and pageresult reads them back (csvRecords) as they were — quotes, commas,
 * line breaks, formula-looking text — whatever the chunk boundaries of the file.
 */
const TRICKY = ['普通', '含,逗号', '含"引号"', '换\r\n行', '=SUM(A1)', '-5', '@x', null];

async function records(text: string, chunk: number): Promise<string[][]> {
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += chunk) parts.push(text.slice(i, i + chunk));
  const out: string[][] = [];
  for await (const r of csvRecords(Readable.from(parts))) out.push(r);
  return out;
}

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

  it('the engine formats the lines as csvLine does, in the order of the output columns', async () => {
    const driver = openDriver({ type: 'duckdb', path: ':memory:' });
    try {
      const text = (name: string) => ({ name, type: 'STRING' as const });
      await driver.bulkLoad('products', [text('spid'), text('prmid'), { name: 'type_l1_id', type: 'INTEGER' }], [['900101', 'P1', 1]]);
      const rows = TRICKY.map((v, i) => [`1380000000${i}`, '900101', v, `2026-01-0${i + 1} 08:09:10`]);
      await driver.bulkLoad('v_order_data', [text('userid'), text('spid'), text('shortname'), { name: 'ordertime', type: 'DATETIME' }], rows);
    } catch (error) {
      await driver.close();
      throw error;
    }
    try {
      const form = orderQuerySchema.parse({ utype: 3, CUsertype: 1, outputSpname: 1, outputOrdertime: 1 });
      const statement = csvBlocksStatement(await driver.dialect(), form, { kind: 'all' }, 0, 3);
      const blocks: { n: number; text: string }[] = [];
      for await (const row of driver.query(statement.sql, statement.params)) blocks.push({ n: Number(row.n), text: String(row.text) });
      expect(blocks.map((b) => b.n)).toEqual([3, 3, 2]);
      const expected = TRICKY.map((v, i) => csvLine([`1380000000${i}`, v, `2026-01-0${i + 1} 08:09:10`]));
      expect(blocks.map((b) => `${b.text}\r\n`).join('')).toBe(expected.join(''));
      const resumed = csvBlocksStatement(await driver.dialect(), form, { kind: 'all' }, 6, 3);
      const rest: string[] = [];
      for await (const row of driver.query(resumed.sql, resumed.params)) rest.push(`${String(row.text)}\r\n`);
      expect(rest.join('')).toBe(expected.slice(6).join(''));
    } finally {
      await driver.close();
    }
  });
});
