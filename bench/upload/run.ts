/**
 * Upload benchmark: a 1-million-row CSV through the HTTP API into a file table of the
 * built-in DuckDB warehouse (structure call, which receives the file, then the confirm call
 * that names it by its fileToken, as the web client does, and loads every row through the
 * driver's bulk path). Prints rows/s and the server's peak memory, and DuckDB's
 * own read_csv of the same file as the raw-engine reference.
 *
 *   npx tsx bench/upload/run.ts                          # starts a server in this process (temp data dir)
 *   npx tsx bench/upload/run.ts --rows 100000
 *   npx tsx bench/upload/run.ts --url http://localhost:8080 --pid <server pid>   # a running server
 *   npx tsx bench/upload/run.ts --target postgres://postgres@127.0.0.1:5432/test  # into a PostgreSQL source (COPY)
 *   npx tsx bench/upload/run.ts --runs 3                 # 3 rounds, each raw read_csv then the upload; median ratio
 *   npx tsx bench/upload/run.ts --resend                 # the confirm call sends the file again instead of its fileToken
 *   npx tsx bench/upload/run.ts --xlsx                   # the same rows as an xlsx (raw reference: read_csv of their CSV)
 *
 * In-process, the peak RSS is the server's (the client is a child process streaming the file from disk). Each round
 * measures the raw engine right before the upload, so a round's ratio shares the box's load; a
 * second raw figure reads the file into a table of a DuckDB database file (compressed, written to
 * disk: what the upload's table is) beside the in-memory one.
 */
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import pino from 'pino';
import { loadConfig } from '../../apps/server/src/platform/config.ts';
import { md5Hex } from '../../apps/server/src/platform/auth/password.ts';
import { startServer, type RunningServer } from '../../apps/server/src/server.ts';
import { generateCsv, generateXlsx, HEADER } from './generate.ts';

const execFileAsync = promisify(execFile);
v8.setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
const require = createRequire(import.meta.url);

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    file: { type: 'string' },
    url: { type: 'string' },
    pid: { type: 'string' },
    account: { type: 'string', default: 'admin' },
    password: { type: 'string', default: 'admin123' },
    /** A PostgreSQL URL: the file table goes to a data source on it (COPY FROM STDIN) instead of the built-in warehouse. */
    target: { type: 'string' },
    runs: { type: 'string', default: '1' },
    /** The confirm call sends the file again (the spec's form) instead of naming the structure call's by its fileToken. */
    resend: { type: 'boolean', default: false },
    /** Uploads the same rows as an xlsx (streamed sheet, row path); DuckDB's read_csv of their CSV stays the reference. */
    xlsx: { type: 'boolean', default: false },
  },
});
const rows = Number(values.rows);
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** VmRSS / VmHWM of a process, in bytes (Linux). */
function procMemory(pid: number | 'self', field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** The DuckDB engine process of a server process (SHUTU_DUCKDB_PROCESS, default on), when it has one. */
function enginePidOf(pid: number | 'self'): number | null {
  const parent = pid === 'self' ? process.pid : pid;
  const line = spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(parent)], { encoding: 'utf8' })
    .stdout.split('\n')
    .find((l) => l.includes('duckdb-host'));
  return line ? Number(line.trim().split(/\s+/)[0]) : null;
}

async function json<T>(base: string, method: string, url: string, token: string | null, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const parsed = (await res.json()) as { code: number; msg: string; data: T };
  if (res.status !== 200) throw new Error(`${method} ${url}: ${res.status} ${parsed.msg}`);
  return parsed.data;
}

/**
 * POSTs a multipart form with the file streamed from disk (chunked, never buffered whole), from a
 * child process that times the call itself: reading the file and writing it to the socket are the
 * client's work (a browser's), not the server's thread's (until session 23 they shared it).
 */
