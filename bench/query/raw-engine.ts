/**
 * The raw side of bench/query in a process of its own, as the server's DuckDB is in its engine
 * process: the warehouse file (a copy while the server's engine holds it) opened with the
 * server's settings, the compiled statement run on request, timed here (no IPC in the time).
 * In the bench's own process its row objects were garbage collected during the server's turn
 * and its threads shared that process's heap and event loop with the server and the client.
 */
import { serverWarehouseInstance } from '../src/index.ts';

export type RawRequest =
  { t: 'open'; file: string; config: { duckdbMemoryLimit?: string; duckdbThreads?: number | undefined }; sql: string; params: unknown[] } | { t: 'run' };
export type RawReply = { t: 'ready' } | { t: 'ran'; millis: number; cpuMillis: number; rows: number } | { t: 'failed'; message: string };

let run: (() => Promise<number>) | undefined;

const reply = (message: RawReply) => process.send!(message);

process.on('message', (message: RawRequest) => {
  void (async () => {
    try {
      if (message.t === 'open') {
        const instance = await serverWarehouseInstance(message.file, message.config);
        const connection = await instance.connect();
        // Like the server, the direct side ends with the rows as JS objects (not only DuckDB's chunks).
        run = async () => (await connection.runAndReadAll(message.sql, [...message.params] as never)).getRowObjectsJS().length;
        reply({ t: 'ready' });
        return;
      }
      if (!run) throw new Error('run before open');
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      const rows = await run();
      const millis = performance.now() - started;
      const cpu = process.cpuUsage(cpuBefore);
      reply({ t: 'ran', millis, cpuMillis: (cpu.user + cpu.system) / 1000, rows });
    } catch (error) {
      reply({ t: 'failed', message: String(error) });
    }
  })();
});
process.on('disconnect', () => process.exit(0));
