import { ORDER_ADDON_COLUMNS, ORDER_OUTPUT_COLUMNS, type OrderQueryParsed } from '@shutu/contracts';
import type { BoundStatement } from '../read/index.ts';
import type { Dialect } from '@shutu/query';

/**
 * The extraction's SQL (docs/order-export.md "The query"): the order-data result row (the demo
 * warehouse's v_order_data view) with the product dimension for type filters and 资费编码, and —
 * when add-on data is asked for — the users' usage summed over the chosen months. Every value
 * is a bound parameter; column and table names are fixed here. Runs on the built-in DuckDB
 * warehouse (string_split for the batch of phones: one parameter, not a million).
 */

export interface OutputColumn {
  column: string;
  title: string;
}

/** The columns a form asks for: userid first, then the checked output fields, then the add-ons. */
export function outputColumns(form: OrderQueryParsed): OutputColumn[] {
  return [
    { column: 'userid', title: '手机号' },
    ...ORDER_OUTPUT_COLUMNS.filter((c) => form[c.flag] === 1).map(({ column, title }) => ({ column, title })),
    ...ORDER_ADDON_COLUMNS.filter((c) => form[c.flag] === 1).map(({ column, title }) => ({ column, title })),
  ];
}

const SELECT_OF: Record<string, string> = {
  userid: 'v.userid',
  prmid: 'p.prmid',
  iscb: "CASE WHEN v.canceltime IS NULL THEN '否' ELSE '是' END",
  vipnums: 'COALESCE(u.vipnums, 0)',
  flows: 'COALESCE(u.flows, 0)',
  cnums: 'COALESCE(u.cnums, 0)',
};

