import { describe, expect, it } from 'vitest';
import { QueryError } from '../errors.ts';
import { mulberry32, randomNastyString } from '../testing/prng.ts';
import { tokenizeSql } from '../testing/sql-lexer.ts';
import { clickhouse, DIALECTS, duckdb, mysql, postgres, type Dialect, type QueryDialect } from './index.ts';

const NAMES = Object.keys(DIALECTS) as QueryDialect[];

describe('string literals', () => {
  // [input, duckdb, postgres, mysql, clickhouse]
  const table: [string, string, string, string, string][] = [
    ['abc', "'abc'", "'abc'", "'abc'", "'abc'"],
    ["it's", "'it''s'", "'it''s'", "'it''s'", "'it\\'s'"],
    ['a\\b', "'a\\b'", "E'a\\\\b'", "'a\\\\b'", "'a\\\\b'"],
    ["\\'; DROP TABLE t; --", "'\\''; DROP TABLE t; --'", "E'\\\\''; DROP TABLE t; --'", "'\\\\''; DROP TABLE t; --'", "'\\\\\\'; DROP TABLE t; --'"],
    ['line\nnext\r\ttab', "'line\nnext\r\ttab'", "'line\nnext\r\ttab'", "'line\\nnext\\r\ttab'", "'line\\nnext\\r\\ttab'"],
    ['"q" `b`', '\'"q" `b`\'', '\'"q" `b`\'', '\'\\"q\\" `b`\'', '\'"q" `b`\''],
    ['ctrl-z \x1a', "'ctrl-z \x1a'", "'ctrl-z \x1a'", "'ctrl-z \\Z'", "'ctrl-z \x1a'"],
    ['数图 😀 é \u2028', "'数图 😀 é \u2028'", "'数图 😀 é \u2028'", "'数图 😀 é \u2028'", "'数图 😀 é \u2028'"],
    ['/* -- */ ;', "'/* -- */ ;'", "'/* -- */ ;'", "'/* -- */ ;'", "'/* -- */ ;'"],
  ];
  it.each(table)('%j', (input, ...expected) => {
    const got = [duckdb, postgres, mysql, clickhouse].map((d) => d.escapeString(input));
    expect(got).toEqual(expected);
  });

  it('writes NUL as \\0 where the engine stores it and refuses it elsewhere', () => {
    expect(mysql.escapeString('a\0b')).toBe("'a\\0b'");
    expect(clickhouse.escapeString('a\0b')).toBe("'a\\0b'");
    for (const d of [duckdb, postgres]) {
      expect(() => d.escapeString('a\0b')).toThrow(QueryError);
      expect(() => d.escapeString('a\0b')).toThrow('值中不能包含空字符（\\0）');
    }
  });

  it('refuses lone surrogates in every dialect', () => {
    for (const d of Object.values(DIALECTS)) {
      expect(() => d.escapeString('a\uD800')).toThrow('值中包含无效的Unicode字符');
      expect(() => d.escapeString('\uDC00b')).toThrow(QueryError);
      expect(d.escapeString('\uD83D\uDE00')).toContain('😀');
    }
  });

  it("round-trips thousands of random strings through each engine's literal rules", () => {
    const random = mulberry32(20240315);
    for (let n = 0; n < 3000; n++) {
      const value = randomNastyString(random);
      for (const name of NAMES) {
        const d: Dialect = DIALECTS[name];
        let literal: string;
        try {
          literal = d.escapeString(value);
        } catch (e) {
          expect(e).toBeInstanceOf(QueryError);
          continue;
        }
        const tokens = tokenizeSql(`SELECT ${literal} AS x`, name);
        expect(tokens.map((t) => t.type)).toEqual(['word', 'string', 'word', 'word']);
        expect(tokens[1]!.value).toBe(value);
      }
    }
  });
});

describe('identifiers', () => {
  it.each<[string, string, string, string, string]>([
    ['plain', '"plain"', '"plain"', '`plain`', '`plain`'],
    ['a"b', '"a""b"', '"a""b"', '`a"b`', '`a"b`'],
    ['a`b', '"a`b"', '"a`b"', '`a``b`', '`a\\`b`'],
    ['a\\b', '"a\\b"', '"a\\b"', '`a\\b`', '`a\\\\b`'],
    ['订单 表', '"订单 表"', '"订单 表"', '`订单 表`', '`订单 表`'],
  ])('%j', (name, ...expected) => {
    expect([duckdb, postgres, mysql, clickhouse].map((d) => d.quoteIdentifier(name))).toEqual(expected);
  });

  it('round-trip through the tokenizer', () => {
    for (const name of ['a"b', 'a`b', 'a\\b', "o'k", '数图']) {
      for (const d of NAMES) {
        const [token] = tokenizeSql(DIALECTS[d].quoteIdentifier(name), d);
        expect(token).toEqual({ type: 'ident', value: name });
      }
    }
  });

  it('refuses empty names, NUL and lone surrogates', () => {
    for (const d of Object.values(DIALECTS)) {
      for (const bad of ['', 'a\0b', 'a\uD800', 'x'.repeat(256)]) expect(() => d.quoteIdentifier(bad)).toThrow(QueryError);
    }
  });
});

describe('dialect objects', () => {
  it('differ only where their engines do', () => {
    expect(NAMES.map((n) => DIALECTS[n].placeholder === clickhouse.placeholder)).toEqual([false, false, false, true]);
    expect(postgres.placeholder(3)).toBe('$3');
    expect(duckdb.placeholder(3)).toBe('$3');
    expect(mysql.placeholder(3)).toBe('?');
    expect(() => clickhouse.placeholder(1)).toThrow();
    expect(NAMES.filter((n) => DIALECTS[n].capabilities.serverSideParameters)).toEqual(['duckdb', 'postgres', 'mysql']);
    expect(NAMES.filter((n) => DIALECTS[n].capabilities.setOperations)).toEqual(['duckdb', 'postgres']);
    expect(NAMES.filter((n) => DIALECTS[n].capabilities.ilike)).toEqual(['duckdb', 'postgres']);
  });
});
