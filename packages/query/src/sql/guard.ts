import { formatMessage, zhCN } from '@shutu/contracts';
import type { SqlInspection, SqlNameRef } from './inspection.ts';
import { LexError, tokenize, type GuardDialect, type Token } from './lexer.ts';

/**
 * The SQL-view guard: a saved or previewed SQL view must be one read-only SELECT (or
 * WITH … SELECT). Checked on the tokens, before anything reaches the engine, on top of the
 * drivers' own read-only execution:
 * - one statement (a trailing semicolon is allowed and dropped);
 * - it starts with SELECT or WITH (after opening parentheses);
 * - no DDL / DML or session keyword anywhere outside strings, quoted names and comments
 *   (data-modifying CTEs, SELECT INTO, INTO OUTFILE, ATTACH, COPY, PRAGMA, INSTALL, LOAD, SET …);
 * - no function that reads the server's files, other databases or the network, runs SQL
 *   text, or reveals settings (read_csv, glob, sqlite_scan, pg_read_file, load_file, url …);
 * - no catalog view or schema that exposes settings or the server (pg_settings, @@datadir,
 *   mysql.*, performance_schema.*, ClickHouse system.*);
 * - no file named where a table goes (DuckDB reads FROM 'data.csv' and PIVOT 'x.csv' as the file).
 * Names are compared as the engine reads them: quoted, escaped (\xHH) or U&"…" spellings decoded.
 *
 * Where the data source's driver can parse with the engine's own parser (Driver.inspectSql,
 * DuckDB), checkInspection then checks its tree: one SELECT, table functions only from a
 * small allow-list, no file-like or settings table, no forbidden function, at any depth.
 */

export class SqlGuardError extends Error {
  /** 1-based character position of the offending token. */
  readonly position: number;
  constructor(
    message: string,
    offset: number,
    /** The engine's own text, when its parser refused the statement. */
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'SqlGuardError';
    this.position = offset + 1;
  }
}

/** Refused as bare words. Statement starters are covered by the first-word rule; these may hide inside one. */
// prettier-ignore
const FORBIDDEN_KEYWORDS = new Set([
  // DML, also inside a CTE (PostgreSQL's data-modifying WITH)
  'INSERT', 'UPDATE', 'DELETE', 'MERGE', 'UPSERT',
  // DDL
  'CREATE', 'DROP', 'ALTER', 'TRUNCATE', 'RENAME', 'GRANT', 'REVOKE',
  // SELECT … INTO (creates a table), INTO OUTFILE / DUMPFILE (writes a server file)
  'INTO', 'OUTFILE', 'DUMPFILE',
  // engine and session commands
  'ATTACH', 'DETACH', 'COPY', 'PRAGMA', 'INSTALL', 'LOAD', 'SET', 'RESET', 'EXPORT', 'IMPORT', 'VACUUM', 'CHECKPOINT',
]);

/** Functions refused by exact (lower-case) name. */
// prettier-ignore
const FORBIDDEN_FUNCTIONS = new Set([
  // DuckDB: files, other databases, SQL text, settings and secrets
  'glob', 'sniff_csv', 'query', 'query_table', 'getenv', 'current_setting', 'which_secret', 'load_aws_credentials',
  'arrow_scan', 'arrow_scan_dumb', 'from_substrait', 'from_substrait_json', 'json_execute_serialized_sql', 'st_read', 'st_read_meta', 'st_drivers',
  'force_checkpoint', 'enable_profiling', 'disable_profiling',
  // PostgreSQL: server files, other databases, SQL text, settings, sequences, server control
  'set_config', 'query_to_xml', 'query_to_xml_and_xmlschema', 'query_to_xmlschema', 'cursor_to_xml', 'cursor_to_xmlschema', 'nextval', 'setval',
  'pg_stat_file', 'pg_promote', 'pg_notify', 'pg_start_backup', 'pg_stop_backup',
  // MySQL / MariaDB
  'load_file', 'sys_exec', 'sys_eval', 'get_lock', 'release_lock', 'release_all_locks',
  // ClickHouse table functions that reach files, hosts or processes
  'file', 'filecluster', 'url', 'urlcluster', 'remote', 'remotesecure', 'cluster', 'clusterallreplicas', 'mysql', 'postgresql', 'jdbc', 'odbc',
  'hdfs', 'hdfscluster', 's3', 's3cluster', 'gcs', 'azureblobstorage', 'input', 'executable', 'executablepool', 'sqlite', 'mongodb', 'redis',
  'iceberg', 'deltalake', 'hudi',
  // ClickHouse and PostgreSQL functions that reveal settings, configuration files or logs
  'getmacro', 'pg_config', 'pg_hba_file_rules', 'pg_ident_file_mappings', 'pg_current_logfile',
]);

