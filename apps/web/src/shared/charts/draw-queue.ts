/**
 * Work of a page's charts one piece per task, in the viewport's order (issue 26): twenty charts
 * whose data came together were drawn in one task that held the main thread for seconds on a
 * phone (Lighthouse's total blocking time on a share link); now a tap or a scroll waits for one
 * chart at most. The chart nearest the top of the viewport goes first, so what the user sees is
 * drawn before what is below it.
 *
 * Two queues: the first ECharts pictures (`queueFirstDraw`), and the charts' new answers taken
 * into React (`queueReveal`, reveal.ts), where a job holds the queue until its render has
 * committed.
 */

interface Job {
  el: Element | null;
  run: (done: () => void) => void;
}

/** How far down the page an element is: in the viewport by its top (0 for one already cut at the top), below it after every one in view. */
function order(el: Element | null): number {
  if (!el) return Infinity;
  const box = el.getBoundingClientRect();
  const height = window.innerHeight || 0;
  if (box.bottom > 0 && box.top < height) return Math.max(0, box.top);
  return height + Math.abs(box.top);
}

/** A new task (not a microtask, not a 4 ms-clamped timer): the browser paints and handles input in between. */
function newTask(run: () => void): void {
  if (typeof MessageChannel === 'undefined') {
    setTimeout(run, 0);
    return;
  }
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    channel.port1.close();
    run();
  };
  // Outside a browser (tests under Node) an open port would keep the process alive.
  (channel.port1 as { unref?: () => void }).unref?.();
  channel.port2.postMessage(null);
}

/**
 * Jobs one per task, the one nearest the top of the viewport first. With `hold`, a job keeps the
 * queue until it calls `done` (or `holdLimitMs` has passed, so that a render that never commits
 * does not stop the others).
 */
class TaskQueue {
  private readonly jobs: Job[] = [];
  private pending = false;
  private holding: { release: () => void } | null = null;

  constructor(private readonly holdLimitMs: number | null) {}

  add(el: Element | null, run: (done: () => void) => void): () => void {
    const job: Job = { el, run };
    this.jobs.push(job);
    this.schedule();
    return () => {
      const at = this.jobs.indexOf(job);
      if (at >= 0) this.jobs.splice(at, 1);
    };
  }

  private schedule(): void {
    if (this.pending || this.holding || this.jobs.length === 0) return;
    this.pending = true;
    newTask(() => this.runNext());
  }

  private runNext(): void {
    this.pending = false;
    if (this.holding || this.jobs.length === 0) return;
    let next = 0;
    if (this.jobs.length > 1) {
      let best = Infinity;
      this.jobs.forEach((job, i) => {
        const at = order(job.el);
        if (at < best) [best, next] = [at, i];
      });
    }
    const [job] = this.jobs.splice(next, 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      if (this.holding === hold) this.holding = null;
      if (timer !== null) clearTimeout(timer);
      this.schedule();
    };
    const hold = { release };
    let timer: ReturnType<typeof setTimeout> | null = null;
    if (this.holdLimitMs !== null) {
      this.holding = hold;
      timer = setTimeout(release, this.holdLimitMs);
    }
    try {
      job!.run(release);
    } catch (error) {
      // A chart that throws does not stop the others (EChart hands its own failure to React).
      console.error(error);
      release();
    }
    if (this.holdLimitMs === null) release();
  }
}

const firstDraws = new TaskQueue(null);
/** A reveal that has not committed within this time lets the next chart go (a render suspended on code, say). */
const REVEAL_HOLD_LIMIT_MS = 1000;
const reveals = new TaskQueue(REVEAL_HOLD_LIMIT_MS);

/** Draws `run` in a task of its own, in the viewport's order; returns what cancels it (the chart left the page first). */
export function queueFirstDraw(el: Element, run: () => void): () => void {
  return firstDraws.add(el, () => run());
}

/**
 * Runs `run` in a task of its own, in the viewport's order, one at a time: the next job waits
 * until `run`'s `done` is called (its render committed). Returns what cancels it.
 */
export function queueReveal(el: Element | null, run: (done: () => void) => void): () => void {
  return reveals.add(el, run);
}
