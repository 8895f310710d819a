import type { CanonicalValue } from './bulk.ts';

/**
 * Canonical rows as CSV text for an engine's bulk path (PostgreSQL COPY … (FORMAT csv),
 * MySQL LOAD DATA, ClickHouse FORMAT CSV): NULL is an empty unquoted field, every string is
 * quoted (so '' stays an empty string), numbers and date texts are written as they are.
 */
export function csvText(batch: readonly CanonicalValue[][], nullText = ''): string {
  let out = '';
  for (const row of batch) {
    for (let i = 0; i < row.length; i++) {
      const v = row[i] ?? null;
      if (i > 0) out += ',';
      if (v === null) out += nullText;
      else if (typeof v === 'number') out += String(v);
      else out += `"${v.includes('"') ? v.replace(/"/g, '""') : v}"`;
    }
    out += '\n';
  }
  return out;
}
