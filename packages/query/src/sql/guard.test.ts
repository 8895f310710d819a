import { describe, expect, it } from 'vitest';
import type { SqlInspection } from './inspection.ts';
import { ALLOWED_TABLE_FUNCTIONS, checkInspection, checkSelectSql, SqlGuardError } from './guard.ts';
import { tokenize, type GuardDialect } from './lexer.ts';

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

describe('SQL view guard: payloads that reached the engine (issue 14)', () => {
  const SETTINGS = '不允许读取 {name}：SQL视图不能读取服务器文件、外部数据或系统设置';
  const table = (name: string) => SETTINGS.replace('{name}', name);
  const fn = (name: string) => `不允许调用 ${name}：SQL视图不能读取服务器文件、外部数据或系统设置`;

  it.each(DIALECTS)('refuses a file named as the source of PIVOT, UNPIVOT, SUMMARIZE or DESCRIBE on %s', (dialect) => {
    expect(refusal("SELECT * FROM (PIVOT '/etc/passwd' ON column0 USING count(*))", dialect)).toBe("不允许直接读取文件 '/etc/passwd'");
    for (const sql of [
      "select * from (pivot_wider '/etc/passwd' on column0 using count(*))",
      "select * from (PIVOT_LONGER '/etc/passwd' ON COLUMNS(*) into name k value v)",
      'select * from (unpivot "data.csv" on columns(*) into name k value v)',
      "select * from (summarize '/etc/passwd')",
      "select * from (describe 'x.csv')",
      // comments between the tokens, nested subqueries and CTEs
      "with a as (select * from (select * from (pivot /* c */ '/etc/passwd' on column0 in ('x') using count(*)))) select * from a",
      "select * from -- comment\n '/etc/passwd'",
      "select * from t where id in (select id from lateral '/etc/passwd')",
    ]) {
      expect(refusal(sql, dialect), sql).toMatch(/^不允许直接读取文件 /);
    }
  });

  it.each(['duckdb', 'postgres'] as GuardDialect[])('decodes U&"…" names, with or without UESCAPE, before matching on %s', (dialect) => {
    // The probe's payload spells readtext (\\0074 is t); DuckDB's parser refuses U& altogether (sqlview.test.ts).
    expect(tokenize('SELECT * FROM U&"read\\0074ext"(\'/etc/passwd\')', dialect)[3]).toMatchObject({ kind: 'quoted', value: 'readtext' });
    expect(refusal('SELECT * FROM U&"read\\005ftext"(\'/etc/passwd\')', dialect)).toBe(fn('read_text'));
    expect(refusal("select * from u&\"read!005ftext\" UESCAPE '!' ('/etc/passwd')", dialect)).toBe(fn('read_text'));
    expect(refusal('select * from U&"READ\\+00005Ftext"(\'/etc/passwd\')', dialect)).toBe(fn('READ_text'));
    expect(refusal('select * from main.U&"\\0072ead_blob"(\'/etc/passwd\')', dialect)).toBe(fn('read_blob'));
    expect(refusal('select * from pg_catalog.U&"pg\\005fsettings"', dialect)).toBe(table('pg_settings'));
    expect(refusal('select U&"current\\005Fsetting" /* c */ (\'data_directory\')', dialect)).toBe(fn('current_setting'));
    expect(refusal("select * from U&'/etc/passwd'", dialect)).toBe("不允许直接读取文件 U&'/etc/passwd'");
    // A malformed escape or escape character is refused rather than guessed at.
    expect(refusal('select U&"\\zz" from t', dialect)).toBe('SQL语句中的 Unicode 转义（U&）无效');
    expect(refusal('select U&"a" UESCAPE \'+\' from t', dialect)).toBe('SQL语句中的 Unicode 转义（U&）无效');
    // Ordinary U& names still pass.
    expect(refusal('select U&"d\\0061ta" from t', dialect)).toBeNull();
    expect(refusal("select U&'caf\\00e9' as s", dialect)).toBeNull();
  });

  it('decodes backslash escapes in ClickHouse names (\\xHH) and keeps MySQL backticks literal', () => {
    expect(refusal("select * from `\\x66ile`('/etc/passwd', 'CSV', 'a String')", 'clickhouse')).toBe(fn('file'));
    expect(refusal('select * from "\\x72emote"(\'h\', db, t)', 'clickhouse')).toBe(fn('remote'));
    expect(refusal('select * from `sys\\x74em`.settings', 'clickhouse')).toBe(table('system.settings'));
    expect(refusal("select `load_file`('/etc/passwd')", 'mysql')).toBe(fn('load_file'));
  });

  it.each(DIALECTS)('refuses catalog views and functions that expose settings on %s', (dialect) => {
    for (const [sql, name] of [
      ['SELECT name, setting FROM pg_catalog.pg_settings', 'pg_settings'],
      ['SeLeCt * FrOm Pg_SeTtInGs', 'Pg_SeTtInGs'],
      ['select * from pg_catalog . /* c */ pg_settings', 'pg_settings'],
      ['with s as (select * from pg_settings) select * from s', 'pg_settings'],
      ["select (select setting from pg_settings where name = 'data_directory') as d", 'pg_settings'],
      ['select * from pg_file_settings', 'pg_file_settings'],
      ['select * from pg_hba_file_rules', 'pg_hba_file_rules'],
      ['select * from pg_stat_activity', 'pg_stat_activity'],
      ['select * from duckdb_databases', 'duckdb_databases'],
      ['select * from information_schema.GLOBAL_VARIABLES', 'GLOBAL_VARIABLES'],
      ['select * from system.settings', 'system.settings'],
      ['select * from mysql.user', 'mysql.user'],
      ['select * from performance_schema.global_variables', 'performance_schema.global_variables'],
      ['select * from sys.version', 'sys.version'],
    ]) {
      expect(refusal(sql!, dialect), sql).toBe(table(name!));
    }
    const quoted = dialect === 'mysql' || dialect === 'clickhouse' ? '`system`.`settings`' : '"system"."settings"';
    expect(refusal(`select * from ${quoted}`, dialect)).toBe(table('system.settings'));
    for (const [sql, name] of [
      ["select current_setting('data_directory')", 'current_setting'],
      ['select * from duckdb_settings()', 'duckdb_settings'],
      ['select * from pg_show_all_settings()', 'pg_show_all_settings'],
      ['select * from pg_catalog.pg_hba_file_rules()', 'pg_hba_file_rules'],
      ["select pg_stat_file('postgresql.conf')", 'pg_stat_file'],
      ["select * from pg_ls_dir('.')", 'pg_ls_dir'],
      ["select pg_read_file /* c */ ('/etc/passwd')", 'pg_read_file'],
      ["select getSetting('max_threads')", 'getSetting'],
      ["select * from s3('https://x/y.csv')", 's3'],
    ]) {
      expect(refusal(sql!, dialect), sql).toBe(fn(name!));
    }
    const quotedCall = dialect === 'mysql' ? 'select * from `duckdb_settings`()' : 'select * from "duckdb_settings"()';
    expect(refusal(quotedCall, dialect)).toBe(fn('duckdb_settings'));
  });

  it("refuses MySQL's @@ system variables however written", () => {
    for (const [sql, name] of [
      ['select @@datadir', '@@datadir'],
      ['select @@global.secure_file_priv as p', '@@global.secure_file_priv'],
      ['SELECT @@SESSION.basedir', '@@SESSION.basedir'],
      ['select (select @@version_compile_os) x', '@@version_compile_os'],
      ['select @@`datadir`', '@@'],
    ]) {
      expect(refusal(sql!, 'mysql'), sql).toBe(table(name!));
    }
    // User variables are the session's own; @@ is PostgreSQL's text-search match.
    expect(refusal('select @n := @n + 1 as seq from t', 'mysql')).toBeNull();
    expect(refusal("select * from docs where tsv @@ to_tsquery('x')", 'postgres')).toBeNull();
  });

  it.each(DIALECTS)('still accepts ordinary queries that use similar words on %s', (dialect) => {
    for (const sql of [
      'select setting, name, system_name from settings s',
      'select s.value from app_settings s',
      'select * from information_schema.tables',
      'select pg_settings_count from t',
    ]) {
      expect(refusal(sql, dialect), sql).toBeNull();
    }
  });
});

