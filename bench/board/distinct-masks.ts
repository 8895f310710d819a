/**
 * Probe for the next step of the 10M board with exact distinct counts (issue 26): its three
 * COUNT(DISTINCT phone) charts (all orders; by product, with the sum of the amount; by product
 * type) as DuckDB runs them today — three statements, each a hash table of (dimension, phone)
 * pairs — against one statement that groups by the phone only and keeps, per phone, a 64-bit mask
 * of the products and one of the types it bought (a dictionary of each dimension's values read
 * from the board's GROUPING SETS result), then counts each bit through the masks' bytes.
 * Both answers are compared before any time is printed.
 *
 *   npx tsx bench/board/distinct-masks.ts --orders 10000000 --dir /tmp/b10m --runs 3
 *
 * The demo warehouse (default seed) is generated in DIR/warehouse.duckdb when missing; DuckDB
 * opens it read-only with the server's memory limit and its default threads.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { ensureDemoWarehouse } from '@shutu/connectors';

const { values } = parseArgs({
  options: {
    orders: { type: 'string', default: '10000000' },
    dir: { type: 'string', default: '/tmp/shutu-distinct-masks' },
    runs: { type: 'string', default: '3' },
  },
});
fs.mkdirSync(values.dir, { recursive: true });
const file = path.join(values.dir, 'warehouse.duckdb');
await ensureDemoWarehouse(file, { scale: Number(values.orders) });
const instance = await DuckDBInstance.create(file, { memory_limit: '1GB', access_mode: 'READ_ONLY' });
const connection = await instance.connect();
const rowsOf = async (sql: string) => (await connection.runAndReadAll(sql)).getRowsJson() as unknown[][];

const EXACT = {
  total: 'SELECT COUNT(DISTINCT "phone") FROM "orders"',
  byProduct: 'SELECT "shortname", SUM("amount"), COUNT(DISTINCT "phone") FROM "orders" GROUP BY 1',
  byType: 'SELECT "type_l2_name", COUNT(DISTINCT "phone") FROM "orders" GROUP BY 1',
};

/** Per phone a mask of each dimension's values (v0: products, v1: types); each bit counted through the masks' bytes. */
const bytesOf = (dims: number[]) => {
  const keys = dims.flatMap((d) => Array.from({ length: 8 }, (_, j) => d * 8 + j));
  const items = dims.flatMap((d) => Array.from({ length: 8 }, (_, j) => `CAST(("m${d}" >> ${8 * j}) & 255 AS INTEGER)`));
  return `SELECT unnest([${keys.join(', ')}]) AS "p", unnest([${items.join(', ')}]) AS "y" FROM "m"`;
};
// Each value's bit worked out in the dictionary as a UBIGINT, as grouped-distinct.ts does: a shift
// per row of UBIGINT by the INTEGER number runs in HUGEINT (1.7× the whole statement's time).
const dictionary = (d: number) =>
  `"v${d}" AS (SELECT "k", "b", CAST(1 AS UBIGINT) << CAST("b" AS UBIGINT) AS "bit" FROM (SELECT "k", CAST(ROW_NUMBER() OVER (ORDER BY "k") - 1 AS INTEGER) AS "b" FROM (SELECT DISTINCT "g${d}" AS "k" FROM "g" WHERE "s${d}" IS NOT NULL) AS "t") AS "e")`;
const MASKS = `WITH "g" AS MATERIALIZED (SELECT "shortname" AS "g0", "type_l2_name" AS "g1", SUM("amount") AS "a0", 1 AS "s0", 1 AS "s1", 1 AS "s2" FROM "orders" GROUP BY GROUPING SETS (("g0", "s0"), ("g1", "s1"), ("s2"))),
  "r" AS NOT MATERIALIZED (SELECT "phone" AS "x", "shortname" AS "k0", "type_l2_name" AS "k1" FROM "orders"),
  ${dictionary(0)}, ${dictionary(1)},
  "m" AS MATERIALIZED (SELECT BIT_OR("v0"."bit") AS "m0", BIT_OR("v1"."bit") AS "m1"
    FROM "r" JOIN "v0" ON "r"."k0" IS NOT DISTINCT FROM "v0"."k" JOIN "v1" ON "r"."k1" IS NOT DISTINCT FROM "v1"."k" WHERE "r"."x" IS NOT NULL GROUP BY "r"."x"),
  "y" AS (SELECT "p", "y", COUNT(*) AS "n" FROM (${bytesOf([0, 1])}) AS "u" WHERE "y" <> 0 GROUP BY 1, 2),
  "c" AS (SELECT "p" // 8 AS "d", 8 * ("p" % 8) + "i" AS "b", SUM("n") AS "n" FROM "y", range(8) AS "z"("i") WHERE ("y" >> "i") & 1 = 1 GROUP BY 1, 2)
SELECT 0 AS "q", "g"."g0" AS "k", "g"."a0" AS "sum", "c"."n" AS "n" FROM "g" JOIN "v0" ON "g"."g0" IS NOT DISTINCT FROM "v0"."k" JOIN "c" ON "c"."d" = 0 AND "c"."b" = "v0"."b" WHERE "g"."s0" IS NOT NULL
UNION ALL SELECT 1, "g"."g1", NULL, "c"."n" FROM "g" JOIN "v1" ON "g"."g1" IS NOT DISTINCT FROM "v1"."k" JOIN "c" ON "c"."d" = 1 AND "c"."b" = "v1"."b" WHERE "g"."s1" IS NOT NULL
UNION ALL SELECT 2, NULL, NULL, COUNT(*) FROM "m"`;

const same = (a: unknown[][], b: unknown[][]) =>
  JSON.stringify(a.map((r) => JSON.stringify(r)).sort()) === JSON.stringify(b.map((r) => JSON.stringify(r)).sort());
const masked = await rowsOf(MASKS);
const exact = { total: await rowsOf(EXACT.total), byProduct: await rowsOf(EXACT.byProduct), byType: await rowsOf(EXACT.byType) };
const part = (q: number, pick: (r: unknown[]) => unknown[]) => masked.filter((r) => r[0] === q).map(pick);
if (
  !same(
    part(0, (r) => [r[1], r[2], r[3]]),
    exact.byProduct,
  ) ||
  !same(
    part(1, (r) => [r[1], r[3]]),
    exact.byType,
  ) ||
  !same(
    part(2, (r) => [r[3]]),
    exact.total,
  )
) {
  throw new Error('the masks statement answers differently from the three COUNT(DISTINCT) statements');
}
console.log(`${Number(values.orders).toLocaleString('en')} orders: answers equal (${exact.byProduct.length} products, ${exact.byType.length} types)`);

const millis = async (sql: string) => {
  const started = performance.now();
  await connection.runAndReadAll(sql);
  return performance.now() - started;
};
for (let run = 0; run < Number(values.runs); run++) {
  const three = (await millis(EXACT.total)) + (await millis(EXACT.byProduct)) + (await millis(EXACT.byType));
  const one = await millis(MASKS);
  console.log(
    `run ${run + 1}: three COUNT(DISTINCT) statements ${three.toFixed(0)} ms; one masks statement (with the sums' GROUPING SETS) ${one.toFixed(0)} ms; ratio ${(one / three).toFixed(2)}`,
  );
}
connection.closeSync();
instance.closeSync();
