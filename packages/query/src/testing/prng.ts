/** Seeded randomness for the fuzz and round-trip tests (mulberry32: small, fast, repeatable). */
export type Random = () => number;

export function mulberry32(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const int = (r: Random, min: number, max: number): number => min + Math.floor(r() * (max - min + 1));
export const pick = <T>(r: Random, items: readonly T[]): T => items[Math.floor(r() * items.length)]!;
export const chance = (r: Random, p: number): boolean => r() < p;

/** Pieces that break naive SQL building: quotes, escapes, comments, separators, odd unicode. */
export const NASTY = [
  "'",
  "''",
  '\\',
  "\\'",
  '"',
  '`',
  '--',
  '/*',
  '*/',
  ';',
  '#',
  '\0',
  '\\0',
  '%',
  '_',
  '\n',
  '\r\n',
  '\t',
  '\x1a',
  '\b',
  '$1',
  '?',
  '{1}',
  '[省份]',
  ' OR 1=1',
  "'; DROP TABLE ods_order; --",
  "E'\\x41'",
  "' || '",
  '0x41',
  '1e309',
  '数图',
  '上海',
  '😀',
  'é',
  '\u2028',
  '\uFEFF',
  '\uD800',
  '\uDFFF',
  'ｓｅｌｅｃｔ',
  ')',
  '(',
  ',',
  '\\\\',
  '\u0085',
] as const;

export function randomNastyString(r: Random): string {
  let out = '';
  const parts = int(r, 0, 4);
  for (let i = 0; i < parts; i++) {
    out += chance(r, 0.7) ? pick(r, NASTY) : String.fromCharCode(int(r, 0, 0x2fff));
  }
  return out;
}
