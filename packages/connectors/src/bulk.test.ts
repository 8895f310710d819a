import { clickhouse, duckdb, mysql, postgres } from '@shutu/query';
import { describe, expect, it } from 'vitest';
import { canonicalRow, checkColumns, newIdentifier, parseDateTime } from './bulk.ts';
import { ConnectorError } from './errors.ts';
import { inlineParams } from './placeholders.ts';
import type { LoadColumn } from './types.ts';

const refusal = (fn: () => unknown): ConnectorError => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConnectorError);
    return error as ConnectorError;
  }
  throw new Error('expected a refusal');
};

describe('bulk-load values', () => {
  it.each([
    ['2024-03-05', '2024-03-05 00:00:00'],
    ['2024/3/5 8:30', '2024-03-05 08:30:00'],
    ['2024.03.05 08:30:15.250', '2024-03-05 08:30:15.25'],
    ['20240305', '2024-03-05 00:00:00'],
    ['2024年3月5日', '2024-03-05 00:00:00'],
    ['2024-03-05T10:00:00Z', '2024-03-05 10:00:00'],
    ['2024-03-05T10:00:00+08:00', '2024-03-05 02:00:00'],
    ['2024-02-30', null],
    ['2024-13-01', null],
    ['25:00', null],
    ['明天', null],
  ])('date-time %s', (text, expected) => {
    expect(parseDateTime(text)).toBe(expected);
  });

  const columns: LoadColumn[] = [
    { name: 'n', type: 'NUMBER' },
    { name: 'i', type: 'INTEGER' },
    { name: 's', type: 'STRING' },
    { name: 't', type: 'DATETIME' },
    { name: 'd', type: 'DATE' },
  ];

  it('coerces each type and reads empty cells as NULL', () => {
    expect(canonicalRow(columns, ['1,234.5', '9007199254740993', 12, '2024/1/2', '2024-01-02 10:00'], 1)).toEqual([
      1234.5,
      '9007199254740993',
      '12',
      '2024-01-02 00:00:00',
      '2024-01-02',
    ]);
    expect(canonicalRow(columns, ['', ' ', '', '', undefined], 1)).toEqual([null, null, '', null, null]);
    expect(canonicalRow(columns, [true, 7n, null, new Date(Date.UTC(2024, 0, 2, 3, 4, 5)), null], 1)).toEqual([1, 7, null, '2024-01-02 03:04:05', null]);
  });

  it('refuses bad values with the row and column', () => {
    expect(refusal(() => canonicalRow(columns, ['abc', 1, '', null, null], 7)).message).toBe('第 7 行【n】的值“abc”不是数字');
    expect(refusal(() => canonicalRow(columns, [1, 1.5, '', null, null], 2)).message).toBe('第 2 行【i】的值“1.5”不是整数');
    expect(refusal(() => canonicalRow(columns, [1, 1, '', '2024-02-30', null], 3)).message).toBe('第 3 行【t】的值“2024-02-30”不是有效的日期时间');
    expect(refusal(() => canonicalRow(columns, [1], 4)).message).toBe('第 4 行有 1 个值，应为 5 个');
  });

  it('checks the names of new tables and columns', () => {
    expect(newIdentifier(postgres, '订单表')).toBe('"订单表"');
    expect(newIdentifier(mysql, 'a`b')).toBe('`a``b`');
    expect(refusal(() => newIdentifier(duckdb, '')).kind).toBe('invalid');
    expect(refusal(() => newIdentifier(duckdb, ' padded')).kind).toBe('invalid');
    expect(refusal(() => newIdentifier(duckdb, '表'.repeat(22))).kind).toBe('invalid');
    expect(refusal(() => newIdentifier(duckdb, 'a\nb')).kind).toBe('invalid');
    expect(refusal(() => checkColumns(duckdb, [])).message).toBe('请至少提供一列');
  });
});

describe('inlined parameters (engines without server-side parameters)', () => {
  it('escapes each value with the dialect and skips quoted text and comments', () => {
    const sql = "SELECT '?' AS q, `a?` AS b, ? AS s, ? AS n, ? AS neg, ? AS nul /* ? */ -- ?\n FROM t WHERE x = ?";
    expect(inlineParams(clickhouse, sql, ["it's \\ \n", 12.5, -3, null, '中文'])).toBe(
      "SELECT '?' AS q, `a?` AS b, 'it\\'s \\\\ \\n' AS s, 12.5 AS n, (-3) AS neg, NULL AS nul /* ? */ -- ?\n FROM t WHERE x = '中文'",
    );
  });

  it('refuses a count mismatch', () => {
    expect(refusal(() => inlineParams(clickhouse, 'SELECT ?', [1, 2])).message).toBe('SQL 中的参数占位符有 1 个，提供了 2 个值');
    expect(refusal(() => inlineParams(clickhouse, 'SELECT ?, ?', [1])).kind).toBe('invalid');
    expect(inlineParams(clickhouse, 'SELECT 1', [])).toBe('SELECT 1');
  });
});

describe('canonicalRow fast path', () => {
  it('keeps canonical values as coerce would, and still refuses what coerce refuses', () => {
    const columns = [
      { name: 'n', type: 'NUMBER' as const },
      { name: 's', type: 'STRING' as const },
      { name: 't', type: 'DATETIME' as const },
    ];
    for (const t of ['2024-03-05 08:30:00', '2024-02-29 23:59:59', '1000-01-01 00:00:00']) {
      expect(canonicalRow(columns, [1.5, 'x', t], 1)).toEqual([1.5, 'x', parseDateTime(t)]);
    }
    for (const bad of ['2023-02-29 00:00:00', '2024-04-31 00:00:00', '0050-01-01 00:00:00', '2024-03-05 24:00:00']) {
      expect(() => canonicalRow(columns, [1, 'x', bad], 7)).toThrow(/第 7 行【t】/);
    }
    expect(() => canonicalRow(columns, [Infinity, 'x', null], 3)).toThrow(/第 3 行【n】/);
  });
});
