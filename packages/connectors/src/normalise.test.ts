import { describe, expect, it } from 'vitest';
import { kindOfType, normalise, timestampTzValue, uniqueNames, viewDataTypeOf } from './normalise.ts';

describe('normalise', () => {
  it('keeps safe integers as numbers and bigger ones as exact text', () => {
    expect(normalise('int', '42')).toBe(42);
    expect(normalise('int', 42n)).toBe(42);
    expect(normalise('int', '9007199254740991')).toBe(9007199254740991);
    expect(normalise('int', '9007199254740993')).toBe('9007199254740993');
    expect(normalise('int', -9007199254740993n)).toBe('-9007199254740993');
    expect(normalise('int', '18446744073709551615')).toBe('18446744073709551615');
  });

  it('reads decimals as numbers and rounds float noise to 15 significant digits', () => {
    expect(normalise('decimal', '1234.50')).toBe(1234.5);
    expect(normalise('decimal', '-0.00')).toBe(0);
    expect(normalise('float', 0.1 + 0.2)).toBe(0.3);
    expect(normalise('float', '234.79000000000002')).toBe(234.79);
    expect(normalise('float', 9007199254740992)).toBe(9007199254740992);
    expect(normalise('float', 'nan')).toBe('NaN');
    expect(normalise('float', 'inf')).toBe('Infinity');
    expect(normalise('float', '-Infinity')).toBe('-Infinity');
  });

  it('spells dates and timestamps as ISO text', () => {
    expect(normalise('date', '2024-03-05')).toBe('2024-03-05');
    expect(normalise('date', '0000-00-00')).toBeNull();
    expect(normalise('timestamp', '2024-03-05 10:20:30')).toBe('2024-03-05T10:20:30');
    expect(normalise('timestamp', '2024-03-05 10:20:30.120000')).toBe('2024-03-05T10:20:30.12');
    expect(normalise('timestamp', '2024-03-05 10:20:30.000000')).toBe('2024-03-05T10:20:30');
    expect(normalise('timestamp', new Date(Date.UTC(2024, 2, 5, 1, 2, 3)))).toBe('2024-03-05T01:02:03');
    expect(normalise('time', '1:02:03.500')).toBe('01:02:03.5');
  });

  it('turns a timestamp with a zone into the UTC instant', () => {
    expect(timestampTzValue('2024-01-02 03:04:05+08')).toBe('2024-01-01T19:04:05Z');
    expect(timestampTzValue('2024-01-02 03:04:05.25-05:30')).toBe('2024-01-02T08:34:05.25Z');
    expect(timestampTzValue('2024-01-01 19:04:05+00')).toBe('2024-01-01T19:04:05Z');
  });

  it('reads booleans, binary and nested values', () => {
    expect(normalise('bool', 't')).toBe(true);
    expect(normalise('bool', 0)).toBe(false);
    expect(normalise('binary', new Uint8Array([1, 2, 255]))).toBe('AQL/');
    expect(normalise('json', { a: [1, 2n] })).toBe('{"a":[1,2]}');
    expect(normalise('string', null)).toBeNull();
  });
});

describe('type names', () => {
  it.each([
    ['integer', 'NUMBER'],
    ['bigint', 'NUMBER'],
    ['numeric(18,2)', 'NUMBER'],
    ['double precision', 'NUMBER'],
    ['tinyint(1) unsigned', 'NUMBER'],
    ['Nullable(Decimal(18, 2))', 'NUMBER'],
    ['UInt64', 'NUMBER'],
    ['LowCardinality(Nullable(Float32))', 'NUMBER'],
    ['HUGEINT', 'NUMBER'],
    ['date', 'DATETIME'],
    ['timestamp without time zone', 'DATETIME'],
    ['TIMESTAMP WITH TIME ZONE', 'DATETIME'],
    ["DateTime('Asia/Shanghai')", 'DATETIME'],
    ['datetime(6)', 'DATETIME'],
    ['Nullable(Date)', 'DATETIME'],
    ['character varying(50)', 'STRING'],
    ['integer[]', 'STRING'],
    ['Array(UInt8)', 'STRING'],
    ['time without time zone', 'STRING'],
    ['boolean', 'STRING'],
    ['interval', 'STRING'],
    ["enum('a','b')", 'STRING'],
    ['internal', 'STRING'],
  ])('%s → %s', (type, expected) => {
    expect(viewDataTypeOf(type)).toBe(expected);
  });

  it('knows the value kind behind each spelling', () => {
    expect(kindOfType('Nullable(UInt64)')).toBe('int');
    expect(kindOfType('timestamptz')).toBe('timestamptz');
    expect(kindOfType('DECIMAL(10,2)')).toBe('decimal');
    expect(kindOfType('Float64')).toBe('float');
  });

  it('makes duplicate result names unique', () => {
    expect(uniqueNames(['a', 'b', 'a', 'a_2', 'a'])).toEqual(['a', 'b', 'a_2', 'a_2_2', 'a_3']);
  });
});
