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

/**
 * The rows of the warehouse's v_order_data view (successful orders and their cancellation) without
 * the view's join of the ordering month's usage, which the file never shows (its add-ons are the
 * chosen months' sums, below): that join scans every user's every month once per statement, and
 * the extraction runs one statement per slice of order ids. Same rows, same names (tested).
 */
export const ORDER_ROWS = `(SELECT o.order_id, o.phone AS userid, o.province, o.area, o.spid, o.shortname, o.order_time AS ordertime,
  o.channel_name AS orderchannelname, o.belongto AS orderbelongto, o.channel_id AS orderchannel,
  x.cancel_time AS canceltime, x.channel_name AS cancelchannelname, x.belongto AS cancelbelongto, x.channel_id AS cancelchannel
  FROM orders o LEFT JOIN cancellations x ON x.order_id = o.order_id WHERE o.status = '订购成功')`;

/** Who is asked for: one phone, a batch (comma-joined), or everybody. */
export type Phones = { kind: 'one'; phone: string } | { kind: 'batch'; joined: string } | { kind: 'all' };

/** A slice of the orders by their id, both ends included (the extraction's unit of work and of resuming). */
export interface OrderIdRange {
  from: number;
  to: number;
}

export function orderDataStatement(dialect: Dialect, form: OrderQueryParsed, phones: Phones, range: OrderIdRange | null = null): BoundStatement {
  const params: (string | number)[] = [];
  const bind = (value: string | number) => {
    params.push(value);
    return dialect.placeholder(params.length);
  };
  const inList = (expr: string, values: readonly string[]) => `${expr} IN (${values.map((v) => bind(v)).join(', ')})`;
  const columns = outputColumns(form);
  const addOn = columns.some((c) => c.column === 'vipnums' || c.column === 'flows' || c.column === 'cnums');

  // FROM before WHERE: placeholders numbered in the order they appear.
  let from = `${ORDER_ROWS} v JOIN products p ON p.spid = v.spid`;
  if (addOn) {
    const usage = `SELECT phone, SUM(vip_receipts) AS vipnums, SUM(flow_mb) AS flows, SUM(complaints) AS cnums FROM user_month_usage WHERE month BETWEEN ${bind(isoMonth(form.monthStart!))} AND ${bind(isoMonth(form.monthEnd!))} GROUP BY phone`;
    from += ` LEFT JOIN (${usage}) u ON u.phone = v.userid`;
  }

  const where: string[] = [];
  if (range) where.push(`v.order_id BETWEEN ${bind(range.from)} AND ${bind(range.to)}`);
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
const guardSql = (f: string) =>
  `CASE WHEN starts_with(${f}, '=') OR starts_with(${f}, '+') OR starts_with(${f}, '-') OR starts_with(${f}, '@') OR starts_with(${f}, chr(9)) OR starts_with(${f}, chr(13)) THEN '''' || ${f} ELSE ${f} END`;
/** '' for NULL; quoted when it holds a quote, comma or line break (quotes doubled). */
const quoteSql = (g: string) =>
  `COALESCE(CASE WHEN contains(${g}, '"') OR contains(${g}, ',') OR contains(${g}, chr(10)) OR contains(${g}, chr(13)) THEN '"' || replace(${g}, '"', '""') || '"' ELSE ${g} END, '')`;

/** Between the fields of a plain slice (csv-lines.ts `plainSliceToCsv` turns it into the comma). */
export const FIELD_MARK = 0x1f;

/**
 * One slice of the extraction (a range of order ids) as CSV bytes, formatted by the engine so the
 * server handles one buffer per slice instead of a value per cell (docs/order-export.md "Speed").
 * The lines are in no particular order — no sort — and a slice is written whole or written again,
 * which is what makes resuming exact. Each line ends with CR, lines are joined by LF, so the
 * bytes are CRLF lines once the writer adds the last LF. One row: n (lines), bytes (UTF-8, NULL
 * when none).
 *
 * `careful` false: the fields are joined by FIELD_MARK and not looked at — almost every slice
 * needs neither quotes nor the formula guard, and checking that in SQL costs more than the
 * formatting; the server checks the bytes (csv-lines.ts) and asks again with `careful` true when
 * they need either. `careful` true: each field quoted and guarded as csvLine does.
 */
export function csvSliceStatement(dialect: Dialect, form: OrderQueryParsed, phones: Phones, range: OrderIdRange | null, careful: boolean): BoundStatement {
  const base = orderDataStatement(dialect, form, phones, range);
  const columns = outputColumns(form).map((c) => c.column);
  const texts = columns.map((c, i) => `${NUMBER_COLUMNS.has(c) ? `CAST(s.${c} AS VARCHAR)` : textSql(c)} AS f${i}`).join(', ');
  const line = careful
    ? `${columns.map((c, i) => quoteSql(NUMBER_COLUMNS.has(c) ? `f${i}` : guardSql(`f${i}`))).join(" || ',' || ")} || chr(13)`
    : `concat(${columns.map((_, i) => `f${i}`).join(`, chr(${FIELD_MARK}), `)}, chr(13))`;
  const sql = `WITH f AS (SELECT ${texts} FROM (${base.sql}) s) SELECT count(*) AS n, encode(string_agg(${line}, chr(10))) AS bytes FROM f`;
  return { sql, params: base.params };
}

/** The output columns a file may show as text (the formula guard's concern): all but the number add-ons. */
export const textColumns = (form: OrderQueryParsed): string[] => outputColumns(form).flatMap((c) => (NUMBER_COLUMNS.has(c.column) ? [] : [c.column]));
export const isTimeColumn = (column: string) => TIME_COLUMNS.has(column);

/** Where each text column of the file comes from (ORDER_ROWS, SELECT_OF): table and column. */
const TEXT_SOURCE: Record<string, readonly [table: string, column: string]> = {
  userid: ['orders', 'phone'],
  province: ['orders', 'province'],
  area: ['orders', 'area'],
  spid: ['orders', 'spid'],
  prmid: ['products', 'prmid'],
  shortname: ['orders', 'shortname'],
  ordertime: ['orders', 'order_time'],
  orderchannelname: ['orders', 'channel_name'],
  orderbelongto: ['orders', 'belongto'],
  orderchannel: ['orders', 'channel_id'],
  canceltime: ['cancellations', 'cancel_time'],
  cancelchannelname: ['cancellations', 'channel_name'],
  cancelbelongto: ['cancellations', 'belongto'],
  cancelchannel: ['cancellations', 'channel_id'],
};

/**
 * The engine's statistics (DuckDB `stats()`: the bounds it keeps of each table column, read
 * without a scan) of the columns the file's text columns come from — bounds of the whole table
 * are bounds of any row the file holds. csv-lines.ts `statsRuleOutFormula` reads from them which
 * columns cannot hold a text starting like a formula; only the others get the guard
 * (csvCopyStatement). 是否退订 (iscb) is always 是 or 否: '是' stands for it. One row, c0… in
 * textColumns' order; NULL for a table without rows (the column is then guarded).
 */
export function textColumnStatsStatement(form: OrderQueryParsed): BoundStatement {
  const select = textColumns(form).map((c, i) => {
    const source = TEXT_SOURCE[c];
    return source ? `(SELECT stats(${source[1]}) FROM ${source[0]} LIMIT 1) AS c${i}` : `stats('是') AS c${i}`;
  });
  return { sql: `SELECT ${select.join(', ')}`, params: [] };
}

/**
 * One slice of the extraction as the fields of the file's lines, for an engine that writes the
 * CSV itself (capability `writesCsvFile`: COPY … TO, which quotes a field holding a comma, quote
 * or line break and doubles its quotes): times as yyyy-MM-dd HH:mm:ss, numbers as the engine
 * writes them. No sort, like csvSliceStatement. The text columns in `guarded` get the leading
 * apostrophe when they start like a formula (as csvLine); the others are those the engine's
 * statistics show never do — the guard costs as much as the rest of the formatting, and checking
 * the written file instead took longer than the engine's whole COPY.
 */
export function csvCopyStatement(
  dialect: Dialect,
  form: OrderQueryParsed,
  phones: Phones,
  range: OrderIdRange | null,
  guarded: ReadonlySet<string>,
  titled = false,
): BoundStatement {
  const base = orderDataStatement(dialect, form, phones, range);
  // `titled`: the columns named by their Chinese titles, the first after the byte-order mark, so
  // the engine's header line is the file's first line (the whole file written by the engine).
  const name = (title: string, i: number) => (titled ? dialect.quoteIdentifier(`${i === 0 ? '\ufeff' : ''}${title}`) : `f${i}`);
  const fields = outputColumns(form).map(({ column: c, title }, i) => {
    const text = NUMBER_COLUMNS.has(c) ? `CAST(s.${c} AS VARCHAR)` : textSql(c);
    return `${guarded.has(c) && !NUMBER_COLUMNS.has(c) ? guardSql(`(${text})`) : text} AS ${name(title, i)}`;
  });
  return { sql: `SELECT ${fields.join(', ')} FROM (${base.sql}) s`, params: base.params };
}

/** The orders' id span (the slices cover it); max NULL when there are none. */
export const ORDER_ID_SPAN_SQL = 'SELECT min(order_id) AS lo, max(order_id) AS hi FROM orders';

/** The unsliced statement bench/export hands to DuckDB's own COPY: the same rows, the same (no) order. */
export const copyStatement = (dialect: Dialect, form: OrderQueryParsed, phones: Phones) => orderDataStatement(dialect, form, phones);

/** A cell as the CSV and the result table show it: timestamps as yyyy-MM-dd HH:mm:ss. */
export function cellText(value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString().slice(0, 19).replace('T', ' ');
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  const text = String(value);
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/.test(text) ? text.slice(0, 19).replace('T', ' ') : text;
}
