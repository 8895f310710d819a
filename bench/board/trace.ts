/**
 * Where a page load spends the renderer's main thread (issue 26: "take a trace of the page load"):
 * one navigation recorded with Chromium's tracing (the Performance panel's categories) and the V8
 * sampling profiler at once, summed up as
 * - the main thread's self time by trace event (script evaluation and function calls per script
 *   file, style, layout, paint, GC, parsing …),
 * - the JavaScript self time per script file and the heaviest functions (from the profiler).
 * The raw trace is written as JSON that the Performance panel of Chromium opens (Load profile), the
 * profile as .cpuprofile beside it.
 * Used by bench/board (`--trace`) and bench/mobile (`--trace`).
 */
import fs from 'node:fs';
import type { newPage } from '../../e2e/harness.ts';

/** The harness's page type (playwright-core is the e2e package's dependency, not the bench's). */
type TracedPage = Awaited<ReturnType<typeof newPage>>;

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'v8.execute',
  'toplevel',
  'blink.user_timing',
  'loading',
].join(',');

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: {
    name?: string;
    data?: { url?: string; scriptName?: string; functionName?: string };
    chrome_mojo_event_info?: { mojo_interface_tag?: string };
  };
}

/**
 * The recorder's own work on the page's main thread: DevTools messages (starting and stopping the
 * profiler and the trace). In a traced load they were 0.5 s of "Receive mojo message", more than
 * any of the page's own events; they are left out of the summary and their total printed apart.
 */
const isRecorder = (e: TraceEvent) => /^blink\.mojom\.DevTools/.test(e.args?.chrome_mojo_event_info?.mojo_interface_tag ?? '');

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Records `load` (a navigation) with tracing and the CPU profiler; writes the trace to `file` and returns the printed summary. */
export async function traceLoad(page: TracedPage, file: string, load: () => Promise<void>): Promise<string> {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...(e.value as unknown as TraceEvent[])));
  const done = new Promise<void>((resolve) => cdp.on('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
  await cdp.send('Profiler.start');
  const started = Date.now();
  await load();
  const wall = Date.now() - started;
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
  await cdp.send('Tracing.end');
  await done;
  await cdp.detach();
  fs.writeFileSync(file, JSON.stringify({ traceEvents: events }));
  fs.writeFileSync(file.replace(/(\.json)?$/, '.cpuprofile'), JSON.stringify(profile));
  return [
    `trace of one load (${wall} ms wall) written to ${file} (and the CPU profile beside it, .cpuprofile)`,
    ...summarizeTrace(events),
    ...summarizeProfile(profile),
  ].join('\n');
}

const ms = (us: number) => `${(us / 1000).toFixed(0).padStart(6)} ms`;
const short = (url: string) => url.replace(/^https?:\/\/[^/]+/, '').replace(/^\/assets\//, '') || '(no url)';

/** Self time of the renderer's main thread by event name, and of script events by file. */
export function summarizeTrace(events: TraceEvent[]): string[] {
  const mainThreads = new Set(
    events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`),
  );
  // The renderer of the page is the one with the most work (about:blank's may be another).
  const perThread = new Map<string, TraceEvent[]>();
  for (const e of events) {
    if (e.ph !== 'X' || !mainThreads.has(`${e.pid}:${e.tid}`)) continue;
    const key = `${e.pid}:${e.tid}`;
    if (!perThread.has(key)) perThread.set(key, []);
    perThread.get(key)!.push(e);
  }
  const busiest = [...perThread.values()].sort((a, b) => b.length - a.length)[0] ?? [];
  busiest.sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const byName = new Map<string, number>();
  const byScript = new Map<string, number>();
  const stack: { end: number; self: number; name: string; url: string }[] = [];
  let busy = 0;
  let recorder = 0;
  let recorderUntil = -1;
  const close = (frame: (typeof stack)[number]) => {
    byName.set(frame.name, (byName.get(frame.name) ?? 0) + frame.self);
    if (frame.url) byScript.set(frame.url, (byScript.get(frame.url) ?? 0) + frame.self);
  };
  for (const e of busiest) {
    const dur = e.dur ?? 0;
    if (e.ts < recorderUntil) continue;
    while (stack.length > 0 && stack.at(-1)!.end <= e.ts) close(stack.pop()!);
    if (isRecorder(e)) {
      // The recorder's message and everything under it; its time is taken from the enclosing task.
      recorder += dur;
      recorderUntil = e.ts + dur;
      const parent = stack.at(-1);
      if (parent) {
        parent.self -= dur;
        busy -= dur;
      }
      continue;
    }
    const parent = stack.at(-1);
    if (parent) parent.self -= dur;
    else busy += dur;
    const url = e.args?.data?.url || e.args?.data?.scriptName || parent?.url || '';
    stack.push({
      end: e.ts + dur,
      self: dur,
      name: e.name,
      url: /^(EvaluateScript|FunctionCall|v8\.|V8\.|TimerFire|FireAnimationFrame|EventDispatch)/.test(e.name) || parent?.url ? url : '',
    });
  }
  while (stack.length > 0) close(stack.pop()!);
  const top = (m: Map<string, number>, n: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .filter(([, us]) => us >= 1000);
  return [
    `main thread busy ${ms(busy).trim()} (top-level tasks; the recorder's DevTools messages, ${ms(recorder).trim()}, left out); self time by event:`,
    ...top(byName, 14).map(([name, us]) => `  ${ms(us)}  ${name}`),
    'self time under script events, by file:',
    ...top(byScript, 10).map(([url, us]) => `  ${ms(us)}  ${short(url)}`),
  ];
}

/** JavaScript self time per file and the heaviest functions, from the sampling profiler. */
export function summarizeProfile(profile: CpuProfile): string[] {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byFile = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const [id, us] of self) {
    const frame = nodes.get(id)!.callFrame;
    if (['(idle)', '(program)', '(root)'].includes(frame.functionName)) continue;
    const file = frame.url ? short(frame.url) : frame.functionName;
    byFile.set(file, (byFile.get(file) ?? 0) + us);
    const fn = `${frame.functionName || '(anonymous)'} ${frame.url ? `${short(frame.url)}:${frame.lineNumber + 1}` : ''}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
  }
  const top = (m: Map<string, number>, n: number) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);
  return [
    'JavaScript self time (sampling profiler) by file:',
    ...top(byFile, 10).map(([f, us]) => `  ${ms(us)}  ${f}`),
    'heaviest functions:',
    ...top(byFunction, 15).map(([f, us]) => `  ${ms(us)}  ${f.slice(0, 110)}`),
  ];
}