async function postMultipart(
  base: string,
  url: string,
  token: string,
  fields: Record<string, string>,
  file: string | null,
): Promise<{ status: number; body: { msg: string; data: unknown }; millis: number }> {
  const script = `
    const fs = await import('node:fs');
    const http = await import('node:http');
    const path = await import('node:path');
    const { Readable } = await import('node:stream');
    const [target, token, fieldsJson, file] = process.argv.slice(1);
    const fields = JSON.parse(fieldsJson);
    const boundary = '----shutubench' + Date.now();
    const head =
      Object.entries(fields).map(([k, v]) => '--' + boundary + '\\r\\nContent-Disposition: form-data; name="' + k + '"\\r\\n\\r\\n' + v + '\\r\\n').join('') +
      (file ? '--' + boundary + '\\r\\nContent-Disposition: form-data; name="file"; filename="' + path.basename(file) + '"\\r\\nContent-Type: text/csv\\r\\n\\r\\n' : '');
    const body = Readable.from((async function* () {
      yield Buffer.from(head);
      if (file) {
        yield* fs.createReadStream(file, { highWaterMark: 1 << 20 });
        yield Buffer.from('\\r\\n');
      }
      yield Buffer.from('--' + boundary + '--\\r\\n');
    })());
    const started = performance.now();
    const req = http.request(target, { method: 'POST', headers: { authorization: 'Bearer ' + token, 'content-type': 'multipart/form-data; boundary=' + boundary } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => console.log(JSON.stringify({ status: res.statusCode, body: JSON.parse(text), millis: performance.now() - started })));
    });
    req.on('error', (error) => { console.error(error); process.exit(1); });
    body.pipe(req);`;
  const { stdout } = await execFileAsync(process.execPath, ['--input-type=module', '-e', script, `${base}${url}`, token, JSON.stringify(fields), file ?? ''], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout) as { status: number; body: { msg: string; data: unknown }; millis: number };
}

/**
 * DuckDB reading the same file itself: the floor for "CSV into a table" (in memory, or into a database file).
 * In a child process, so that its memory does not count in the in-process server's RSS; it reports
 * its own growth too (peak RSS during the statement over RSS before it), the raw engine's memory
 * beside the engine process's.
 */
