/**
 * Deterministic pseudo-random numbers for the demo warehouse, computed inside DuckDB.
 *
 * Every random value is a pure function of (seed, stream name, row number): DuckDB's `hash()` of
 * (row, base(seed, stream)), reduced to a range. `hash()` is pure integer arithmetic (a murmur-style
 * mixer), the same on every machine and thread count; no `random()`/`setseed`, no floating point.
 * The stream bases are computed here in JavaScript. A DuckDB upgrade could in principle change
 * `hash()`: the golden-checksum test (determinism.test.ts) would catch it; then bump GENERATOR_VERSION.
 */

/** lowbias32 (Chris Wellons' hash-prospector): a bijection on 32-bit integers. */
export function lowbias32(input: number): number {
  let x = input >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d) >>> 0;
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b) >>> 0;
  x ^= x >>> 16;
  return x >>> 0;
}

/** FNV-1a over UTF-16 code units: a stable 32-bit number for a stream name. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h >>> 0;
}

/**
 * SQL of the temporary macros (connection-scoped; nothing is left in the warehouse file).
 * `_dw_h(i, b)` is a 64-bit hash; `_dw_u(i, b, n)` a BIGINT uniform in [0, n).
 */
export const HASH_MACROS_SQL = `
CREATE OR REPLACE TEMP MACRO _dw_h(i, b) AS hash((i)::BIGINT, (b)::BIGINT);
CREATE OR REPLACE TEMP MACRO _dw_u(i, b, n) AS (_dw_h(i, b) % ((n)::UBIGINT))::BIGINT;
`;

/** Builds SQL expressions for one seed. Stream names keep unrelated columns independent. */
export class SqlRandom {
  private readonly seedMix: number;

  constructor(seed: number) {
    // Fold any safe integer into 32 bits (high and low halves both count).
    const hi = Math.floor(seed / 0x100000000) >>> 0;
    this.seedMix = lowbias32(lowbias32(seed >>> 0) ^ lowbias32(hi ^ 0x5bd1e995));
  }

  /** The per-stream constant added before mixing. */
  base(stream: string): number {
    return lowbias32(this.seedMix ^ fnv1a(stream));
  }

  /** 64-bit hash (UBIGINT) of row expression `i` in `stream`. */
  hash(i: string, stream: string): string {
    return `_dw_h(${i}, ${this.base(stream)})`;
  }

  /** Uniform integer in [0, n) (BIGINT); `n` may be an SQL expression. */
  int(i: string, stream: string, n: number | string): string {
    return `_dw_u(${i}, ${this.base(stream)}, ${n})`;
  }

  /** True with probability pct/100. */
  chance(i: string, stream: string, pct: number): string {
    return `(${this.int(i, stream, 100)} < ${pct})`;
  }

  /** One element of a constant SQL list literal, chosen uniformly (1-based list indexing). */
  pick(i: string, stream: string, listSql: string, length: number): string {
    return `${listSql}[${this.int(i, stream, length)} + 1]`;
  }
}

/** Quotes a string as an SQL literal. */
export function lit(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** A constant SQL list literal of strings or numbers. */
export function list(values: readonly (string | number)[]): string {
  return `[${values.map((v) => (typeof v === 'number' ? String(v) : lit(v))).join(', ')}]`;
}

/** Expands integer weights into a slot list (index repeated `weight` times) for weighted picks. */
export function slots(weights: readonly number[]): number[] {
  const out: number[] = [];
  weights.forEach((w, index) => {
    for (let k = 0; k < w; k++) out.push(index);
  });
  return out;
}
