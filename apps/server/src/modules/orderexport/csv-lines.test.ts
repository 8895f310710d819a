import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { openDriver } from '@shutu/connectors';
import { orderQuerySchema } from '@shutu/contracts';
import { csvLine, csvRecords, plainSliceToCsv, shownField } from './csv-lines.ts';
import { csvSliceStatement, FIELD_MARK, type OrderIdRange } from './query.ts';

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
    const driver = openDriver({ type: 'duckdb', path: ':memory:' });
    const text = (name: string) => ({ name, type: 'STRING' as const });
    // The tables v_order_data is made of (query.ts ORDER_ROWS): ids 1–8 tricky names, 101–103 plain ones.
    const tricky = TRICKY.map((v, i) => [i + 1, `1380000000${i}`, '900101', v, `2026-01-0${i + 1} 08:09:10`]);
    const plain = [101, 102, 103].map((id, i) => [id, `1390000000${i}`, '900101', `普通${i}`, `2026-02-0${i + 1} 08:09:10`]);
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
        [...tricky, ...plain].map((r) => [...r, '广东', '广州', '营业厅', '线下', 'c1', '订购成功']),
      );
      const cancel = [
        { name: 'order_id', type: 'INTEGER' as const },
        { name: 'cancel_time', type: 'DATETIME' as const },
        ...['channel_name', 'belongto', 'channel_id'].map(text),
      ];
      await driver.bulkLoad('cancellations', cancel, [[1, '2026-03-01 00:00:00', '营业厅', '线下', 'c1']]);
    } catch (error) {
      await driver.close();
      throw error;
    }
    try {
      const form = orderQuerySchema.parse({ utype: 3, CUsertype: 1, outputSpname: 1, outputOrdertime: 1 });
      const dialect = await driver.dialect();
      const slice = async (range: OrderIdRange | null, careful: boolean) => {
        const statement = csvSliceStatement(dialect, form, { kind: 'all' }, range, careful);
        for await (const row of driver.query(statement.sql, statement.params, { rawBytes: true }))
          return { n: Number(row.n), bytes: row.bytes as unknown as Uint8Array };
        throw new Error('no row');
      };
      // The lines come in no particular order: compared as sorted records.
      const lines = async (bytes: Uint8Array) => (await records(`${Buffer.from(bytes).toString('utf8')}\n`, 1000)).map((r) => r.join('\t')).sort();
      const expected = (rows: (string | number | null)[][]) =>
        records(rows.map((r) => csvLine([r[1]!, r[3]!, r[4]!])).join(''), 1000).then((all) => all.map((r) => r.join('\t')).sort());

      const carefulAll = await slice(null, true);
      expect(carefulAll.n).toBe(11);
      expect(await lines(carefulAll.bytes)).toEqual(await expected([...tricky, ...plain]));

      // The tricky names: the plain slice is refused by the byte check (quotes, commas, breaks, formulas).
      for (let id = 1; id <= 8; id++) {
        const one = await slice({ from: id, to: id }, false);
        expect(plainSliceToCsv(one.bytes, one.n, 3, FIELD_MARK), String(TRICKY[id - 1])).toBe(TRICKY[id - 1] === '普通' || TRICKY[id - 1] === null);
      }
      // Plain names: the plain slice becomes exactly the careful lines.
      const plainSlice = await slice({ from: 100, to: 200 }, false);
      expect(plainSliceToCsv(plainSlice.bytes, plainSlice.n, 3, FIELD_MARK)).toBe(true);
      expect(await lines(plainSlice.bytes)).toEqual(await expected(plain));
      // An empty range: no lines, no bytes.
      expect(await slice({ from: 300, to: 400 }, false)).toMatchObject({ n: 0, bytes: null });
    } finally {
      await driver.close();
    }
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
