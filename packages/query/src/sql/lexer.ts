/**
 * A small SQL tokenizer for the SQL-view guard: strings, quoted identifiers, comments,
 * words, numbers and punctuation, with the quoting rules of the data source's engine, so
 * that what it sees as a string or comment is exactly what the engine will see as one.
 * Where engines differ it errs on the side of seeing more code (a statement may be refused
 * that the engine would have run, never the reverse).
 */

export type GuardDialect = 'duckdb' | 'postgres' | 'mysql' | 'clickhouse';

export type TokenKind = 'word' | 'quoted' | 'string' | 'number' | 'param' | 'variable' | 'punct';

export interface Token {
  kind: TokenKind;
  /** Source text of the token. */
  text: string;
  /**
   * word: upper case; quoted identifier: the name without quotes, escapes decoded (also
   * PostgreSQL's U&"…" with UESCAPE); string: its value; variable (MySQL's @@name): the text.
   */
  value: string;
  /** Offset of the first character (0-based) and past the last one. */
  start: number;
  end: number;
}

/** Why the text cannot be tokenized; `what` names the construct for the message. */
export class LexError extends Error {
  constructor(
    readonly reason: 'unterminated' | 'comment' | 'escape',
    readonly what: string,
    readonly position: number,
  ) {
    super(`${reason} ${what} at ${position}`);
  }
}

interface Rules {
  /** Backslash escapes inside '…' and "…" (MySQL: \n, \0, …; ClickHouse also \xHH). */
  backslashEscapes: 'none' | 'mysql' | 'clickhouse';
  /** E'…' strings with backslash escapes and $tag$…$tag$ strings (PostgreSQL, DuckDB). */
  postgresStrings: boolean;
  /** U&"…" and U&'…' with \XXXX / \+XXXXXX escapes and an optional UESCAPE 'c' (PostgreSQL; DuckDB's parser refuses them). */
  unicodeEscapes: boolean;
  /** `…` quotes an identifier (MySQL, ClickHouse). */
  backticks: boolean;
  /** # starts a line comment (MySQL). */
  hashComments: boolean;
  /** -- starts a comment only before whitespace or the end (MySQL). */
  dashCommentNeedsSpace: boolean;
  /** "…" is a string, not an identifier (MySQL without ANSI_QUOTES). */
  doubleQuotedStrings: boolean;
  /** @@name reads a server variable (MySQL). */
  systemVariables: boolean;
}

// prettier-ignore
const RULES: Record<GuardDialect, Rules> = {
  duckdb: { backslashEscapes: 'none', postgresStrings: true, unicodeEscapes: true, backticks: false, hashComments: false, dashCommentNeedsSpace: false, doubleQuotedStrings: false, systemVariables: false },
  postgres: { backslashEscapes: 'none', postgresStrings: true, unicodeEscapes: true, backticks: false, hashComments: false, dashCommentNeedsSpace: false, doubleQuotedStrings: false, systemVariables: false },
  mysql: { backslashEscapes: 'mysql', postgresStrings: false, unicodeEscapes: false, backticks: true, hashComments: true, dashCommentNeedsSpace: true, doubleQuotedStrings: true, systemVariables: true },
  clickhouse: { backslashEscapes: 'clickhouse', postgresStrings: false, unicodeEscapes: false, backticks: true, hashComments: false, dashCommentNeedsSpace: false, doubleQuotedStrings: false, systemVariables: false },
};

