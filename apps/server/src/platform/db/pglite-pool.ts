import { PGlite } from '@electric-sql/pglite';

export type SqlCommand = 'SELECT' | 'UPDATE' | 'DELETE' | 'INSERT' | 'MERGE';

export interface QueryResult {
  command: SqlCommand;
  rowCount: number;
  rows: Record<string, unknown>[];
}

export interface PoolClient {
  query(sql: string, parameters?: readonly unknown[]): Promise<QueryResult>;
  release(): void;
}

/**
 * PGlite is one connection inside this process. This wraps it as the small pool
 * interface that Kysely's PostgresDialect and our pg-boss adapter expect, with a
 * lock so a transaction owns the connection until it releases it: without the lock
 * a job query could land inside somebody else's open transaction.
 */
export class PGlitePool {
  private queue: Promise<void> = Promise.resolve();

  constructor(readonly pglite: PGlite) {}

  async connect(): Promise<PoolClient> {
    let release!: () => void;
    const previous = this.queue;
    this.queue = new Promise<void>((resolve) => (release = resolve));
    await previous;
    let released = false;
    return {
      query: (sql, parameters) => runOnPGlite(this.pglite, sql, parameters),
      release: () => {
        if (!released) {
          released = true;
          release();
        }
      },
    };
  }

  /** One statement (or a parameterless script) outside any transaction. */
  async query(sql: string, parameters?: readonly unknown[]): Promise<QueryResult> {
    const client = await this.connect();
    try {
      return await client.query(sql, parameters);
    } finally {
      client.release();
    }
  }

  async end(): Promise<void> {
    await this.queue;
    await this.pglite.close();
  }
}

const MULTIPLE_COMMANDS = /cannot insert multiple commands into a prepared statement/;

async function runOnPGlite(pglite: PGlite, sql: string, parameters?: readonly unknown[]): Promise<QueryResult> {
  const params = parameters ? [...parameters] : [];
  try {
    const result = await pglite.query<Record<string, unknown>>(sql, params);
    const command = commandOf(sql);
    // Like pg: a write reports the rows it touched, a read the rows it returned (PGlite says 0).
    const rowCount = command === 'SELECT' ? result.rows.length : (result.affectedRows ?? result.rows.length);
    return { command, rowCount, rows: result.rows };
  } catch (error) {
    // PGlite's query() takes one statement; scripts without parameters go through exec().
    if (params.length === 0 && error instanceof Error && MULTIPLE_COMMANDS.test(error.message)) {
      const results = await pglite.exec(sql);
      const last = results.at(-1);
      return { command: 'SELECT', rowCount: last?.affectedRows ?? 0, rows: (last?.rows ?? []) as Record<string, unknown>[] };
    }
    throw error;
  }
}

/** Kysely reads the command to report affected rows of writes. */
function commandOf(sql: string): SqlCommand {
  const match = /^\s*(?:with\b[\s\S]*?\)\s*)?(insert|update|delete|merge)\b/i.exec(sql);
  return (match?.[1]?.toUpperCase() as SqlCommand | undefined) ?? 'SELECT';
}