async function rawDuckDb(file: string, database = ':memory:'): Promise<{ millis: number; growth: number }> {
  const script = `
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const fs = await import('node:fs');
    const memory = (field) => Number(fs.readFileSync('/proc/self/status', 'utf8').split('\\n').find((l) => l.startsWith(field + ':')).replace(/[^0-9]/g, '')) * 1024;
    const [file, database] = process.argv.slice(1);
    const instance = await DuckDBInstance.create(database);
    const connection = await instance.connect();
    const before = memory('VmRSS');
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, memory('VmRSS'))), 20);
    const started = performance.now();
    await connection.run("CREATE TABLE t AS SELECT * FROM read_csv('" + file.replace(/'/g, "''") + "', header = true)");
    if (database !== ':memory:') await connection.run('CHECKPOINT');
    const millis = performance.now() - started;
    clearInterval(sampler);
    console.log(JSON.stringify({ millis, growth: Math.max(peak, memory('VmRSS')) - before }));
    connection.closeSync();
    instance.closeSync();`;
  try {
    const { stdout } = await execFileAsync(process.execPath, ['--input-type=module', '-e', script, file, database], {
      cwd: path.dirname(require.resolve('@duckdb/node-api')),
    });
    return JSON.parse(stdout.trim()) as { millis: number; growth: number };
  } finally {
    if (database !== ':memory:') for (const f of [database, `${database}.wal`]) fs.rmSync(f, { force: true });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-bench-upload-'));
let server: RunningServer | undefined;
try {
  const csv = values.file ?? path.join(dataDir, `orders-${rows}.csv`);
  if (!values.file) {
    const g = await generateCsv(csv, rows);
    console.log(`generated ${rows.toLocaleString('en')} rows, ${mib(g.bytes)} MiB in ${g.millis} ms`);
  }
  const file = values.xlsx ? path.join(dataDir, `orders-${rows}.xlsx`) : csv;
  if (values.xlsx) {
    const g = await generateXlsx(file, rows);
    console.log(`the same rows as an xlsx: ${mib(g.bytes)} MiB in ${g.millis} ms (exceljs)`);
  }
  const size = fs.statSync(file).size;
  let base = values.url;
  if (!base) {
    const config = {
      ...loadConfig({ ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', SHUTU_ADMIN_PASSWORD: values.password }),
      databaseUrl: undefined,
      webDist: undefined,
    };
    server = await startServer(config, pino({ level: 'warn' }), { jobs: false });
    base = server.url;
  }
  const pid = values.pid ? Number(values.pid) : server ? ('self' as const) : null;
  const login = await json<{ token: string }>(base, 'POST', '/api/auth/login', null, { account: values.account, password: md5Hex(values.password!) });
  const token = login.token;
  const sources = await json<{ records: { id: number; isBuiltin: boolean }[] }>(base, 'GET', '/api/datasource?size=100', token);
  let dsId = sources.records.find((s) => s.isBuiltin)!.id;
  if (values.target) {
    const url = new URL(values.target);
    const created = await json<{ id: number }>(base, 'POST', '/api/datasource', token, {
      dsDb: `上传基准PG${Date.now()}`,
      type: 'postgres',
      host: url.hostname,
      port: Number(url.port || 5432),
      database: url.pathname.slice(1),
      username: decodeURIComponent(url.username),
      ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    });
    dsId = created.id;
  }

  // Opens the target (and starts the built-in warehouse's engine process, whose memory each round measures).
  await json(base, 'POST', `/api/datasource/${dsId}/test`, token);
  const runs = Math.max(1, Number(values.runs));
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
  console.log(`load average before: ${load()} (${os.cpus().length} cores)`);
  const rounds: { raw: number; rawFile: number; structure: number; confirm: number; peak: number; structurePeak: number; baseline: number | null }[] = [];
  let loaded = 0;
  let columns: { columnName: string; columnType: string }[] = [];
  for (let round = 0; round < runs; round++) {
    const rawMemory = await rawDuckDb(csv);
    const rawIntoFile = await rawDuckDb(csv, path.join(dataDir, `raw-${round}.duckdb`));
    const [raw, rawFile] = [rawMemory.millis, rawIntoFile.millis];
    // In-process: the server's heap collected first, so the growth is the upload's (its garbage
    // included), not whatever the start or the round before left uncollected (baselines moved 530–930 MiB).
    if (server) collectGarbage();
    let peak = 0;
    // The peak of each call apart: receiving the upload for the structure call, then the confirm call's load.
    let structurePeak = 0;
    const baseline = pid === null ? null : procMemory(pid, 'VmRSS');
    // The engine's memory is measured beside the server's, never hidden.
    const engine = pid === null ? null : enginePidOf(pid);
    const engineBaseline = engine === null ? null : procMemory(engine, 'VmRSS');
    let enginePeak = engineBaseline ?? 0;
    const sampler = setInterval(() => {
      const rss = pid === null ? null : procMemory(pid, 'VmRSS');
      if (rss !== null) peak = Math.max(peak, rss);
      const engineRss = engine === null ? null : procMemory(engine, 'VmRSS');
      if (engineRss !== null) enginePeak = Math.max(enginePeak, engineRss);
    }, 20);

    const structure = await postMultipart(base, '/api/filetable/structure', token, {}, file);
    structurePeak = Math.max(peak, pid === null ? 0 : (procMemory(pid, 'VmRSS') ?? 0));
    if (structure.status !== 200) throw new Error(`structure: ${structure.status} ${structure.body.msg}`);
    columns = (structure.body.data as { columns: { columnName: string; columnType: string }[] }).columns;
    const tableName = `bench_upload_${Date.now()}`;
    const fileToken = (structure.body.data as { fileToken: string }).fileToken;
    const fields = {
      tableName,
      tableComment: '上传基准',
      dsId: String(dsId),
      tableColumnList: JSON.stringify(columns),
      ...(values.resend ? {} : { fileToken }),
    };
    const upload = await postMultipart(base, '/api/filetable/tables', token, fields, values.resend ? file : null);
    clearInterval(sampler);
    if (upload.status !== 200) throw new Error(`upload: ${upload.status} ${upload.body.msg}`);
    loaded = (upload.body.data as { rowCount: number }).rowCount;
    if (loaded !== rows && !values.file) throw new Error(`loaded ${loaded} rows, expected ${rows}`);
    rounds.push({ raw, rawFile, structure: structure.millis, confirm: upload.millis, peak, structurePeak, baseline });
    const r = rounds.at(-1)!;
    if (engineBaseline !== null) {
      console.log(
        `  DuckDB engine process: RSS ${mib(engineBaseline)} → peak ${mib(enginePeak)} MiB (growth ${mib(enginePeak - engineBaseline)}); DuckDB's own read_csv grew ${mib(rawMemory.growth)} MiB in memory, ${mib(rawIntoFile.growth)} into a database file`,
      );
    }
    console.log(
      `round ${round + 1}: whole upload ${Math.round(r.structure + r.confirm)} ms (${((r.structure + r.confirm) / raw).toFixed(2)} of read_csv in memory); confirm ${Math.round(r.confirm)} ms, raw read_csv ${Math.round(raw)} ms (into a database file ${Math.round(rawFile)} ms) → ratio ${(r.confirm / raw).toFixed(2)} (${(r.confirm / rawFile).toFixed(2)} against the file); structure ${Math.round(r.structure)} ms; RSS growth ${baseline === null ? '?' : `${mib(peak - baseline)} MiB (${mib(r.structurePeak - baseline)} by the end of the structure call)`}; load ${load()}`,
    );
  }

  const confirm = median(rounds.map((r) => r.confirm));
  const seconds = confirm / 1000;
  console.log(`columns: ${columns.map((c, i) => `${HEADER[i] ?? c.columnName}=${c.columnType}`).join(', ')}`);
  console.log(`structure call (upload ${mib(size)} MiB + detect): ${Math.round(median(rounds.map((r) => r.structure)))} ms (median of ${runs})`);
  console.log(
    `confirm call (${values.resend ? 'the file sent again' : 'the kept file named by its fileToken'} + bulk load): ${Math.round(confirm)} ms for ${loaded.toLocaleString('en')} rows (median of ${runs})`,
  );
  console.log(
    `whole upload (structure + confirm): ${Math.round(median(rounds.map((r) => r.structure + r.confirm)))} ms, ${median(rounds.map((r) => (r.structure + r.confirm) / r.raw)).toFixed(2)} of read_csv in memory, ${median(rounds.map((r) => (r.structure + r.confirm) / r.rawFile)).toFixed(2)} of read_csv into a database file (medians of the rounds' ratios)`,
  );
  console.log(`  ${Math.round(loaded / seconds).toLocaleString('en')} rows/s, ${(size / 1024 / 1024 / seconds).toFixed(1)} MiB/s`);
  if (pid !== null) {
    const hwm = procMemory(pid, 'VmHWM');
    const growth = Math.max(...rounds.map((r) => (r.baseline === null ? 0 : r.peak - r.baseline)));
    console.log(
      `  server RSS: ${rounds[0]!.baseline === null ? '?' : mib(rounds[0]!.baseline)} MiB before, peak ${mib(Math.max(...rounds.map((r) => r.peak)))} MiB sampled, largest growth in a round ${mib(growth)} MiB (VmHWM ${hwm === null ? '?' : mib(hwm)} MiB)`,
    );
  } else {
    console.log('  server RSS: not measured (pass --pid of the server process)');
  }
  console.log(
    `DuckDB read_csv of the same file (raw engine): ${Math.round(median(rounds.map((r) => r.raw)))} ms in memory, ${Math.round(median(rounds.map((r) => r.rawFile)))} ms into a database file → API/raw ratio ${median(rounds.map((r) => r.confirm / r.raw)).toFixed(2)} (median of the rounds' ratios; ${median(rounds.map((r) => r.confirm / r.rawFile)).toFixed(2)} against the file)`,
  );
  console.log(`load average after: ${load()}`);
} finally {
  await server?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
