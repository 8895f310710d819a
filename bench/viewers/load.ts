/**
 * The load generator of bench/viewers, run in a child process (run.ts forks it) so that the
 * server process's CPU time (`process.cpuUsage()` there) is the server's alone: run.ts divides
 * it by the answers sent, a figure that moves far less with other load on the box than req/s.
 *
 * Two kinds of load, chosen by the message run.ts sends:
 * - `fixed`: autocannon, one request again and again on `connections` connections;
 * - `mixed`: `connections` clients, each sending its next request as soon as its last one is
 *   answered, over several charts of a board; a share of the requests carries a link filter of
 *   a random set of provinces, which no cache holds (the engine must run). Latency is recorded
 *   per kind (kept / cold), so a cached answer waiting behind engine work shows.
 */
import http from 'node:http';
import autocannon from 'autocannon';

export interface LoadFigures {
  rps: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  timeouts: number;
  answered: number;
}

export interface FixedLoad {
  kind: 'fixed';
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  seconds: number;
}

export interface MixedLoad {
  kind: 'mixed';
  url: string;
  headers: Record<string, string>;
  boardId: number;
  chartKeys: string[];
  /** The field a cold request's link filters on, and the values it picks from. */
  linkFieldId: number;
  linkValues: string[];
  coldShare: number;
  connections: number;
  seconds: number;
}

export type LoadRequest = FixedLoad | MixedLoad;
export type LoadResult = { kind: 'fixed'; figures: LoadFigures } | { kind: 'mixed'; cached: LoadFigures; cold: LoadFigures; overTwoSeconds: number };

async function fixed(load: FixedLoad): Promise<LoadFigures> {
  const result = await autocannon({
    url: load.url,
    connections: load.connections,
    duration: load.seconds,
    method: load.method,
    headers: load.headers,
    body: load.body,
  });
  return {
    rps: result['2xx'] / load.seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.non2xx + result.errors,
    timeouts: result.timeouts,
    answered: result['2xx'],
  };
}

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!);

function figures(latencies: number[], errors: number, seconds: number): LoadFigures {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    rps: sorted.length / seconds,
    p50: Math.round(percentile(sorted, 50)),
    p99: Math.round(percentile(sorted, 99)),
    max: Math.round(sorted[sorted.length - 1] ?? 0),
    errors,
    timeouts: 0,
    answered: sorted.length,
  };
}

/** Random `2..6` distinct values: a link no earlier request is likely to have sent. */
function randomSubset(values: string[]): string[] {
  const size = 2 + Math.floor(Math.random() * 5);
  return [...values].sort(() => Math.random() - 0.5).slice(0, size);
}

async function mixed(load: MixedLoad): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: load.connections });
  const latencies = { cached: [] as number[], cold: [] as number[] };
  const errors = { cached: 0, cold: 0 };
  const end = performance.now() + load.seconds * 1000;
  let next = 0;
  const send = (body: string) =>
    new Promise<number>((resolve, reject) => {
      const request = http.request(load.url, { method: 'POST', agent, headers: { ...load.headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      });
      request.on('error', reject);
      request.end(body);
    });
  const client = async () => {
    while (performance.now() < end) {
      const chartKey = load.chartKeys[next++ % load.chartKeys.length]!;
      const cold = Math.random() < load.coldShare;
      const links = cold ? [{ fieldId: load.linkFieldId, function: 'in', values: randomSubset(load.linkValues) }] : undefined;
      const started = performance.now();
      const status = await send(JSON.stringify(links ? { boardId: load.boardId, chartKey, links } : { boardId: load.boardId, chartKey })).catch(() => 0);
      const kind = cold ? 'cold' : 'cached';
      if (status === 200) latencies[kind].push(performance.now() - started);
      else errors[kind] += 1;
    }
  };
  await Promise.all(Array.from({ length: load.connections }, client));
  agent.destroy();
  const all = [...latencies.cached, ...latencies.cold];
  return {
    kind: 'mixed',
    cached: figures(latencies.cached, errors.cached, load.seconds),
    cold: figures(latencies.cold, errors.cold, load.seconds),
    overTwoSeconds: all.filter((ms) => ms > 2000).length,
  };
}

process.once('message', (message: LoadRequest) => {
  const run = message.kind === 'fixed' ? fixed(message).then((f): LoadResult => ({ kind: 'fixed', figures: f })) : mixed(message);
  run.then(
    (result) => process.send!(result, () => process.exit(0)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
});
