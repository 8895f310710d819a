import fs from 'node:fs';
import { once } from 'node:events';

/**
 * CSV lines of the order-data file: RFC 4180 (comma, CRLF, quoted when needed, quotes doubled);
 * a text cell starting like a formula (= + - @, tab, CR) gets a leading apostrophe so a
 * spreadsheet shows it as text (OWASP "CSV injection"), as the chart exports do.
 */

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvLine(values: readonly (string | number | null)[], textColumns?: readonly boolean[]): string {
  const fields = values.map((value, i) => {
    if (value === null || value === undefined) return '';
    let out = String(value);
    if ((textColumns?.[i] ?? true) && typeof value === 'string' && FORMULA_START.test(out)) out = `'${out}`;
    return /[",\r\n]/.test(out) ? `"${out.replace(/"/g, '""')}"` : out;
  });
  return `${fields.join(',')}\r\n`;
}

/** Characters gathered before one write to the file (one stream write per line costs more than the line). */
const FLUSH_AT = 64 * 1024;

/** A file written line by line, in 64 KiB writes with back-pressure; `bom`: starts with the UTF-8 byte-order mark (Excel reads the Chinese right). */
export class CsvWriter {
  private readonly out: fs.WriteStream;
  private pending = '';

  constructor(file: string, bom: boolean) {
    this.out = fs.createWriteStream(file, { encoding: 'utf8' });
    if (bom) this.pending = '\ufeff';
  }

  async write(line: string): Promise<void> {
    this.pending += line;
    if (this.pending.length >= FLUSH_AT) await this.flush();
  }

  private async flush(): Promise<void> {
    const chunk = this.pending;
    this.pending = '';
    if (chunk && !this.out.write(chunk)) await once(this.out, 'drain');
  }

  async close(): Promise<void> {
    await this.flush();
    this.out.end();
    await once(this.out, 'finish');
  }
}
