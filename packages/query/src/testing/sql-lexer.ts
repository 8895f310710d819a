import type { QueryDialect } from '../dialects/types.ts';

/**
 * A test-only SQL tokenizer that reads generated SQL the way each engine would: string
 * literals are decoded by that engine's rules, so a test can check that a value landed
 * inside exactly one literal with exactly its own content. Anything it cannot classify
 * (a stray quote, an unknown character outside a literal) throws.
 */
export type SqlTokenType = 'string' | 'ident' | 'word' | 'number' | 'placeholder' | 'punct' | 'comment';

export interface SqlToken {
  type: SqlTokenType;
  /** Decoded literal or identifier; upper-cased word; raw text otherwise. */
  value: string;
}

const BACKSLASH: Record<string, string> = { '0': '\0', n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', Z: '\x1a' };

function backslashEscapes(dialect: QueryDialect, prefixE: boolean): boolean {
  return dialect === 'mysql' || dialect === 'clickhouse' || (dialect === 'postgres' && prefixE);
}

export function tokenizeSql(sql: string, dialect: QueryDialect): SqlToken[] {
  const tokens: SqlToken[] = [];
  let i = 0;
  const readQuoted = (quote: string, escapes: boolean): string => {
    let out = '';
    i++;
    for (;;) {
      if (i >= sql.length) throw new Error(`unterminated ${quote} at ${i}`);
      const c = sql[i]!;
      if (escapes && c === '\\') {
        const n = sql[i + 1];
        if (n === undefined) throw new Error('dangling backslash');
        out += BACKSLASH[n] ?? n;
        i += 2;
        continue;
      }
      if (c === quote) {
        if (sql[i + 1] === quote) {
          out += quote;
          i += 2;
          continue;
        }
        i++;
        return out;
      }
      out += c;
      i++;
    }
  };
  while (i < sql.length) {
    const c = sql[i]!;
    const rest = sql.slice(i);
    if (/\s/.test(c)) {
      i++;
    } else if (rest.startsWith('--') || rest.startsWith('/*') || (c === '#' && dialect === 'mysql')) {
      tokens.push({ type: 'comment', value: rest });
      return tokens;
    } else if (c === "'" || ((c === 'E' || c === 'e') && sql[i + 1] === "'" && dialect === 'postgres')) {
      const prefixE = c !== "'";
      if (prefixE) i++;
      tokens.push({ type: 'string', value: readQuoted("'", backslashEscapes(dialect, prefixE)) });
    } else if (c === '"' && (dialect === 'postgres' || dialect === 'duckdb')) {
      tokens.push({ type: 'ident', value: readQuoted('"', false) });
    } else if (c === '`' && (dialect === 'mysql' || dialect === 'clickhouse')) {
      tokens.push({ type: 'ident', value: readQuoted('`', dialect === 'clickhouse') });
    } else if (c === '$' && (dialect === 'postgres' || dialect === 'duckdb') && /^\$[0-9]+/.test(rest)) {
      const m = /^\$[0-9]+/.exec(rest)![0];
      tokens.push({ type: 'placeholder', value: m });
      i += m.length;
    } else if (c === '?' && (dialect === 'mysql' || dialect === 'clickhouse')) {
      // ClickHouse: only in the parameterised twin the fuzz test compares against.
      tokens.push({ type: 'placeholder', value: '?' });
      i++;
    } else if (/[0-9]/.test(c)) {
      const m = /^[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(rest)![0];
      tokens.push({ type: 'number', value: m });
      i += m.length;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest)![0];
      tokens.push({ type: 'word', value: m.toUpperCase() });
      i += m.length;
    } else if ('(),.;+-*/<>=!%|&'.includes(c)) {
      tokens.push({ type: 'punct', value: c });
      i++;
    } else {
      throw new Error(`unexpected character ${JSON.stringify(c)} at ${i}`);
    }
  }
  return tokens;
}
