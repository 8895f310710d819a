import { describe, expect, it } from 'vitest';
import { checkSelectSql, SqlGuardError } from './sql-guard.ts';
import type { GuardDialect } from './sql-lexer.ts';

const DIALECTS: GuardDialect[] = ['duckdb', 'postgres', 'mysql', 'clickhouse'];

/** The guard's message for `sql`, or null when it passes. */
function refusal(sql: string, dialect: GuardDialect = 'duckdb'): string | null {
  try {
    checkSelectSql(sql, dialect);
    return null;
  } catch (error) {
    if (error instanceof SqlGuardError) return error.message;
    throw error;
  }
}

describe('SQL view guard', () => {
  it.each(DIALECTS)('accepts plain SELECTs, WITH, unions and parenthesised queries on %s', (dialect) => {
    for (const sql of [
      'select 1',
      'SELECT a, b FROM t WHERE a > 1 ORDER BY b LIMIT 10',
      'with x as (select 1 as n) select n from x',
      'WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT * FROM r',
      '(select 1) union all (select 2)',
      'select count(*) from orders o join users u on o.user_id = u.id group by u.province having count(*) > 1',
      'select 1;',
      'select 1 ;  ;\n-- trailing comment',
      '  /* leading comment */ select 1',
      'select 省份, sum(金额) as 合计 from 订单 group by 省份',
    ]) {
      expect(refusal(sql, dialect), sql).toBeNull();
    }
  });

  it('returns the statement without the trailing semicolon and trailing comments', () => {
    expect(checkSelectSql('  select 1 ; -- done', 'duckdb')).toBe('select 1');
    expect(checkSelectSql('select a -- note\nfrom t;', 'postgres')).toBe('select a -- note\nfrom t');
  });

  it('asks for a statement when there is none', () => {
    for (const sql of ['', '   ', '-- only a comment', ';', '/* x */ ;']) expect(refusal(sql)).toBe('请编辑sql语句');
  });

  it.each(DIALECTS)('refuses two statements on %s, with the position of the semicolon', (dialect) => {
    expect(refusal('select 1; select 2', dialect)).toBe('只能包含一条SQL语句（第 9 个字符处有分号）');
    expect(refusal('select 1; drop table t', dialect)).toMatch(/^只能包含一条SQL语句/);
    try {
      checkSelectSql('select 1;\nselect 2', dialect);
    } catch (error) {
      expect((error as SqlGuardError).position).toBe(9);
    }
  });

  it('refuses statements that are not queries', () => {
    for (const sql of [
      'drop table t',
      'insert into t values (1)',
      'update t set a = 1',
      'delete from t',
      'create table x as select 1',
      'alter table t add column c int',
      'truncate t',
      'attach database "x.db" as x',
      "copy t to '/tmp/x.csv'",
      'pragma database_list',
      'install httpfs',
      'load httpfs',
      "set memory_limit = '1GB'",
      'explain analyze select 1',
      'from t',
      'values (1)',
      'call pg_sleep(1)',
      'describe t',
    ]) {
      expect(refusal(sql), sql).toMatch(/^(只支持 SELECT 查询语句|不允许使用 )/);
    }
    expect(refusal('drop table t')).toBe('只支持 SELECT 查询语句');
  });

  it('refuses DDL, DML and session keywords inside a query', () => {
    expect(refusal('with d as (delete from t returning *) select * from d', 'postgres')).toBe('不允许使用 DELETE：SQL视图只能查询数据');
    expect(refusal('with i as (insert into t values (1) returning *) select * from i', 'postgres')).toBe('不允许使用 INSERT：SQL视图只能查询数据');
    expect(refusal('select * into new_table from t', 'postgres')).toBe('不允许使用 INTO：SQL视图只能查询数据');
    expect(refusal("select * from t into outfile '/tmp/x'", 'mysql')).toBe('不允许使用 INTO：SQL视图只能查询数据');
    expect(refusal('select * from t for update', 'postgres')).toBe('不允许使用 UPDATE：SQL视图只能查询数据');
    expect(refusal('select (select 1 from t where x in (update t set a = 1)) ', 'postgres')).toMatch(/UPDATE/);
  });

  it('allows those words inside strings, quoted names, comments and as qualified names', () => {
    for (const [sql, dialect] of [
      ["select 'drop table t; delete from x' as note", 'duckdb'],
      ["select 'it''s; fine' as s", 'postgres'],
      ['select "delete", "update" from t', 'postgres'],
      ['select `delete`, `set` from t', 'mysql'],
      ['select a -- ; drop table t\nfrom t', 'duckdb'],
      ['select /* ; delete from t; */ a from t', 'clickhouse'],
      ['select t.set, t.load from t', 'duckdb'],
      ['select $$; drop table t$$ as s', 'postgres'],
      ["select e'\\'; drop table t' as s", 'duckdb'],
      ["select 'a\\'; drop table t; -- ' as s", 'mysql'],
      ['select cast(name as char character set utf8mb4) from t', 'mysql'],
      ["select replace(name, 'a', 'b') from t", 'duckdb'],
      ["select * from t where url like '%.csv'", 'duckdb'],
    ] as [string, GuardDialect][]) {
      expect(refusal(sql, dialect), `${dialect}: ${sql}`).toBeNull();
    }
  });

  it('sees through comments and strings that would hide a second statement on another engine', () => {
    // Backslash is no escape in standard strings: the string ends after a\ and a second statement follows.
    expect(refusal("select 'a\\'; drop table t; -- ' as s", 'postgres')).toMatch(/^只能包含一条SQL语句/);
    // MySQL runs the text of /*! … */ comments.
    expect(refusal('select 1 /*! ; drop table t */', 'mysql')).toBe('不支持嵌套注释或可执行注释（/*! */）');
    // Nested comments end at different places on different engines.
    expect(refusal('select 1 /* /* */ ; drop table t; /* */ */')).toBe('不支持嵌套注释或可执行注释（/*! */）');
    // A comment line that hides nothing still leaves the next line's statement visible.
    expect(refusal('select 1 -- comment\n; drop table t')).toMatch(/^只能包含一条SQL语句/);
    // MySQL's -- needs a space: --1 is minus minus one, so the rest of the line is code.
    expect(refusal('select 1 --1; drop table t', 'mysql')).toMatch(/^只能包含一条SQL语句/);
    expect(refusal('select 1 # ; drop table t', 'mysql')).toBeNull();
    expect(refusal('select 1 # ; drop table t', 'postgres')).toMatch(/^只能包含一条SQL语句/);
  });

  it('refuses unterminated strings, names and comments', () => {
    expect(refusal("select 'abc")).toBe('SQL语句中的字符串没有结束');
    expect(refusal('select "abc')).toBe('SQL语句中的带引号的名称没有结束');
    expect(refusal('select 1 /* abc')).toBe('SQL语句中的注释没有结束');
    expect(refusal('select $$abc', 'postgres')).toBe('SQL语句中的字符串没有结束');
  });

  it('refuses functions that read files, other databases, SQL text or settings', () => {
    for (const [sql, name] of [
      ["select * from read_csv('/etc/passwd')", 'read_csv'],
      ["select * from read_csv_auto('x.csv')", 'read_csv_auto'],
      ["select * from READ_PARQUET('x.parquet')", 'READ_PARQUET'],
      ["select * from read_json('x.json')", 'read_json'],
      ["select * from read_text('/etc/hosts')", 'read_text'],
      ["select * from read_blob('/etc/hosts')", 'read_blob'],
      ["select * from glob('/*')", 'glob'],
      ["select * from sqlite_scan('x.db', 't')", 'sqlite_scan'],
      ["select * from postgres_scan('dbname=x', 'public', 't')", 'postgres_scan'],
      ["select * from main.read_csv('x.csv')", 'read_csv'],
      ['select * from "read_csv"(\'x.csv\')', 'read_csv'],
      ["select * from query('select 1')", 'query'],
      ["select getenv('HOME')", 'getenv'],
      ["select current_setting('s3_secret_access_key')", 'current_setting'],
      ['select * from duckdb_settings()', 'duckdb_settings'],
      ["select * from pragma_table_info('t')", 'pragma_table_info'],
      ["select pg_read_file('/etc/passwd')", 'pg_read_file'],
      ["select * from pg_catalog.pg_ls_dir('.')", 'pg_ls_dir'],
      ["select query_to_xml('delete from t', true, false, '')", 'query_to_xml'],
      ["select nextval('s')", 'nextval'],
      ["select * from dblink('host=x', 'select 1') as t(a int)", 'dblink'],
      ["select load_file('/etc/passwd')", 'load_file'],
      ["select * from file('/etc/passwd', 'CSV', 'a String')", 'file'],
      ["select * from url('http://x', CSV, 'a String')", 'url'],
      ["select * from remote('host', db, t)", 'remote'],
    ]) {
      expect(refusal(sql!), sql).toBe(`不允许调用 ${name}：SQL视图不能读取服务器文件、外部数据或系统设置`);
    }
  });

  it('allows ordinary functions and columns whose names look like those functions', () => {
    for (const sql of [
      'select lower(name), upper(name), log(10), round(x, 2) from t',
      'select url, file, query from t',
      "select date_trunc('month', created_at), count(distinct user_id) from t group by 1",
      'select coalesce(a, b) from t',
    ]) {
      expect(refusal(sql), sql).toBeNull();
    }
  });

  it('refuses a file or URL named where a table goes (DuckDB reads it)', () => {
    expect(refusal("select * from '/etc/passwd'")).toBe("不允许直接读取文件 '/etc/passwd'");
    expect(refusal('select * from "data.csv"')).toBe('不允许直接读取文件 "data.csv"');
    expect(refusal("select * from t join 's3://bucket/x.parquet' using (id)")).toMatch(/^不允许直接读取文件/);
    expect(refusal("select * from t, 'x.csv'")).toMatch(/^不允许直接读取文件/);
    expect(refusal("select * from (from 'x.csv')")).toMatch(/^不允许直接读取文件/);
    // Commas outside FROM lists and ordinary quoted table names are fine.
    expect(refusal('select a, \'x.csv\' as f from "订单" o, "main"."t" where o.id in (1, 2)')).toBeNull();
  });
});