/** Functions refused by name prefix. */
// prettier-ignore
const FORBIDDEN_PREFIXES = [
  'read_', 'pragma_', 'duckdb_', 'sqlite_', 'postgres_', 'mysql_', 'parquet_', 'iceberg_', 'delta_',
  'pg_read_', 'pg_ls_', 'pg_file_', 'pg_logdir_', 'pg_terminate_', 'pg_cancel_', 'pg_reload_', 'pg_rotate_', 'pg_switch_', 'pg_create_',
  'pg_drop_', 'pg_replication_', 'pg_logical_', 'pg_import_', 'pg_backup_', 'pg_advisory_', 'pg_show_', 'lo_', 'dblink',
  'getsetting', 'getserversetting',
];

/**
 * Catalog views and tables that expose settings, paths, secrets or other sessions, refused
 * wherever the name appears (lower case, any schema): PostgreSQL, DuckDB, MySQL / MariaDB
 * information_schema.
 */
// prettier-ignore
const FORBIDDEN_RELATIONS = new Set([
  'pg_settings', 'pg_file_settings', 'pg_hba_file_rules', 'pg_ident_file_mappings', 'pg_config', 'pg_stat_activity', 'pg_shadow', 'pg_authid',
  'pg_user_mappings',
  'duckdb_settings', 'duckdb_secrets', 'duckdb_databases', 'duckdb_extensions', 'duckdb_logs', 'duckdb_memory', 'duckdb_temporary_files',
  'duckdb_variables', 'pragma_database_list',
  'global_variables', 'session_variables', 'system_variables', 'global_status', 'session_status', 'processlist',
]);

/** Schemas (or DuckDB catalogs) refused as a qualifier: MySQL's server schemas, ClickHouse's and DuckDB's `system`. */
const FORBIDDEN_SCHEMAS = new Set(['mysql', 'performance_schema', 'sys', 'system']);

/** Table functions a SQL view may call where the engine's parser lists them: they make rows out of their arguments. */
export const ALLOWED_TABLE_FUNCTIONS = ['range', 'generate_series', 'unnest', 'json_each', 'json_tree', 'repeat', 'repeat_row'] as const;
const ALLOWED_TABLE_FUNCTION_SET = new Set<string>(ALLOWED_TABLE_FUNCTIONS);

/** Words after which a table (or a file, on DuckDB) is named. */
// prettier-ignore
const TABLE_WORDS = new Set(['FROM', 'JOIN', 'PIVOT', 'UNPIVOT', 'PIVOT_WIDER', 'PIVOT_LONGER', 'SUMMARIZE', 'DESCRIBE', 'DESC', 'SHOW', 'TABLE', 'LATERAL', 'ONLY']);

/** Clause keywords: after FROM (or a comma in a FROM list) or JOIN comes a table. */
const CLAUSES = new Set([
  'SELECT',
  'FROM',
  'WHERE',
  'GROUP',
  'HAVING',
  'ORDER',
  'LIMIT',
  'OFFSET',
  'QUALIFY',
  'WINDOW',
  'UNION',
  'INTERSECT',
  'EXCEPT',
  'ON',
  'USING',
  'SETTINGS',
  'FORMAT',
  'PREWHERE',
]);

