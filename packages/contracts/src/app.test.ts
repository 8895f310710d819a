import { describe, expect, it } from 'vitest';
import { bigdataIdOf, withBigdataId } from './app.ts';

describe('userExtJson.bigdataId', () => {
  it('reads a positive integer (or a string of one), nothing else', () => {
    expect(bigdataIdOf('{"bigdataId":12}')).toBe(12);
    expect(bigdataIdOf('{"bigdataId":" 7 "}')).toBe(7);
    expect(bigdataIdOf('{"bigdataId":0}')).toBeNull();
    expect(bigdataIdOf('{"bigdataId":"x"}')).toBeNull();
    expect(bigdataIdOf('{oops')).toBeNull();
    expect(bigdataIdOf(null)).toBeNull();
  });

  it('writes it keeping the other keys, and removes it', () => {
    expect(withBigdataId('{"工号":"A001"}', 5)).toBe('{"工号":"A001","bigdataId":5}');
    expect(withBigdataId('{"工号":"A001","bigdataId":5}', null)).toBe('{"工号":"A001"}');
    expect(withBigdataId('{"bigdataId":5}', null)).toBeNull();
    expect(withBigdataId(null, 3)).toBe('{"bigdataId":3}');
    expect(withBigdataId('{"level":2}', null)).toBe('{"level":2}');
  });
});
