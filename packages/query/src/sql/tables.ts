import { formatMessage, zhCN } from '@shutu/contracts';
import { SqlGuardError } from './guard.ts';
import { LexError, tokenize, type GuardDialect, type Token } from './lexer.ts';

/**
 * The tables a SQL view reads, so that they can be checked against the user's grants. Runs
 * on SQL that checkSelectSql accepted. It is a security check, so it is conservative: what
 * it cannot classify for certain is refused (SqlGuardError) rather than skipped. It may
 * refuse a view that only reads granted tables; it must never miss a table.
 */

export interface SqlTableRef {
  schema: string | null;
  name: string;
  /** the name was quoted: compare exactly */
  quoted: boolean;
  /** 0-based offset */
  start: number;
}

const UNRECOGNISED = '无法识别的数据表写法，请改写为普通的 FROM / JOIN';

/** Words that end a FROM list. ON, USING and OFFSET do not: `JOIN b ON … , c`, ClickHouse `SAMPLE … OFFSET …`. */
// prettier-ignore
const FROM_ENDS = new Set([
  'SELECT', 'WHERE', 'GROUP', 'HAVING', 'ORDER', 'LIMIT', 'QUALIFY', 'WINDOW', 'UNION', 'INTERSECT', 'EXCEPT', 'MINUS',
  'SETTINGS', 'FORMAT', 'PREWHERE', 'FETCH', 'INTO',
]);
const SET_OPS = new Set(['UNION', 'INTERSECT', 'EXCEPT', 'MINUS']);
/** Reserved words skipped before a table (elsewhere they could be the table's name, with an alias after). */
const TABLE_PREFIXES: Record<GuardDialect, Set<string>> = {
  postgres: new Set(['LATERAL', 'ONLY']),
  duckdb: new Set(['LATERAL', 'ONLY']),
  mysql: new Set(['LATERAL']),
  clickhouse: new Set(),
};
/** Statements other than SELECT that read a table and may appear as a subquery (DuckDB, ClickHouse). */
const STATEMENTS = new Set(['PIVOT', 'UNPIVOT', 'SUMMARIZE', 'DESCRIBE', 'DESC', 'EXPLAIN', 'SHOW', 'CALL']);
/** ClickHouse: `x IN t` reads table t; these are the operator's spellings, also as functions. */
const IN_OPERATORS = new Set(['IN', 'NOTIN', 'GLOBALIN', 'GLOBALNOTIN', 'NULLIN', 'NOTNULLIN', 'GLOBALNULLIN', 'GLOBALNOTNULLIN']);
/** Keywords never taken for a table name: reading over one would skip what it starts. */
const NOT_A_TABLE = new Set([...FROM_ENDS, ...IN_OPERATORS, 'FROM', 'JOIN', 'STRAIGHT_JOIN', 'TABLE', 'WITH', 'ON', 'USING', 'AS']);
/** Functions that read a table named in their arguments or in SQL text, out of sight of this check. */
const READS_TABLES = /^(?:table_to_xml|schema_to_xml|database_to_xml|ts_stat$|ts_rewrite$|dict|joinget|merge|loop$)/i;
const BRACKETS: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
const CLOSERS = new Set(Object.values(BRACKETS));

const isPunct = (t: Token | undefined, ch: string) => t?.kind === 'punct' && t.text === ch;
const isWord = (t: Token | undefined, word: string) => t?.kind === 'word' && t.value === word;
const isOpener = (t: Token | undefined) => t?.kind === 'punct' && Object.hasOwn(BRACKETS, t.text);
const isName = (t: Token | undefined): t is Token => t?.kind === 'word' || t?.kind === 'quoted';
const fail = (message: string, token: Token): never => {
  throw new SqlGuardError(message, token.start);
};

interface Group {
  /** A query (top level, or begins with SELECT, WITH, …): its FROM is a table FROM. */
  query: boolean;
  /** The last clause keyword at this depth. */
  clause: string;
  /** Index of the opening bracket. */
  open: number;
}