export function isForbiddenFunction(name: string): boolean {
  const lower = name.toLowerCase();
  return FORBIDDEN_FUNCTIONS.has(lower) || FORBIDDEN_RELATIONS.has(lower) || FORBIDDEN_PREFIXES.some((p) => lower.startsWith(p));
}

export const isForbiddenRelation = (name: string) => FORBIDDEN_RELATIONS.has(name.toLowerCase());
export const isForbiddenSchema = (name: string) => FORBIDDEN_SCHEMAS.has(name.toLowerCase());

/** A quoted name that reads as a file or URL rather than a table. */
const fileLike = (name: string) => /[/\\:]|\.[A-Za-z0-9]{1,8}$/.test(name);

const isPunct = (t: Token | undefined, ch: string) => t?.kind === 'punct' && t.text === ch;

/** The statement to run (see checkSelectSql) and its offset in the text checked. */
export interface GuardedStatement {
  statement: string;
  offset: number;
}

/**
 * Checks `sql`; returns the statement to run: from its first to its last token, without a
 * trailing semicolon and trailing comments (so it can also be wrapped as a subquery).
 * Throws SqlGuardError with the Chinese message and the position.
 */
export function checkSelectSql(sql: string, dialect: GuardDialect): string {
  return guardSelectSql(sql, dialect).statement;
}

export function guardSelectSql(sql: string, dialect: GuardDialect): GuardedStatement {
  let tokens: Token[];
  try {
    tokens = tokenize(sql, dialect);
  } catch (error) {
    if (!(error instanceof LexError)) throw error;
    if (error.reason === 'comment') throw new SqlGuardError(zhCN.sqlCommentUnsupported, error.position);
    if (error.reason === 'escape') throw new SqlGuardError(zhCN.sqlEscapeInvalid, error.position);
    const what = error.what === 'string' ? '字符串' : error.what === 'identifier' ? '带引号的名称' : '注释';
    throw new SqlGuardError(formatMessage(zhCN.sqlUnterminated, { what }), error.position);
  }
  // Trailing semicolons end the statement; any other one starts a second statement.
  let last = tokens.length;
  while (last > 0 && isPunct(tokens[last - 1], ';')) last--;
  const body = tokens.slice(0, last);
  if (body.length === 0) throw new SqlGuardError(zhCN.sqlStatementRequired, 0);
  const semicolon = body.find((t) => isPunct(t, ';'));
  if (semicolon) throw new SqlGuardError(formatMessage(zhCN.sqlMultipleStatements, { position: semicolon.start + 1 }), semicolon.start);

  const first = body.find((t) => !isPunct(t, '('))!;
  if (first.kind !== 'word' || (first.value !== 'SELECT' && first.value !== 'WITH')) throw new SqlGuardError(zhCN.sqlNotSelect, first.start);

  /** The last clause keyword seen at each parenthesis depth. */
  const clauses: string[] = [''];
  body.forEach((token, i) => {
    const prev = body[i - 1];
    const next = body[i + 1];
    if (isPunct(token, '(')) clauses.push('');
    else if (isPunct(token, ')')) {
      if (clauses.length > 1) clauses.pop();
    }
    // MySQL's @@datadir, @@global.secure_file_priv …
    if (token.kind === 'variable') throw new SqlGuardError(formatMessage(zhCN.sqlForbiddenTable, { name: token.text }), token.start);
    const qualified = isPunct(prev, '.') || isPunct(next, '.');
    if (token.kind === 'word') {
      if (CLAUSES.has(token.value)) clauses[clauses.length - 1] = token.value;
      const charsetSet = token.value === 'SET' && prev?.kind === 'word' && (prev.value === 'CHARACTER' || prev.value === 'CHAR');
      if (FORBIDDEN_KEYWORDS.has(token.value) && !qualified && !charsetSet) {
        throw new SqlGuardError(formatMessage(zhCN.sqlForbiddenKeyword, { keyword: token.value }), token.start);
      }
    }
    if (token.kind === 'word' || token.kind === 'quoted') {
      // The name as the engine reads it: quotes and escapes (U&"…", \xHH) undone.
      const name = token.kind === 'word' ? token.text : token.value;
      if (isPunct(next, '(')) {
        if (isForbiddenFunction(name)) throw new SqlGuardError(formatMessage(zhCN.sqlForbiddenFunction, { name }), token.start);
      } else if (isForbiddenRelation(name) || (isPunct(next, '.') && !isPunct(prev, '.') && isForbiddenSchema(name))) {
        const shown = isPunct(next, '.') && isName(body[i + 2]) ? `${name}.${nameOf(body[i + 2]!)}` : name;
        throw new SqlGuardError(formatMessage(zhCN.sqlForbiddenTable, { name: shown }), token.start);
      }
    }
    // A table position: right after FROM, JOIN, PIVOT …, or after a comma in a FROM list.
    const tablePosition = prev?.kind === 'word' && TABLE_WORDS.has(prev.value) ? true : isPunct(prev, ',') && clauses[clauses.length - 1] === 'FROM';
    if (tablePosition && (token.kind === 'string' || (token.kind === 'quoted' && fileLike(token.value)))) {
      throw new SqlGuardError(formatMessage(zhCN.sqlFileTable, { name: token.text.slice(0, 80) }), token.start);
    }
  });
  return { statement: sql.slice(body[0]!.start, body[body.length - 1]!.end), offset: body[0]!.start };
}