/** yyyyMMdd → yyyy-MM-dd, and the day after it (an end day includes the whole day). */
const isoDay = (d: string) => `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`;
function dayAfter(d: string): string {
  const t = new Date(`${isoDay(d)}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + 1);
  return t.toISOString().slice(0, 10);
}
/** yyyyMM → yyyy-MM (user_month_usage.month). */
const isoMonth = (m: string) => `${m.slice(0, 4)}-${m.slice(4, 6)}`;

/** Who is asked for: one phone, a batch (comma-joined), or everybody. */
export type Phones = { kind: 'one'; phone: string } | { kind: 'batch'; joined: string } | { kind: 'all' };

export function orderDataStatement(dialect: Dialect, form: OrderQueryParsed, phones: Phones): BoundStatement {
  const params: (string | number)[] = [];
  const bind = (value: string | number) => {
    params.push(value);
    return dialect.placeholder(params.length);
  };
  const inList = (expr: string, values: readonly string[]) => `${expr} IN (${values.map((v) => bind(v)).join(', ')})`;
  const columns = outputColumns(form);
  const addOn = columns.some((c) => c.column === 'vipnums' || c.column === 'flows' || c.column === 'cnums');

  // FROM before WHERE: placeholders numbered in the order they appear.
  let from = 'v_order_data v JOIN products p ON p.spid = v.spid';
  if (addOn) {
    const usage = `SELECT phone, SUM(vip_receipts) AS vipnums, SUM(flow_mb) AS flows, SUM(complaints) AS cnums FROM user_month_usage WHERE month BETWEEN ${bind(isoMonth(form.monthStart!))} AND ${bind(isoMonth(form.monthEnd!))} GROUP BY phone`;
    from += ` LEFT JOIN (${usage}) u ON u.phone = v.userid`;
  }

  const where: string[] = [];
  if (phones.kind === 'one') where.push(`v.userid = ${bind(phones.phone)}`);
  if (phones.kind === 'batch') where.push(`v.userid IN (SELECT unnest(string_split(${bind(phones.joined)}, ',')))`);
  const cancelling = form.CUsertype === 2;
  if (cancelling) where.push('v.canceltime IS NOT NULL');
  const [timeColumn, start, end, channels, belongs] = cancelling
    ? (['v.canceltime', form.cancelDayStart, form.cancelDayEnd, form.cancelChannel, form.belongtoCancel] as const)
    : (['v.ordertime', form.orderDayStart, form.orderDayEnd, form.orderChannel, form.belongto] as const);
  if (start) where.push(`${timeColumn} >= CAST(${bind(isoDay(start))} AS TIMESTAMP)`);
  if (end) where.push(`${timeColumn} < CAST(${bind(dayAfter(end))} AS TIMESTAMP)`);
  if (channels.length) where.push(inList(cancelling ? 'v.cancelchannel' : 'v.orderchannel', channels));
  if (belongs.length) where.push(inList(cancelling ? 'v.cancelbelongto' : 'v.orderbelongto', belongs));
  if (form.province.length) where.push(inList('v.province', form.province));
  if (form.area.length) where.push(inList('v.area', form.area));
  if (form.cpType.length) where.push(inList('CAST(p.type_l1_id AS VARCHAR)', form.cpType));
  if (form.fullCptype.length) where.push(inList('CAST(p.type_l2_id AS VARCHAR)', form.fullCptype));
  if (form.spid.length) where.push(inList('v.spid', form.spid));

  const select = columns.map((c) => `${SELECT_OF[c.column] ?? `v.${c.column}`} AS ${c.column}`).join(', ');
  const sql = `SELECT ${select} FROM ${from}${where.length ? ` WHERE ${where.join(' AND ')}` : ''}`;
  return { sql, params };
}

/** Columns that are numbers in the file (the add-ons); the rest are text, guarded against formulas. */
export const NUMBER_COLUMNS: ReadonlySet<string> = new Set(['vipnums', 'flows', 'cnums']);
const TIME_COLUMNS: ReadonlySet<string> = new Set(['ordertime', 'canceltime']);

/** A field's text (NULL stays NULL): times as yyyy-MM-dd HH:mm:ss. */
const textSql = (column: string) => (TIME_COLUMNS.has(column) ? `strftime(s.${column}, '%Y-%m-%d %H:%M:%S')` : `CAST(s.${column} AS VARCHAR)`);
/** A text starting like a formula gets a leading apostrophe (csv-lines.ts). Plain string tests: far cheaper than a regular expression per field. */
const guardSql = (f: string) => `CASE WHEN left(${f}, 1) IN ('=', '+', '-', '@', chr(9), chr(13)) THEN '''' || ${f} ELSE ${f} END`;
/** '' for NULL; quoted when it holds a quote, comma or line break (quotes doubled). */
const quoteSql = (g: string) =>
  `COALESCE(CASE WHEN contains(${g}, '"') OR contains(${g}, ',') OR contains(${g}, chr(10)) OR contains(${g}, chr(13)) THEN '"' || replace(${g}, '"', '""') || '"' ELSE ${g} END, '')`;

/**
 * The extraction as blocks of finished CSV text (docs/order-export.md "Speed"): the engine
 * formats every line (csv-lines.ts's rules) and joins `blockRows` of them, so the server handles
 * one string per block instead of a value per cell. Rows are numbered in the order of their line's
 * text (phone first; one string key sorts faster than the columns, ≈ 17% at 1M) — the same rows
 * always give the same blocks, which is what lets an interrupted task resume after its last
 * written block (`fromRow`, a block boundary). Each row: blk, n (rows in
 * it), text (the lines joined by CRLF).
 */
export function csvBlocksStatement(dialect: Dialect, form: OrderQueryParsed, phones: Phones, fromRow: number, blockRows: number): BoundStatement {
  const base = orderDataStatement(dialect, form, phones);
  const columns = outputColumns(form).map((c) => c.column);
  const params = [...base.params, fromRow];
  const texts = columns.map((c, i) => `${NUMBER_COLUMNS.has(c) ? `CAST(s.${c} AS VARCHAR)` : textSql(c)} AS f${i}`).join(', ');
  const guarded = columns.map((c, i) => `${NUMBER_COLUMNS.has(c) ? `f${i}` : guardSql(`f${i}`)} AS g${i}`).join(', ');
  const line = columns.map((_, i) => quoteSql(`g${i}`)).join(" || ',' || ");
  const sql = `WITH f AS (SELECT s.*, ${texts} FROM (${base.sql}) s), g AS (SELECT *, ${guarded} FROM f),
l AS (SELECT ${line} AS line FROM g), r AS (SELECT line, row_number() OVER (ORDER BY line) - 1 AS rn FROM l)
SELECT rn // ${Math.trunc(blockRows)} AS blk, count(*) AS n, string_agg(line, chr(13) || chr(10) ORDER BY rn) AS text
FROM r WHERE rn >= ${dialect.placeholder(params.length)} GROUP BY blk ORDER BY blk`;
  return { sql, params };
}

/** The extraction's statement in the file's row order (what bench/export hands to DuckDB's COPY). */
export function orderedDataStatement(dialect: Dialect, form: OrderQueryParsed, phones: Phones): BoundStatement {
  const base = orderDataStatement(dialect, form, phones);
  return {
    sql: `${base.sql} ORDER BY ${outputColumns(form)
      .map((_, i) => i + 1)
      .join(', ')}`,
    params: base.params,
  };
}

/** A cell as the CSV and the result table show it: timestamps as yyyy-MM-dd HH:mm:ss. */
export function cellText(value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString().slice(0, 19).replace('T', ' ');
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  const text = String(value);
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/.test(text) ? text.slice(0, 19).replace('T', ' ') : text;
}
