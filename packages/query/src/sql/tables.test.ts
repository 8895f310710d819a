import { describe, expect, it } from 'vitest';
import { SqlGuardError } from './guard.ts';
import type { GuardDialect } from './lexer.ts';
import { referencedTables } from './tables.ts';

const DIALECTS: GuardDialect[] = ['duckdb', 'postgres', 'mysql', 'clickhouse'];

/** The tables as `schema.name`, quoted ones marked `q:`. */
function tables(sql: string, dialect: GuardDialect = 'postgres'): string[] {
  return referencedTables(sql, dialect).map((r) => `${r.quoted ? 'q:' : ''}${r.schema === null ? '' : `${r.schema}.`}${r.name}`);
}

/** The refusal's message and 1-based position, or null when the tables were listed. */
function refusal(sql: string, dialect: GuardDialect = 'postgres'): { message: string; position: number } | null {
  try {
    referencedTables(sql, dialect);
    return null;
  } catch (error) {
    if (error instanceof SqlGuardError) return { message: error.message, position: error.position };
    throw error;
  }
}

const UNRECOGNISED = '无法识别的数据表写法，请改写为普通的 FROM / JOIN';

describe('referencedTables: table positions', () => {
  it.each(DIALECTS)('reads a simple FROM, keeping the name as written, on %s', (dialect) => {
    expect(tables('select * from orders', dialect)).toEqual(['orders']);
    expect(tables('SELECT a, b FROM Orders WHERE a > 1 ORDER BY b LIMIT 10', dialect)).toEqual(['Orders']);
    expect(tables('select 1', dialect)).toEqual([]);
    expect(tables('select 省份, sum(金额) from 订单 group by 省份;', dialect)).toEqual(['订单']);
  });

  it('reads schema-qualified names into schema and name', () => {
    expect(referencedTables('select * from sales.orders o', 'postgres')).toEqual([{ schema: 'sales', name: 'orders', quoted: false, start: 14 }]);
    expect(tables('select * from db.events', 'clickhouse')).toEqual(['db.events']);
  });

  it("reads quoted names with each dialect's quote, unquoted", () => {
    const expected = [{ schema: 'Sales', name: 'Order Items', quoted: true, start: 14 }];
    expect(referencedTables('select * from "Sales"."Order Items"', 'postgres')).toEqual(expected);
    expect(referencedTables('select * from "Sales"."Order Items"', 'duckdb')).toEqual(expected);
    expect(referencedTables('select * from `Sales`.`Order Items`', 'mysql')).toEqual(expected);
    expect(referencedTables('select * from `Sales`.`Order Items`', 'clickhouse')).toEqual(expected);
    expect(tables('select * from "a""b"', 'postgres')).toEqual(['q:a"b']);
    // MySQL's "…" is a string: a file name where a table goes
    expect(refusal('select * from "orders"', 'mysql')?.message).toBe('不允许直接读取文件 "orders"');
  });

  it('marks a mixed quoted/unquoted name quoted only when that compares right', () => {
    expect(tables('select * from public."Orders"', 'postgres')).toEqual(['q:public.Orders']);
    expect(tables('select * from "Sales".orders', 'postgres')).toEqual(['q:Sales.orders']);
    expect(refusal('select * from Public."Orders"', 'postgres')).toEqual({ message: '库名和表名请都加引号或都不加引号：Public."Orders"', position: 15 });
    expect(tables('select * from `db`.Orders', 'mysql')).toEqual(['q:db.Orders']);
  });

  it('reads comma lists with aliases and column aliases', () => {
    expect(tables('select * from a x, b as y, c as z(c1, c2), d where x.id = y.id')).toEqual(['a', 'b', 'c', 'd']);
    expect(tables('select a, b, c from t1, t2 group by a, b order by c, a limit 5, 10', 'mysql')).toEqual(['t1', 't2']);
  });

  it.each([
    ['postgres', ['JOIN', 'INNER JOIN', 'LEFT JOIN', 'LEFT OUTER JOIN', 'RIGHT JOIN', 'RIGHT OUTER JOIN', 'FULL JOIN', 'FULL OUTER JOIN']],
    ['mysql', ['JOIN', 'INNER JOIN', 'LEFT JOIN', 'RIGHT OUTER JOIN', 'STRAIGHT_JOIN']],
    ['duckdb', ['JOIN', 'LEFT JOIN', 'SEMI JOIN', 'ANTI JOIN', 'ASOF JOIN', 'ASOF LEFT JOIN']],
    ['clickhouse', ['JOIN', 'ANY LEFT JOIN', 'ALL INNER JOIN', 'GLOBAL JOIN', 'GLOBAL ANY RIGHT JOIN', 'ASOF JOIN', 'LEFT SEMI JOIN', 'RIGHT ANTI JOIN']],
  ] as [GuardDialect, string[]][])('reads every join kind with ON on %s', (dialect, joins) => {
    for (const join of joins) {
      expect(tables(`select * from a ${join} b on a.id = b.id`, dialect), join).toEqual(['a', 'b']);
    }
  });

  it('reads joins without a condition, with USING, and tables after ON in the FROM list', () => {
    expect(tables('select * from a cross join b natural join c natural left join d')).toEqual(['a', 'b', 'c', 'd']);
    expect(tables('select * from a positional join b', 'duckdb')).toEqual(['a', 'b']);
    expect(tables('select * from a paste join b', 'clickhouse')).toEqual(['a', 'b']);
    expect(tables('select * from a join b using (id) left join c using (id, day)')).toEqual(['a', 'b', 'c']);
    expect(tables('select * from a join b using id', 'clickhouse')).toEqual(['a', 'b']);
    expect(tables('select * from a join b on a.id = b.id and b.k in (1, 2), c, d join e on (d.x = e.x)')).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it("tells MySQL's STRAIGHT_JOIN join from the SELECT modifier", () => {
    expect(tables('select straight_join x, y from a straight_join b on a.id = b.id', 'mysql')).toEqual(['a', 'b']);
    expect(tables('select * from a join b on a.x = b.x straight_join c', 'mysql')).toEqual(['a', 'b', 'c']);
  });

  it('does not take table modifiers, aliases or hints for tables', () => {
    expect(tables('select * from t final sample 0.1 offset 0.5 as x prewhere a = 1 where b = 2', 'clickhouse')).toEqual(['t']);
    expect(tables('select * from t sample 1/10 offset 1/2, u', 'clickhouse')).toEqual(['t', 'u']);
    expect(tables('select * from t tablesample bernoulli (10) repeatable (1) as x, u')).toEqual(['t', 'u']);
    expect(tables('select * from t using sample 10%, u', 'duckdb')).toEqual(['t', 'u']);
    expect(tables('select * from t use index (i1, i2) force index for join (i3), u', 'mysql')).toEqual(['t', 'u']);
    expect(tables('select * from t ignore index for order by (i4) join u on t.id = u.id, v', 'mysql')).toEqual(['t', 'u', 'v']);
    expect(tables('select * from t as where, u', 'clickhouse')).toEqual(['t', 'u']);
    expect(tables('select * from t partition (p0, p1), u', 'mysql')).toEqual(['t', 'u']);
  });

  it('skips LATERAL and ONLY, and MySQL DUAL', () => {
    expect(tables('select * from only a, lateral (select * from b where b.id = a.id) l cross join lateral (select 1 from c) m')).toEqual(['a', 'b', 'c']);
    expect(tables('select * from a join lateral (select * from b) x on true', 'mysql')).toEqual(['a', 'b']);
    expect(tables('select 1 from dual', 'mysql')).toEqual([]);
    expect(tables('select 1 from dual', 'postgres')).toEqual(['dual']);
  });
});

describe('referencedTables: subqueries and set operations', () => {
  it('scans subqueries in FROM', () => {
    expect(tables('select * from (select * from a) x join (select * from b join c on b.id = c.id) y on x.id = y.id')).toEqual(['a', 'b', 'c']);
    expect(tables('select * from ((select * from a)) x, (values (1), (2)) v(n), b')).toEqual(['a', 'b']);
    expect(tables('select * from (select * from a union all select * from b) u')).toEqual(['a', 'b']);
  });

  it('scans subqueries in WHERE, HAVING and the SELECT list', () => {
    expect(
      tables(
        'select (select max(x) from b), array(select y from c) from a where a.id in (select id from d) and exists (select 1 from e where e.k = a.k) group by 1 having count(*) > (select 1 from f)',
      ),
    ).toEqual(['b', 'c', 'a', 'd', 'e', 'f']);
    expect(tables('select * from a where (x, y) in ((select 1, 2 from b)) and z = any (select z from c)')).toEqual(['a', 'b', 'c']);
  });

  it('reads every side of UNION, INTERSECT and EXCEPT', () => {
    expect(tables('select a from t1 union all select a from t2 intersect select a from t3 except select a from t4')).toEqual(['t1', 't2', 't3', 't4']);
    expect(tables('(select a from t1) union (select a from t2 order by a limit 1)')).toEqual(['t1', 't2']);
    expect(tables('select * except (x) from t1 union distinct select * from t2', 'clickhouse')).toEqual(['t1', 't2']);
  });

  it('reads TABLE t and DuckDB FROM-first subqueries', () => {
    expect(tables('select * from a where x in (table secret) union table other')).toEqual(['a', 'secret', 'other']);
    expect(tables('select * from (from secret) s where x in (from other select x)', 'duckdb')).toEqual(['secret', 'other']);
    expect(tables('select table, database from system.tables', 'clickhouse')).toEqual(['system.tables']);
  });
});

describe('referencedTables: CTEs', () => {
  it('does not report a CTE, but reports the tables it reads', () => {
    expect(tables('with x as (select * from orders) select * from x')).toEqual(['orders']);
    expect(tables('with a as (select * from t1), b as (select * from a join t2 on a.id = t2.id) select * from b, a')).toEqual(['t1', 't2']);
    expect(tables('with a (x, y) as materialized (select 1, 2), b as not materialized (select 3) select * from a, b')).toEqual([]);
    expect(tables('with a as (select 1) select * from (select * from a) s where s.x in (select x from a)')).toEqual([]);
    expect(tables('with a as (select 1) select * from a union all select * from a')).toEqual([]);
  });

  it('keeps a CTE to its own group', () => {
    expect(tables('SELECT * FROM (WITH secret AS (SELECT 1) SELECT * FROM secret) x, secret')).toEqual(['secret']);
    expect(referencedTables('SELECT * FROM (WITH secret AS (SELECT 1) SELECT * FROM secret) x, secret', 'duckdb')[0]!.start).toBe(66);
    expect(tables('with a as (with inner_cte as (select 1) select * from inner_cte) select * from a, inner_cte')).toEqual(['inner_cte']);
    expect(tables('select * from t where x in (with t2 as (select 1) select * from t2) and y in (select * from t2)')).toEqual(['t', 't2']);
    expect(tables('(with a as (select 1) select * from a) union all select * from a')).toEqual(['a']);
  });

  it('reports a self- or forward reference, and qualified names', () => {
    expect(referencedTables('with t as (select * from t) select * from t', 'postgres')).toEqual([{ schema: null, name: 't', quoted: false, start: 25 }]);
    expect(tables('with a as (select * from b), b as (select 1) select * from a, b')).toEqual(['b']);
    expect(tables('with a as (select 1) select * from public.a')).toEqual(['public.a']);
  });

  it('sees a RECURSIVE CTE in its own body', () => {
    expect(tables('with recursive r(n) as (select 1 union all select n + 1 from r where n < 5) select * from r')).toEqual([]);
    expect(
      tables(
        'WITH RECURSIVE tree AS (SELECT * FROM nodes WHERE parent IS NULL UNION ALL SELECT n.* FROM nodes n JOIN tree ON n.parent = tree.id) SELECT * FROM tree',
        'mysql',
      ),
    ).toEqual(['nodes']);
  });

  it('matches CTE names only as the engine surely does', () => {
    expect(tables('with Foo as (select 1) select * from FOO', 'postgres')).toEqual([]);
    expect(tables('with "X" as (select 1) select * from x', 'postgres')).toEqual(['x']);
    expect(tables('with foo as (select 1) select * from FOO', 'clickhouse')).toEqual(['FOO']);
    expect(tables('with `foo` as (select 1) select * from `foo`', 'mysql')).toEqual([]);
  });

  it('ends a ClickHouse CTE at a set operation: its WITH belongs to the first SELECT', () => {
    expect(tables('with a as (select 1) select * from a union all select * from a', 'clickhouse')).toEqual(['a']);
    expect(tables('WITH 1 AS n, now() AS t SELECT n FROM events WITH TOTALS', 'clickhouse')).toEqual(['events']);
  });
});

describe('referencedTables: FROM that is not a table FROM', () => {
  it.each(DIALECTS)('skips EXTRACT, SUBSTRING, TRIM, POSITION on %s', (dialect) => {
    const sql = "select extract(year from d), substring(s from 1 for 2), trim(both 'x' from s), trim(leading from s), position('a' in s) from t";
    expect(tables(sql, dialect)).toEqual(['t']);
  });

  it('skips IS DISTINCT FROM, TRIM(FROM s) and ClickHouse WITH FILL FROM', () => {
    expect(tables('select * from t where a is distinct from b and c is not distinct from d')).toEqual(['t']);
    expect(tables('select trim(from s) from t')).toEqual(['t']);
    expect(tables('select d from t order by d with fill from 1 to 10 step 1', 'clickhouse')).toEqual(['t']);
  });
});

describe('referencedTables: refusals', () => {
  it('refuses table functions', () => {
    expect(refusal('select * from generate_series(1, 10) g')).toEqual({ message: '不允许在 FROM 中调用函数 generate_series', position: 15 });
    expect(refusal('select * from t, lateral unnest(t.arr) u')?.message).toBe('不允许在 FROM 中调用函数 unnest');
    expect(refusal("select * from a join pg_catalog.pg_ls_dir('.') d on true")?.message).toBe('不允许在 FROM 中调用函数 pg_catalog.pg_ls_dir');
    expect(refusal('select * from numbers(10)', 'clickhouse')?.message).toBe('不允许在 FROM 中调用函数 numbers');
    expect(refusal('select * from range(10)', 'duckdb')?.message).toBe('不允许在 FROM 中调用函数 range');
    expect(refusal('select * from `json_table`(x)', 'mysql')?.message).toBe('不允许在 FROM 中调用函数 `json_table`');
    expect(refusal('select * from rows from (generate_series(1, 2))')?.message).toBe(UNRECOGNISED);
  });

  it('refuses parenthesised joins and other groups in a table position', () => {
    expect(refusal('select * from (a join b on a.id = b.id)')).toEqual({ message: UNRECOGNISED, position: 15 });
    expect(refusal('select * from a join (b join c on b.id = c.id) on a.id = b.id')?.message).toBe(UNRECOGNISED);
    expect(refusal('select * from a, (b)', 'mysql')?.message).toBe(UNRECOGNISED);
    expect(refusal('select * from only (a)')?.message).toBe(UNRECOGNISED);
    expect(refusal('select * from {oj a left outer join b on a.id = b.id}', 'mysql')?.message).toBe(UNRECOGNISED);
    expect(refusal('select * from {db:Identifier}.t', 'clickhouse')?.message).toBe(UNRECOGNISED);
    expect(refusal('select * from $1')?.message).toBe(UNRECOGNISED);
    expect(refusal('select * from', 'duckdb')?.message).toBe(UNRECOGNISED);
  });

  it('refuses names of three or more parts', () => {
    expect(refusal('select * from db.sch.t')).toEqual({ message: '数据表名最多写成“库名.表名”两段：db.sch.t', position: 15 });
    expect(refusal('select * from a join "x".y.z on true', 'duckdb')?.message).toBe('数据表名最多写成“库名.表名”两段："x".y.z');
    expect(refusal('select * from a.')?.message).toBe(UNRECOGNISED);
  });

  it('refuses ClickHouse ARRAY JOIN', () => {
    const message = '不支持 ARRAY JOIN（无法核对数据表权限），请改用 arrayJoin() 函数';
    expect(refusal('select * from t array join arr', 'clickhouse')).toEqual({ message, position: 23 });
    expect(refusal('select * from t left array join arr as a', 'clickhouse')?.message).toBe(message);
  });

  it('refuses files, non-SELECT subqueries and keywords where a table goes', () => {
    expect(refusal("select * from 'data.csv'", 'duckdb')?.message).toBe("不允许直接读取文件 'data.csv'");
    expect(refusal('select * from (summarize secret)', 'duckdb')?.message).toBe('子查询中不支持 summarize');
    expect(refusal('select * from t where x in (describe secret)', 'duckdb')?.message).toBe('子查询中不支持 describe');
    expect(refusal('select * from t where x in (pivot secret on k using sum(v))', 'duckdb')?.message).toBe('子查询中不支持 pivot');
    // a column named join in ClickHouse: read past, it would hide the FROM that follows
    expect(refusal('select join from secret', 'clickhouse')?.message).toBe(UNRECOGNISED);
  });

  it('refuses functions that read a table named in their arguments', () => {
    expect(refusal("select table_to_xml('secret', true, false, '')")?.message).toBe('不允许调用 table_to_xml：它读取的数据表无法核对权限');
    expect(refusal("select ts_stat('select v from secret')")?.message).toBe('不允许调用 ts_stat：它读取的数据表无法核对权限');
    expect(refusal("select dictGet('dict', 'v', 1), joinGet('j', 'v', 1)", 'clickhouse')?.message).toBe('不允许调用 dictGet：它读取的数据表无法核对权限');
    expect(refusal("select count() from merge('db', '^secret')", 'clickhouse')?.message).toBe('不允许在 FROM 中调用函数 merge');
    expect(refusal("select 1 in (merge('db', '^secret'))", 'clickhouse')?.message).toBe('不允许调用 merge：它读取的数据表无法核对权限');
  });

  it('refuses text it cannot tokenize or match, and a second statement', () => {
    expect(refusal("select * from t where a = 'x")?.message).toBe('无法解析SQL语句');
    expect(refusal('select * from (select 1 x')?.message).toBe('SQL语句中的括号不配对');
    expect(refusal('select (1]')?.message).toBe('SQL语句中的括号不配对');
    expect(refusal('select 1; select * from secret')?.message).toBe('只能包含一条SQL语句（第 9 个字符处有分号）');
    expect(refusal('select * from t ; ;')).toBeNull();
  });
});

describe('referencedTables: ClickHouse IN', () => {
  it('reads a table named as the right side of IN', () => {
    expect(tables('select * from t where x in secret and y global not in (db.s2) and z not in ((s3))', 'clickhouse')).toEqual(['t', 'secret', 'db.s2', 's3']);
    expect(tables('select in(x, secret) from t', 'clickhouse')).toEqual(['x', 'secret', 't']);
    expect(refusal('select * from t where x in numbers(10)', 'clickhouse')).toEqual({ message: '不允许在 IN 后调用函数 numbers', position: 28 });
  });

  it('does not take constants, subqueries or POSITION for tables', () => {
    expect(
      tables("select * from t where x in (1, 2) and y in ('a') and z in (null) and w in (select w from u) and position(a in b) > 0", 'clickhouse'),
    ).toEqual(['t', 'u']);
    expect(tables('select * from t where x in (a, b)', 'postgres')).toEqual(['t']);
    expect(tables("select * from t where (table in ('a', 'b')) and x in (1) settings max_threads = 1, use_index = 0", 'clickhouse')).toEqual(['t']);
    expect(tables('select * from t where (table in secret)', 'clickhouse')).toEqual(['t', 'secret']);
  });
});

describe('referencedTables: result', () => {
  it('removes duplicates, keeping the first occurrence, and tells quoted from unquoted', () => {
    expect(referencedTables('select * from a join b on a.id = b.id, a x, s.b where b.id in (select id from a)', 'postgres')).toEqual([
      { schema: null, name: 'a', quoted: false, start: 14 },
      { schema: null, name: 'b', quoted: false, start: 21 },
      { schema: 's', name: 'b', quoted: false, start: 44 },
    ]);
    // PostgreSQL reads "T" and T as two tables
    expect(tables('select * from "T", T, t')).toEqual(['q:T', 'T', 't']);
  });

  it('gives the offset of the first part of a qualified name', () => {
    expect(referencedTables('select *\nfrom  "s" . "t" join\n  u on true', 'duckdb')).toEqual([
      { schema: 's', name: 't', quoted: true, start: 15 },
      { schema: null, name: 'u', quoted: false, start: 32 },
    ]);
  });
});