interface Cte {
  key: string;
  /** Depth (group stack length) of the WITH: visible while this group is open. */
  depth: number;
  /** Visibility also ends at a set operation at that depth. */
  untilSetOp: boolean;
}

/** For each bracket, the index of its partner. Also refuses a second statement. */
function matchBrackets(tokens: Token[]): number[] {
  const match: number[] = [];
  const open: number[] = [];
  tokens.forEach((t, i) => {
    if (t.kind !== 'punct') return;
    if (t.text === ';') fail(formatMessage(zhCN.sqlMultipleStatements, { position: t.start + 1 }), t);
    if (isOpener(t)) open.push(i);
    else if (CLOSERS.has(t.text)) {
      const o = open.pop();
      if (o === undefined || BRACKETS[tokens[o]!.text] !== t.text) fail('SQL语句中的括号不配对', t);
      match[o!] = i;
      match[i] = o!;
    }
  });
  if (open.length > 0) fail('SQL语句中的括号不配对', tokens[open.at(-1)!]!);
  return match;
}

/** Tables `sql` reads, in order of appearance, de-duplicated by (schema, name, quoted). Throws SqlGuardError (from guard.ts) with a Chinese message and position when it cannot be sure what a table position holds. */
export function referencedTables(sql: string, dialect: GuardDialect): SqlTableRef[] {
  let tokens: Token[];
  try {
    tokens = tokenize(sql, dialect);
  } catch (error) {
    if (error instanceof LexError) throw new SqlGuardError('无法解析SQL语句', error.position);
    throw error;
  }
  while (isPunct(tokens.at(-1), ';')) tokens.pop();
  const match = matchBrackets(tokens);

  const refs: SqlTableRef[] = [];
  const seen = new Set<string>();
  const groups: Group[] = [{ query: true, clause: '', open: -1 }];
  let ctes: Cte[] = [];
  /** CTE bodies by the index of their '(' . */
  const cteBodies = new Map<number, { key: string; recursive: boolean; untilSetOp: boolean }>();

  // Same key only when the engine surely resolves both spellings alike: PostgreSQL and DuckDB fold
  // unquoted names, MySQL and ClickHouse may not; quoted and unquoted are never matched.
  const cteKey = (t: Token) => (t.kind === 'quoted' ? `q${t.value}` : `w${dialect === 'postgres' || dialect === 'duckdb' ? t.value : t.text}`);

  /** `TABLE t` (PostgreSQL, MySQL, DuckDB) is SELECT * FROM t; in ClickHouse `table` is a common column name. */
  const tableStatement = (k: number) => dialect !== 'clickhouse' && isWord(tokens[k], 'TABLE') && isName(tokens[k + 1]);

  /** Whether the group opened at `open` is a query; refuses other statements. */
  const isQuery = (open: number): boolean => {
    let k = open + 1;
    while (isPunct(tokens[k], '(')) k++;
    const t = tokens[k];
    if (t?.kind !== 'word') return false;
    if (STATEMENTS.has(t.value) && (isName(tokens[k + 1]) || isPunct(tokens[k + 1], '('))) fail(`子查询中不支持 ${t.text}`, t);
    // DuckDB's FROM-first query, but PostgreSQL's TRIM(FROM s)
    if (t.value === 'FROM') return !isWord(tokens[open - 1], 'TRIM');
    return t.value === 'SELECT' || t.value === 'WITH' || t.value === 'VALUES' || tableStatement(k);
  };

  /** Where a query may begin: start, '(' or after a set operation. */
  const statementStart = (i: number) => {
    const prev = tokens[i - 1];
    if (!prev || isPunct(prev, '(')) return true;
    if (prev.kind !== 'word') return false;
    return (
      SET_OPS.has(prev.value) || ((prev.value === 'ALL' || prev.value === 'DISTINCT') && tokens[i - 2]?.kind === 'word' && SET_OPS.has(tokens[i - 2]!.value))
    );
  };

  /** Reads the table position at token k; returns the index of the last token consumed. */
  const readTable = (k: number, withCtes: boolean): number => {
    while (tokens[k]?.kind === 'word' && TABLE_PREFIXES[dialect].has(tokens[k]!.value) && (isName(tokens[k + 1]) || isPunct(tokens[k + 1], '('))) k++;
    const first = tokens[k];
    if (!first) return fail(UNRECOGNISED, tokens[k - 1]!);
    if (isPunct(first, '(')) {
      if (!isQuery(k)) fail(UNRECOGNISED, first);
      return k - 1; // a subquery: the main loop scans it
    }
    if (first.kind === 'string') fail(formatMessage(zhCN.sqlFileTable, { name: first.text.slice(0, 80) }), first);
    if (!isName(first) || (first.kind === 'word' && NOT_A_TABLE.has(first.value) && !isPunct(tokens[k + 1], '.'))) fail(UNRECOGNISED, first);
    const parts = [first];
    while (isPunct(tokens[k + 1], '.')) {
      const part = tokens[k + 2];
      if (!isName(part)) return fail(UNRECOGNISED, tokens[k + 1]!);
      parts.push(part);
      k += 2;
    }
    const text = sql.slice(first.start, tokens[k]!.end);
    if (isPunct(tokens[k + 1], '(')) fail(`不允许在 FROM 中调用函数 ${text}`, first);
    if (parts.length > 2) fail(`数据表名最多写成“库名.表名”两段：${text}`, first);
    const name = parts.at(-1)!;
    const schema = parts.length === 2 ? parts[0]! : null;
    let quoted = name.kind === 'quoted';
    if (schema && (schema.kind === 'quoted') !== quoted) {
      // One flag for both parts: the unquoted one must mean the same quoted. PostgreSQL folds it to lower case.
      const word = quoted ? schema : name;
      if (dialect === 'postgres' && word.text !== word.text.toLowerCase()) fail(`库名和表名请都加引号或都不加引号：${text}`, first);
      quoted = true;
    }
    if (!schema && withCtes && ctes.some((c) => c.key === cteKey(name))) return k;
    if (!schema && dialect === 'mysql' && isWord(name, 'DUAL')) return k;
    const spelled = (t: Token) => (t.kind === 'quoted' ? t.value : t.text);
    const ref: SqlTableRef = { schema: schema && spelled(schema), name: spelled(name), quoted, start: first.start };
    // quoted is part of the key: PostgreSQL's "T" and T are different tables
    const key = JSON.stringify([ref.schema, ref.name, quoted]);
    if (!seen.has(key)) {
      seen.add(key);
      refs.push(ref);
    }
    return k;
  };

  /** `WITH [RECURSIVE] name [(cols)] AS [NOT] [MATERIALIZED] (query), …`: notes the bodies. Stops at anything else (ClickHouse `WITH expr AS alias`). */
  const readWith = (i: number, untilSetOp: boolean) => {
    let k = i + 1;
    const recursive = isWord(tokens[k], 'RECURSIVE');
    if (recursive) k++;
    for (;;) {
      const name = tokens[k];
      if (!isName(name)) return;
      if (isPunct(tokens[k + 1], '(')) k = match[k + 1]!;
      if (!isWord(tokens[k + 1], 'AS')) return;
      k += 2;
      if (isWord(tokens[k], 'NOT')) k++;
      if (isWord(tokens[k], 'MATERIALIZED')) k++;
      if (!isPunct(tokens[k], '(') || !isQuery(k)) return;
      cteBodies.set(k, { key: cteKey(name), recursive, untilSetOp });
      k = match[k]! + 1;
      if (!isPunct(tokens[k], ',')) return;
      k++;
    }
  };

  /** ClickHouse `x IN t`, `x IN (t)`, `in(x, t)`: an operand of IN that is a bare name is a table. */
  const readInOperand = (open: number) => {
    const close = match[open]!;
    let from = open + 1;
    for (let k = from; k <= close; k++) {
      if (k < close && isOpener(tokens[k])) k = match[k]!;
      else if (k === close || isPunct(tokens[k], ',')) {
        let [a, b] = [from, k];
        while (b - a >= 2 && isPunct(tokens[a], '(') && match[a] === b - 1) [a, b] = [a + 1, b - 1];
        const bare = (b - a) % 2 === 1 && tokens.slice(a, b).every((t, j) => (j % 2 === 0 ? isName(t) : isPunct(t, '.')));
        if (bare && !(b - a === 1 && ['NULL', 'TRUE', 'FALSE'].some((w) => isWord(tokens[a], w)))) readTable(a, false);
        from = k + 1;
      }
    }
  };

  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const prev = tokens[i - 1];
    const next = tokens[i + 1];
    const group = groups.at(-1)!;
    if (t.kind === 'punct') {
      if (isOpener(t)) {
        const body = cteBodies.get(i);
        if (body?.recursive) ctes.push({ key: body.key, depth: groups.length, untilSetOp: body.untilSetOp });
        groups.push({ query: t.text === '(' && isQuery(i), clause: '', open: i });
      } else if (CLOSERS.has(t.text)) {
        groups.pop();
        ctes = ctes.filter((c) => c.depth <= groups.length);
        // a non-recursive CTE is visible from after its body on
        const body = cteBodies.get(match[i]!);
        if (body && !body.recursive) ctes.push({ key: body.key, depth: groups.length, untilSetOp: body.untilSetOp });
      } else if (t.text === ',' && group.clause === 'FROM') i = readTable(i + 1, true);
      continue;
    }
    if (isName(t) && isPunct(next, '(') && READS_TABLES.test(t.kind === 'quoted' ? t.value : t.text)) {
      fail(`不允许调用 ${t.text}：它读取的数据表无法核对权限`, t);
    }
    // a qualified word is a name, not a keyword
    if (t.kind !== 'word' || isPunct(prev, '.') || isPunct(next, '.')) continue;
    const word = t.value;
    if (word === 'FROM') {
      const comparison = isWord(prev, 'DISTINCT') && (isWord(tokens[i - 2], 'IS') || isWord(tokens[i - 2], 'NOT'));
      // not in EXTRACT(… FROM …) and the like, a IS [NOT] DISTINCT FROM b, ClickHouse WITH FILL FROM
      if (group.query && !comparison && !isWord(prev, 'FILL')) {
        group.clause = 'FROM';
        i = readTable(i + 1, true);
      }
    } else if (word === 'JOIN' || (word === 'STRAIGHT_JOIN' && group.clause === 'FROM')) {
      if (isWord(prev, 'ARRAY')) fail('不支持 ARRAY JOIN（无法核对数据表权限），请改用 arrayJoin() 函数', t);
      if (isWord(prev, 'FOR')) continue; // MySQL index hint USE INDEX FOR JOIN (…)
      if (group.query) group.clause = 'FROM';
      i = readTable(i + 1, true);
    } else if (tableStatement(i) && statementStart(i)) {
      i = readTable(i + 1, true);
    } else if (word === 'WITH' && statementStart(i)) {
      // A WITH leading its group covers the whole group; ClickHouse attaches it to the first SELECT only.
      readWith(i, dialect === 'clickhouse' || !(i === 0 || isPunct(prev, '(')));
    } else if (dialect === 'clickhouse' && IN_OPERATORS.has(word) && !isWord(tokens[group.open - 1], 'POSITION')) {
      // a table function there may read a table too
      if (isName(next) && isPunct(tokens[i + 2], '(')) fail(`不允许在 IN 后调用函数 ${next.text}`, next);
      if (isName(next)) i = readTable(i + 1, false);
      else if (isPunct(next, '(')) readInOperand(i + 1);
    } else if (FROM_ENDS.has(word) && !isWord(prev, 'AS') && !(isWord(prev, 'FOR') && (word === 'GROUP' || word === 'ORDER'))) {
      // (an alias, or MySQL's index hint USE INDEX FOR ORDER BY (…), does not end the list)
      group.clause = word;
      if (SET_OPS.has(word) && !isPunct(prev, '*')) ctes = ctes.filter((c) => !(c.untilSetOp && c.depth === groups.length));
    }
  }
  return refs;
}
