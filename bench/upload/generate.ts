/**
 * Writes a deterministic CSV of telecom orders for the upload benchmark (UTF-8, Chinese
 * header and values, one date-time column, numbers, quoted fields with commas).
 *
 *   npx tsx bench/upload/generate.ts                         # 1 000 000 rows to $TMPDIR/shutu-upload-1000000.csv
 *   npx tsx bench/upload/generate.ts --rows 100000 --out x.csv [--gbk]
 *   npx tsx bench/upload/generate.ts --rows 100000 --xlsx    # the same orders as an xlsx
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';

const PROVINCES = ['北京', '上海', '广东', '江苏', '浙江', '四川', '湖北', '山东', '河南', '福建'];
const PRODUCTS = ['5G畅享套餐', '流量月包', '视频会员', '宽带融合', '国际漫游'];
const CHANNELS = ['营业厅', '网上商城', '掌上营业厅', '客服热线'];
export const HEADER = ['订单号', '手机号', '省份', '产品名称', '渠道', '金额', '下单时间', '备注'];

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The benchmark's orders, row by row: 订单号 and 金额 numbers, 下单时间 a UTC date-time, 备注 mostly empty. */
function* orderRows(rows: number): Generator<[number, string, string, string, string, number, Date, string]> {
  const rand = random(20240305);
  const start = Date.UTC(2024, 0, 1);
  for (let i = 1; i <= rows; i++) {
    const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
    const d = new Date(start + Math.floor(rand() * 365 * 86_400) * 1000);
    const phone = `1${String(3000000000 + Math.floor(rand() * 6999999999))}`;
    const amount = Math.floor(rand() * 50000) / 100;
    const note = i % 10 === 0 ? `加急, 第${i % 7}批` : '';
    yield [i, phone, pick(PROVINCES), pick(PRODUCTS), pick(CHANNELS), amount, d, note];
  }
}

const dateTime = (d: Date) =>
  `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;

export async function generateCsv(file: string, rows: number, options: { gbk?: boolean } = {}): Promise<{ bytes: number; millis: number }> {
  const started = performance.now();
  const out = fs.createWriteStream(file);
  const encode = (text: string) => (options.gbk ? iconv.encode(text, 'gbk') : Buffer.from(text, 'utf8'));
  let chunk = `${HEADER.join(',')}\n`;
  for (const [id, phone, province, product, channel, amount, when, note] of orderRows(rows)) {
    chunk += `${id},${phone},${province},${product},${channel},${amount.toFixed(2)},${dateTime(when)},${note ? `"${note}"` : ''}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(encode(chunk))) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(encode(chunk));
  await once(out, 'finish');
  return { bytes: fs.statSync(file).size, millis: Math.round(performance.now() - started) };
}

/**
 * The same orders as an xlsx as Excel writes one: text in the shared strings, numbers and a
 * date-time format on 下单时间 (exceljs' streaming writer).
 */
export async function generateXlsx(file: string, rows: number): Promise<{ bytes: number; millis: number }> {
  const started = performance.now();
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true, useStyles: true });
  const sheet = book.addWorksheet('订单');
  sheet.columns = HEADER.map((header, i) => ({ header, key: String(i), ...(i === 6 ? { style: { numFmt: 'yyyy-mm-dd hh:mm:ss' } } : {}) }));
  for (const [id, phone, province, product, channel, amount, when, note] of orderRows(rows)) {
    sheet.addRow([id, phone, province, product, channel, amount, when, note || null]).commit();
  }
  sheet.commit();
  await book.commit();
  return { bytes: fs.statSync(file).size, millis: Math.round(performance.now() - started) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const { values } = parseArgs({
    options: {
      rows: { type: 'string', default: '1000000' },
      out: { type: 'string' },
      gbk: { type: 'boolean', default: false },
      xlsx: { type: 'boolean', default: false },
    },
  });
  const rows = Number(values.rows);
  const file = values.out ?? path.join(os.tmpdir(), `shutu-upload-${rows}.${values.xlsx ? 'xlsx' : 'csv'}`);
  const { bytes, millis } = values.xlsx ? await generateXlsx(file, rows) : await generateCsv(file, rows, { gbk: values.gbk });
  console.log(`${file}: ${rows.toLocaleString('en')} rows, ${(bytes / 1024 / 1024).toFixed(1)} MiB, ${millis} ms`);
}
