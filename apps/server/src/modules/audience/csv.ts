import { Readable } from 'node:stream';
import type { AudienceMemberColumn } from '@shutu/contracts';
import type { Row } from '@shutu/connectors';

/**
 * Members as CSV (UTF-8 with BOM, so spreadsheet programs read the Chinese headers): streamed row
 * by row. A field starting with = + - @ or a tab is prefixed with ' so a spreadsheet shows it as
 * text (OWASP "CSV injection").
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let s = String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function membersCsv(columns: readonly AudienceMemberColumn[], rows: AsyncIterable<Row>): Readable {
  async function* lines(): AsyncGenerator<string> {
    yield `\uFEFF${columns.map((c) => csvField(c.title)).join(',')}\r\n`;
    let chunk = '';
    for await (const row of rows) {
      chunk += `${columns.map((c) => csvField(row[c.name])).join(',')}\r\n`;
      if (chunk.length > 64 * 1024) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk) yield chunk;
  }
  return Readable.from(lines());
}
