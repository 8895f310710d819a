/**
 * CPU time by process on this machine, from /proc (Linux): what a page load costs the engine,
 * the server (this process), Chromium's renderer and Chromium's other processes. On two cores a
 * cold board load is as long as their sum over two, so this says which side to make lighter.
 */
import fs from 'node:fs';

const KINDS = ['engine', 'server', 'renderer', 'browserOther'] as const;
export type CpuByProcess = Record<(typeof KINDS)[number], number>;

/** CPU milliseconds (user + system) each kind of process has used so far; 0 where /proc is missing. */
export function cpuByProcess(): CpuByProcess {
  const total: CpuByProcess = { engine: 0, server: 0, renderer: 0, browserOther: 0 };
  if (!fs.existsSync('/proc/self/stat')) return total;
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      const millis = (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, ticks of 10 ms
      const command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (Number(pid) === process.pid) total.server += millis;
      else if (command.includes('duckdb-host')) total.engine += millis;
      else if (command.includes('chromium') && command.includes('--type=renderer')) total.renderer += millis;
      else if (command.includes('chromium')) total.browserOther += millis;
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

/** What each kind used between two readings. */
export function cpuSince(before: CpuByProcess): CpuByProcess {
  const now = cpuByProcess();
  return Object.fromEntries(KINDS.map((kind) => [kind, now[kind] - before[kind]])) as CpuByProcess;
}

/** Every kind's time together. */
export function cpuTotal(cpu: CpuByProcess): number {
  return KINDS.reduce((sum, kind) => sum + cpu[kind], 0);
}
