import { describe, expect, it } from 'vitest';
import { defaultCapabilities } from './capabilities.ts';
import { ConnectorError, networkError, queryFailed } from './errors.ts';
import { collect, GuardedQueryStream, SERVER_TIMEOUT_GRACE_MS, type Execution, type Executor } from './stream.ts';
import type { Row } from './types.ts';

/** An executor that yields `batches` batches, then hangs until stopped (like a busy server). */
function fake(batches: number, log: string[]): Executor {
  return async function* (execution: Execution) {
    const stopped = new Promise<never>((_, reject) => execution.onCancel(() => (log.push('stop'), reject(new Error('interrupted')))));
    stopped.catch(() => undefined);
    try {
      execution.setColumns([{ name: 'n', databaseType: 'INTEGER', viewDataType: 'NUMBER' }]);
      for (let i = 0; i < batches; i++) yield [{ n: i }] as Row[];
      await stopped;
    } finally {
      log.push('released');
    }
  };
}

const mapper = (error: unknown) => (error instanceof ConnectorError ? error : queryFailed(error));
const embedded = defaultCapabilities('duckdb');

async function failure(promise: Promise<unknown>): Promise<ConnectorError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConnectorError);
  return error as ConnectorError;
}

describe('GuardedQueryStream', () => {
  it('interrupts at the timeout itself when the engine has no statement timeout', async () => {
    const log: string[] = [];
    const started = Date.now();
    const error = await failure(collect(new GuardedQueryStream(embedded, 200, undefined, fake(2, log), mapper)));
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe('查询超时：执行超过 0.2 秒已被终止，请缩小查询范围或增加筛选条件');
    expect(Date.now() - started).toBeLessThan(200 + 500);
    expect(log).toEqual(['stop', 'released']);
  });

  it('leaves the timeout to the server when it has one, stepping in after a grace period', async () => {
    const log: string[] = [];
    const started = Date.now();
    const error = await failure(collect(new GuardedQueryStream(defaultCapabilities('postgres'), 100, undefined, fake(0, log), mapper)));
    expect(error.kind).toBe('timeout');
    expect(Date.now() - started).toBeGreaterThanOrEqual(100 + SERVER_TIMEOUT_GRACE_MS - 50);
  });

  it('cancels by cancel(), by signal and by leaving the loop, releasing each time', async () => {
    const log: string[] = [];
    const stream = new GuardedQueryStream(embedded, 10_000, undefined, fake(3, log), mapper);
    const seen: Row[] = [];
    const error = await failure(
      (async () => {
        for await (const row of stream) {
          seen.push(row);
          if (seen.length === 2) stream.cancel();
        }
      })(),
    );
    expect([error.kind, seen.length, stream.columns?.[0]?.name]).toEqual(['cancelled', 2, 'n']);

    const aborted = new AbortController();
    aborted.abort();
    expect((await failure(collect(new GuardedQueryStream(embedded, 10_000, aborted.signal, fake(1, log), mapper)))).kind).toBe('cancelled');

    const early: string[] = [];
    for await (const _row of new GuardedQueryStream(embedded, 10_000, undefined, fake(5, early), mapper)) break;
    expect(early).toEqual(['released']);
  });

  it('maps engine errors and iterates once', async () => {
    const broken: Executor = async function* () {
      yield [];
      throw new Error('relation "x" does not exist');
    };
    const stream = new GuardedQueryStream(embedded, 1000, undefined, broken, mapper);
    const error = await failure(collect(stream));
    expect(error.message).toBe('查询执行失败：relation "x" does not exist');
    expect(error.detail).toBe('relation "x" does not exist');
    expect(() => stream[Symbol.asyncIterator]()).toThrow();
    expect(() => stream.batches()).toThrow();
  });

  it('gives the rows in the driver batches with the same guards', async () => {
    const rowsOf = (n: number): Executor =>
      async function* (execution: Execution) {
        execution.setColumns([{ name: 'n', databaseType: 'INTEGER', viewDataType: 'NUMBER' }]);
        yield [{ n: 0 }, { n: 1 }] as Row[];
        yield [];
        for (let i = 2; i < n; i++) yield [{ n: i }] as Row[];
      };
    const batches: Row[][] = [];
    for await (const batch of new GuardedQueryStream(embedded, 1000, undefined, rowsOf(4), mapper).batches()) batches.push(batch);
    // Empty batches are not handed out.
    expect(batches).toEqual([[{ n: 0 }, { n: 1 }], [{ n: 2 }], [{ n: 3 }]]);

    const log: string[] = [];
    const stream = new GuardedQueryStream(embedded, 10_000, undefined, fake(5, log), mapper);
    let taken = 0;
    const error = await failure(
      (async () => {
        for await (const _batch of stream.batches()) if (++taken === 2) stream.cancel();
      })(),
    );
    expect([error.kind, taken, log]).toEqual(['cancelled', 2, ['stop', 'released']]);
    expect(() => stream[Symbol.asyncIterator]()).toThrow();
  });
});

describe('connection errors', () => {
  const where = { host: 'db.example', port: 5432 };
  it('words refused, unknown-host and timed-out connections in Chinese', () => {
    expect(networkError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), where, 3500)?.message).toBe(
      '无法连接数据源 db.example:5432（连接被拒绝），请检查主机地址、端口和网络',
    );
    expect(networkError(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }), where, 3500)?.message).toBe(
      '无法解析数据源主机名【db.example】，请检查主机地址',
    );
    expect(networkError(new Error('timeout expired'), where, 3500)?.message).toBe(
      '连接数据源 db.example:5432 超时（3.5 秒内无响应），请检查主机地址、端口和网络',
    );
    expect(networkError(new AggregateError([Object.assign(new Error('x'), { code: 'EHOSTUNREACH' })]), where, 3500)?.kind).toBe('unreachable');
    expect(networkError(new Error('syntax error at or near "x"'), where, 3500)).toBeNull();
  });
});