const isName = (t: Token | undefined): t is Token => t?.kind === 'word' || t?.kind === 'quoted';
const nameOf = (t: Token) => (t.kind === 'quoted' ? t.value : t.text);
const quoteName = (name: string) => `'${name.slice(0, 80)}'`;

/**
 * Checks what the engine's own parser found in the statement (Driver.inspectSql) — every
 * table, table function and function at any depth, whatever its spelling. `offset` is the
 * statement's offset in the text the user wrote (for the position).
 */
export function checkInspection(inspection: SqlInspection, offset: number): void {
  const at = (ref: { offset: number | null }) => offset + (ref.offset ?? 0);
  if (!inspection.ok) {
    if (inspection.reason === 'notSelect') throw new SqlGuardError(zhCN.sqlNotSelect, offset, inspection.detail);
    throw new SqlGuardError(formatMessage(zhCN.sqlSyntaxError, { detail: inspection.detail }), at(inspection), inspection.detail);
  }
  if (inspection.statements !== 1) throw new SqlGuardError(zhCN.sqlSingleStatement, offset);
  const qualifiers = (ref: SqlNameRef) => [ref.catalog, ref.schema].filter((q) => q !== '');
  for (const ref of inspection.tableFunctions) {
    if (!ALLOWED_TABLE_FUNCTION_SET.has(ref.name.toLowerCase()) || qualifiers(ref).some(isForbiddenSchema)) {
      throw new SqlGuardError(formatMessage(zhCN.sqlForbiddenTableFunction, { name: ref.name, allowed: ALLOWED_TABLE_FUNCTIONS.join('、') }), at(ref));
    }
  }
  for (const ref of inspection.tables) {
    // DuckDB keeps FROM '/etc/passwd' (and a PIVOT's string source) as a table of that name.
    if (fileLike(ref.name)) throw new SqlGuardError(formatMessage(zhCN.sqlFileTable, { name: quoteName(ref.name) }), at(ref));
    if (isForbiddenRelation(ref.name) || qualifiers(ref).some(isForbiddenSchema)) {
      throw new SqlGuardError(formatMessage(zhCN.sqlForbiddenTable, { name: [...qualifiers(ref), ref.name].join('.') }), at(ref));
    }
  }
  for (const ref of inspection.functions) {
    if (isForbiddenFunction(ref.name)) throw new SqlGuardError(formatMessage(zhCN.sqlForbiddenFunction, { name: ref.name }), at(ref));
  }
}
