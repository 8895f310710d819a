import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { TrackRow } from './track-repo.ts';

/**
 * The ingestion writer's sink on a PostgreSQL store (docs/heatmap.md "Buffered bulk writer"):
 * `COPY track_event FROM STDIN` in text format on one connection of its own, the cheapest way
 * into PostgreSQL for both sides (no parameters to serialise, no arrays to parse). A COPY is one
 * statement: it stores all its rows or none, so a failed write is put back whole by the writer.
 * The connection is opened on first use and dropped after a failure (the next write reopens it).
 */

const COLUMNS = 'site_id, event, event_time, distinct_id, phone, page_title, url, platform_type, project, x, y, page_width';

/** A value in COPY's text format: backslash, tab, newline and carriage return escaped; null as \N. */
export function copyText(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'number') return String(value);
  return value.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

export function copyLine(r: TrackRow): string {
  const time = new Date(r.eventTime).toISOString();
  return `${r.siteId}\t${copyText(r.event)}\t${time}\t${copyText(r.distinctId)}\t${copyText(r.phone)}\t${copyText(r.pageTitle)}\t${copyText(r.url)}\t${copyText(r.platformType)}\t${copyText(r.project)}\t${r.x}\t${r.y}\t${r.pageWidth}\n`;
}

export class CopySink {
  private client: pg.Client | null = null;

  constructor(private readonly connectionString: string) {}

  private async connect(): Promise<pg.Client> {
    if (this.client) return this.client;
    const client = new pg.Client({ connectionString: this.connectionString });
    // A connection that dies while idle is dropped; the next write opens another.
    client.on('error', () => {
      if (this.client === client) this.client = null;
    });
    await client.connect();
    this.client = client;
    return client;
  }

  async write(rows: readonly TrackRow[]): Promise<void> {
    if (rows.length === 0) return;
    const client = await this.connect();
    try {
      const text = rows.map(copyLine).join('');
      await pipeline(Readable.from([text]), client.query(copyFrom(`COPY track_event (${COLUMNS}) FROM STDIN`)));
    } catch (error) {
      this.client = null;
      await client.end().catch(() => undefined);
      throw error;
    }
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}
