import { formatMessage, zhCN } from '@shutu/contracts';
import { LexError, tokenize, type GuardDialect, type Token } from './sql-lexer.ts';

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
 * - no file named where a table goes (DuckDB reads FROM 'data.csv' as the file).
 */

export class SqlGuardError extends Error {
  /** 1-based character position of the offending token. */
  readonly position: number;
  constructor(message: string, offset: number) {
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
]);

/** Functions refused by name prefix. */
// prettier-ignore
const FORBIDDEN_PREFIXES = [
  'read_', 'pragma_', 'duckdb_', 'sqlite_', 'postgres_', 'mysql_', 'parquet_', 'iceberg_', 'delta_',
  'pg_read_', 'pg_ls_', 'pg_file_', 'pg_logdir_', 'pg_terminate_', 'pg_cancel_', 'pg_reload_', 'pg_rotate_', 'pg_switch_', 'pg_create_',
  'pg_drop_', 'pg_replication_', 'pg_logical_', 'pg_import_', 'pg_backup_', 'pg_advisory_', 'lo_', 'dblink',
];

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
  return FORBIDDEN_FUNCTIONS.has(lower) || FORBIDDEN_PREFIXES.some((p) => lower.startsWith(p));
}

/** A quoted name that reads as a file or URL rather than a table. */
const fileLike = (name: string) => /[/\\:]|\.[A-Za-z0-9]{1,8}$/.test(name);

const isPunct = (t: Token | undefined, ch: string) => t?.kind === 'punct' && t.text === ch;

/**
 * Checks `sql`; returns the statement to run: from its first to its last token, without a
 * trailing semicolon and trailing comments (so it can also be wrapped as a subquery).
 * Throws SqlGuardError with the Chinese message and the position.
 */
export function checkSelectSql(sql: string, dialect: GuardDialect): string {
  let tokens: Token[];
  try {
    tokens = tokenize(sql, dialect);
  } catch (error) {
    if (!(error instanceof LexError)) throw error;
    if (error.reason === 'comment') throw new SqlGuardError(zhCN.sqlCommentUnsupported, error.position);
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
    const qualified = isPunct(prev, '.') || isPunct(next, '.');
    if (token.kind === 'word') {
      if (CLAUSES.has(token.value)) clauses[clauses.length - 1] = token.value;
      const charsetSet = token.value === 'SET' && prev?.kind === 'word' && (prev.value === 'CHARACTER' || prev.value === 'CHAR');
      if (FORBIDDEN_KEYWORDS.has(token.value) && !qualified && !charsetSet) {
        throw new SqlGuardError(formatMessage(zhCN.sqlForbiddenKeyword, { keyword: token.value }), token.start);
      }
    }
    if ((token.kind === 'word' || token.kind === 'quoted') && isPunct(next, '(')) {
      const name = token.kind === 'word' ? token.text : token.value;
      if (isForbiddenFunction(name)) throw new SqlGuardError(formatMessage(zhCN.sqlForbiddenFunction, { name }), token.start);
    }
    // A table position: right after FROM or JOIN, or after a comma in a FROM list.
    const tablePosition =
      prev?.kind === 'word' && (prev.value === 'FROM' || prev.value === 'JOIN') ? true : isPunct(prev, ',') && clauses[clauses.length - 1] === 'FROM';
    if (tablePosition && (token.kind === 'string' || (token.kind === 'quoted' && fileLike(token.value)))) {
      throw new SqlGuardError(formatMessage(zhCN.sqlFileTable, { name: token.text.slice(0, 80) }), token.start);
    }
  });
  return sql.slice(body[0]!.start, body[body.length - 1]!.end);
}