describe('checkInspection (the engine parser’s reading)', () => {
  const ok = (parts: Partial<Extract<SqlInspection, { ok: true }>>): SqlInspection => ({
    ok: true,
    statements: 1,
    tables: [],
    tableFunctions: [],
    functions: [],
    ...parts,
  });
  const ref = (name: string, offset: number | null = 5, schema = '', catalog = '') => ({ name, schema, catalog, offset });
  const refused = (inspection: SqlInspection, offset = 0): SqlGuardError | null => {
    try {
      checkInspection(inspection, offset);
      return null;
    } catch (error) {
      if (error instanceof SqlGuardError) return error;
      throw error;
    }
  };

  it('allows tables and the row-making table functions only', () => {
    expect(refused(ok({ tables: [ref('orders')], tableFunctions: ALLOWED_TABLE_FUNCTIONS.map((n) => ref(n)), functions: [ref('sum')] }))).toBeNull();
    const error = refused(ok({ tableFunctions: [ref('range'), ref('read_text', 14)] }), 3)!;
    expect(error.message).toBe(
      '不允许使用表函数 read_text：SQL视图只能使用 range、generate_series、unnest、json_each、json_tree、repeat、repeat_row 这几个表函数',
    );
    expect(error.position).toBe(18);
    for (const name of ['query_table', 'test_all_types', 'summarize', 'describe', 'show_ref', 'checkpoint', 'iceberg_scan', 'delta_scan', 'parquet_metadata']) {
      expect(refused(ok({ tableFunctions: [ref(name)] }))?.message, name).toMatch(new RegExp(`^不允许使用表函数 ${name}：`));
    }
    expect(refused(ok({ tableFunctions: [ref('range', 0, 'main', 'system')] }))?.message).toMatch(/^不允许使用表函数 range：/);
  });

  it('refuses file-like and settings tables, and forbidden functions, wherever the parser found them', () => {
    expect(refused(ok({ tables: [ref('/etc/passwd')] }))?.message).toBe("不允许直接读取文件 '/etc/passwd'");
    expect(refused(ok({ tables: [ref('data.csv')] }))?.message).toBe("不允许直接读取文件 'data.csv'");
    expect(refused(ok({ tables: [ref('pg_settings', 3, 'pg_catalog')] }))?.message).toBe(
      '不允许读取 pg_catalog.pg_settings：SQL视图不能读取服务器文件、外部数据或系统设置',
    );
    expect(refused(ok({ tables: [ref('t', 3, 'main', 'system')] }))?.message).toMatch(/^不允许读取 system\.main\.t：/);
    expect(refused(ok({ functions: [ref('current_setting')] }))?.message).toBe(fn('current_setting'));
    expect(refused(ok({ functions: [ref('getenv', null)] }), 7)?.position).toBe(8);
  });

  it('refuses what the engine does not read as one SELECT, with its text as the detail', () => {
    const notSelect = refused({ ok: false, reason: 'notSelect', detail: 'Only SELECT statements can be serialized to json!', offset: null })!;
    expect(notSelect.message).toBe('只支持 SELECT 查询语句');
    const syntax = refused({ ok: false, reason: 'syntax', detail: 'syntax error at or near "where"', offset: 12 }, 2)!;
    expect(syntax.message).toBe('SQL语句有语法错误：syntax error at or near "where"');
    expect(syntax.detail).toBe('syntax error at or near "where"');
    expect(syntax.position).toBe(15);
    expect(refused(ok({ statements: 2 }))?.message).toBe('只能包含一条SQL语句');
  });

  const fn = (name: string) => `不允许调用 ${name}：SQL视图不能读取服务器文件、外部数据或系统设置`;
});
