/**
 * The ingestion's buffered bulk writer (docs/heatmap.md "Tracker and ingestion"): accepted
 * events wait in memory and are written in bulk — when `maxRows` are waiting, when the oldest
 * has waited `maxDelayMs`, and on close. A batch is acknowledged once it is buffered, so close()
 * (the server's clean stop) writes everything still waiting before the store closes; a write
 * that fails puts its rows back to be tried again with the next flush.
 */

export interface TrackWriterOptions {
  maxRows: number;
  maxDelayMs: number;
  onError?: (error: unknown, rows: number) => void;
}

export class TrackWriter<Row> {
  private buffer: Row[] = [];
  private timer: NodeJS.Timeout | null = null;
  private chain: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly write: (rows: Row[]) => Promise<void>,
    private readonly options: TrackWriterOptions,
  ) {}

  /** Rows waiting to be written. */
  get pending(): number {
    return this.buffer.length;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Buffers rows (all of them or, after close, none: false). */
  add(rows: readonly Row[]): boolean {
    if (this.closed) return false;
    this.buffer.push(...rows);
    if (this.buffer.length >= this.options.maxRows) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.options.maxDelayMs);
      this.timer.unref();
    }
    return true;
  }

  /** Writes what is waiting now, after any write already under way; resolves when it is written (or put back). */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const rows = this.buffer;
    this.buffer = [];
    if (rows.length === 0) return this.chain;
    this.chain = this.chain.then(async () => {
      try {
        await this.write(rows);
      } catch (error) {
        this.buffer = rows.concat(this.buffer);
        this.options.onError?.(error, rows.length);
        if (!this.closed && !this.timer) {
          this.timer = setTimeout(() => void this.flush(), this.options.maxDelayMs);
          this.timer.unref();
        }
      }
    });
    return this.chain;
  }

  /** Refuses new rows and writes every row acknowledged so far (one more try for rows a failed write put back). */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
    if (this.buffer.length > 0) await this.flush();
  }
}