const SIMPLE_ESCAPES: Record<string, string> = { '0': '\0', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', a: '\x07', Z: '\x1a' };

/** The character(s) a backslash escape stands for, and how many characters after the backslash it takes. */
function backslashEscape(sql: string, at: number, mode: 'mysql' | 'clickhouse'): { value: string; length: number } {
  const ch = sql[at] ?? '';
  if (mode === 'clickhouse' && (ch === 'x' || ch === 'X') && /^[0-9A-Fa-f]{2}$/.test(sql.slice(at + 1, at + 3))) {
    return { value: String.fromCharCode(parseInt(sql.slice(at + 1, at + 3), 16)), length: 3 };
  }
  if (mode === 'mysql' && (ch === '%' || ch === '_')) return { value: `\\${ch}`, length: 1 };
  if (Object.hasOwn(SIMPLE_ESCAPES, ch) && (mode === 'clickhouse' ? '0bfnrtva' : 'Z0bnrt').includes(ch)) return { value: SIMPLE_ESCAPES[ch]!, length: 1 };
  return { value: ch, length: 1 };
}

/** PostgreSQL's U& text: `escape` followed by 4 hex digits, + and 6 hex digits, or itself. Null when malformed. */
export function decodeUnicodeEscapes(raw: string, escape: string): string | null {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]!;
    if (ch !== escape) {
      out += ch;
      continue;
    }
    if (raw[i + 1] === escape) {
      out += escape;
      i++;
      continue;
    }
    const m = /^(?:\+([0-9A-Fa-f]{6})|([0-9A-Fa-f]{4}))/.exec(raw.slice(i + 1, i + 8));
    if (!m) return null;
    const code = parseInt(m[1] ?? m[2]!, 16);
    if (code > 0x10ffff) return null;
    out += String.fromCodePoint(code);
    i += m[0].length;
  }
  return out;
}

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
  const quoted = (open: number, quote: string, backslash: Rules['backslashEscapes'] | 'literal', what: string): { end: number; value: string } => {
    let value = '';
    for (let j = open + 1; j < n; j++) {
      const ch = sql[j]!;
      if (backslash !== 'none' && ch === '\\') {
        if (backslash === 'literal') {
          value += sql[j + 1] ?? '';
          j++;
        } else {
          const escape = backslashEscape(sql, j + 1, backslash);
          value += escape.value;
          j += escape.length;
        }
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
  /** U&"…" / U&'…' tokens, decoded once their UESCAPE (if any) is known. */
  const unicodeTokens: Token[] = [];

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
    if (rules.unicodeEscapes && (ch === 'u' || ch === 'U') && next === '&' && (sql[i + 2] === '"' || sql[i + 2] === "'")) {
      const quote = sql[i + 2]!;
      const s = quoted(i + 2, quote, 'none', quote === '"' ? 'identifier' : 'string');
      push(quote === '"' ? 'quoted' : 'string', s.end, s.value);
      unicodeTokens.push(tokens[tokens.length - 1]!);
      continue;
    }
    if (rules.postgresStrings && (ch === 'e' || ch === 'E') && next === "'") {
      const s = quoted(i + 1, "'", 'literal', 'string');
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
      const s = quoted(i, '`', rules.backslashEscapes === 'clickhouse' ? 'clickhouse' : 'none', 'identifier');
      push('quoted', s.end, s.value);
      continue;
    }
    if (rules.systemVariables && ch === '@' && next === '@') {
      const m = /^@@[A-Za-z0-9_$.]*/.exec(sql.slice(i, i + 200))!;
      push('variable', i + m[0].length, m[0]);
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
  return unicodeTokens.length === 0 ? tokens : decodeUnicodeTokens(tokens, unicodeTokens);
}

/** Decodes U&"…" / U&'…' tokens with their UESCAPE 'c' (default backslash), dropping the UESCAPE clause. */
function decodeUnicodeTokens(tokens: Token[], unicode: Token[]): Token[] {
  const pending = new Set(unicode);
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (!pending.has(token)) {
      out.push(token);
      continue;
    }
    let escape = '\\';
    const clause = tokens[i + 1];
    const char = tokens[i + 2];
    if (clause?.kind === 'word' && clause.value === 'UESCAPE') {
      if (char?.kind !== 'string' || char.value.length !== 1 || /[0-9A-Fa-f+'"\s]/.test(char.value)) throw new LexError('escape', 'UESCAPE', clause.start);
      escape = char.value;
      i += 2;
    }
    const value = decodeUnicodeEscapes(token.value, escape);
    if (value === null) throw new LexError('escape', 'U&', token.start);
    out.push({ ...token, value, end: tokens[i]!.end });
  }
  return out;
}
