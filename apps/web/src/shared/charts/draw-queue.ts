/**
 * The first pictures of a page's charts, one per task (issue 26): twenty charts whose data came
 * together were drawn in one task that held the main thread for seconds on a phone (Lighthouse's
 * total blocking time on a share link); now a tap or a scroll waits for one chart at most. The
 * chart nearest the top of the viewport goes first, so what the user sees is drawn before what
 * is below it. Later pictures of a chart (linkage, new data) are drawn at once by the chart.
 */

interface Job {
  el: Element;
  run: () => void;
}

const jobs: Job[] = [];
let pending = false;
let channel: MessageChannel | null = null;

/** How far down the page an element is: in the viewport by its top (0 for one already cut at the top), below it after every one in view. */
function order(el: Element): number {
  const box = el.getBoundingClientRect();
  const height = window.innerHeight || 0;
  if (box.bottom > 0 && box.top < height) return Math.max(0, box.top);
  return height + Math.abs(box.top);
}

function runNext(): void {
  pending = false;
  if (jobs.length === 0) return;
  let next = 0;
  if (jobs.length > 1) {
    let best = Infinity;
    jobs.forEach((job, i) => {
      const at = order(job.el);
      if (at < best) [best, next] = [at, i];
    });
  }
  const [job] = jobs.splice(next, 1);
  if (jobs.length > 0) schedule();
  try {
    job!.run();
  } catch (error) {
    // A chart that throws does not stop the others (EChart hands its own failure to React).
    console.error(error);
  }
}

/** A new task (not a microtask, not a 4 ms-clamped timer): the browser paints and handles input in between. */
function schedule(): void {
  if (pending) return;
  pending = true;
  if (typeof MessageChannel === 'undefined') {
    setTimeout(runNext, 0);
    return;
  }
  if (!channel) {
    channel = new MessageChannel();
    channel.port1.onmessage = runNext;
    // Outside a browser (tests under Node) an open port would keep the process alive.
    (channel.port1 as { unref?: () => void }).unref?.();
  }
  channel.port2.postMessage(null);
}

/** Draws `run` in a task of its own, in the viewport's order; returns what cancels it (the chart left the page first). */
export function queueFirstDraw(el: Element, run: () => void): () => void {
  const job: Job = { el, run };
  jobs.push(job);
  schedule();
  return () => {
    const at = jobs.indexOf(job);
    if (at >= 0) jobs.splice(at, 1);
  };
}
