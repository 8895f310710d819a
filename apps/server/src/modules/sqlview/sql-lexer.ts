/**
 * A small SQL tokenizer for the SQL-view guard: strings, quoted identifiers, comments,
 * words, numbers and punctuation, with the quoting rules of the data source's engine, so
 * that what it sees as a string or comment is exactly what the engine will see as one.
 * Where engines differ it errs on the side of seeing more code (a statement may be refused
 * that the engine would have run, never the reverse).
 */

export type GuardDialect = 'duckdb' | 'postgres' | 'mysql' | 'clickhouse';

export type TokenKind = 'word' | 'quoted' | 'string' | 'number' | 'param' | 'punct';

export interface Token {
  kind: TokenKind;
  /** Source text of the token. */
  text: string;
  /** word: upper case; quoted identifier: the name without quotes; string: its value. */
  value: string;
  /** Offset of the first character (0-based) and past the last one. */
  start: number;
  end: number;
}

/** Why the text cannot be tokenized; `what` names the construct for the message. */
export class LexError extends Error {
  constructor(
    readonly reason: 'unterminated' | 'comment',
    readonly what: string,
    readonly position: number,
  ) {
    super(`${reason} ${what} at ${position}`);
  }
}

interface Rules {
  /** Backslash escapes the next character inside '…' and "…" (MySQL, ClickHouse). */
  backslashEscapes: boolean;
  /** E'…' strings with backslash escapes and $tag$…$tag$ strings (PostgreSQL, DuckDB). */
  postgresStrings: boolean;
  /** `…` quotes an identifier (MySQL, ClickHouse). */
  backticks: boolean;
  /** # starts a line comment (MySQL). */
  hashComments: boolean;
  /** -- starts a comment only before whitespace or the end (MySQL). */
  dashCommentNeedsSpace: boolean;
  /** "…" is a string, not an identifier (MySQL without ANSI_QUOTES). */
  doubleQuotedStrings: boolean;
}

const RULES: Record<GuardDialect, Rules> = {
  duckdb: { backslashEscapes: false, postgresStrings: true, backticks: false, hashComments: false, dashCommentNeedsSpace: false, doubleQuotedStrings: false },
  postgres: { backslashEscapes: false, postgresStrings: true, backticks: false, hashComments: false, dashCommentNeedsSpace: false, doubleQuotedStrings: false },
  mysql: { backslashEscapes: true, postgresStrings: false, backticks: true, hashComments: true, dashCommentNeedsSpace: true, doubleQuotedStrings: true },
  clickhouse: {
    backslashEscapes: true,
    postgresStrings: false,
    backticks: true,
    hashComments: false,
    dashCommentNeedsSpace: false,
    doubleQuotedStrings: false,
  },
};

const WORD_START = /[A-Za-z_\u0080-\uffff]/;
const WORD_PART = /[A-Za-z0-9_$\u0080-\uffff]/;
const DIGIT = /[0-9]/;

/** Tokens of `sql`, comments and whitespace left out. Throws LexError. */
export function tokenize(sql: string, dialect: GuardDialect): Token[] {
  const rules = RULES[dialect];
  const tokens: Token[] = [];
  const n = sql.length;
  let i = 0;

  /** Reads a quoted run from `open` (the opening quote) to its closing `quote`; doubled quotes escape. */
  const quoted = (open: number, quote: string, backslash: boolean, what: string): { end: number; value: string } => {
    let value = '';
    for (let j = open + 1; j < n; j++) {
      const ch = sql[j]!;
      if (backslash && ch === '\\') {
        value += sql[j + 1] ?? '';
        j++;
        continue;
      }
      if (ch === quote) {
        if (sql[j + 1] === quote) {
          value += quote;
          j++;
          continue;
        }
        return { end: j + 1, value };
      }
      value += ch;
    }
    throw new LexError('unterminated', what, open);
  };

  while (i < n) {
    const ch = sql[i]!;
    const next = sql[i + 1];
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    // comments
    const dash = ch === '-' && next === '-' && (!rules.dashCommentNeedsSpace || i + 2 >= n || sql.charCodeAt(i + 2) <= 0x20);
    if (dash || (rules.hashComments && ch === '#')) {
      const eol = sql.indexOf('\n', i);
      i = eol < 0 ? n : eol + 1;
      continue;
    }
    if (ch === '/' && next === '*') {
      // MySQL runs the text of /*! … */ and /*M! … */; PostgreSQL and DuckDB nest comments, MySQL does not.
      if (sql[i + 2] === '!' || (sql[i + 2] === 'M' && sql[i + 3] === '!')) throw new LexError('comment', '/*!', i);
      const close = sql.indexOf('*/', i + 2);
      if (close < 0) throw new LexError('unterminated', 'comment', i);
      if (sql.slice(i + 2, close).includes('/*')) throw new LexError('comment', '/*', i);
      i = close + 2;
      continue;
    }
    const start = i;
    const push = (kind: TokenKind, end: number, value: string) => {
      tokens.push({ kind, text: sql.slice(start, end), value, start, end });
      i = end;
    };
    // strings
    if (ch === "'") {
      const s = quoted(i, "'", rules.backslashEscapes, 'string');
      push('string', s.end, s.value);
      continue;
    }
    if (rules.postgresStrings && (ch === 'e' || ch === 'E') && next === "'") {
      const s = quoted(i + 1, "'", true, 'string');
      push('string', s.end, s.value);
      continue;
    }
    if (rules.postgresStrings && ch === '$') {
      const tag = /^\$(?:[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$/.exec(sql.slice(i, i + 200));
      if (tag) {
        const close = sql.indexOf(tag[0], i + tag[0].length);
        if (close < 0) throw new LexError('unterminated', 'string', i);
        push('string', close + tag[0].length, sql.slice(i + tag[0].length, close));
        continue;
      }
    }
    if (ch === '$' && next !== undefined && DIGIT.test(next)) {
      let j = i + 1;
      while (j < n && DIGIT.test(sql[j]!)) j++;
      push('param', j, sql.slice(i, j));
      continue;
    }
    // quoted identifiers (a "…" string in MySQL: a quoted token all the same)
    if (ch === '"') {
      const s = quoted(i, '"', rules.backslashEscapes, 'identifier');
      push(rules.doubleQuotedStrings ? 'string' : 'quoted', s.end, s.value);
      continue;
    }
    if (rules.backticks && ch === '`') {
      const s = quoted(i, '`', false, 'identifier');
      push('quoted', s.end, s.value);
      continue;
    }
    if (WORD_START.test(ch)) {
      let j = i + 1;
      while (j < n && WORD_PART.test(sql[j]!)) j++;
      push('word', j, sql.slice(i, j).toUpperCase());
      continue;
    }
    if (DIGIT.test(ch) || (ch === '.' && next !== undefined && DIGIT.test(next))) {
      const m = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(sql.slice(i, i + 400))!;
      push('number', i + m[0].length, m[0]);
      continue;
    }
    push('punct', i + 1, ch);
  }
  return tokens;
}
