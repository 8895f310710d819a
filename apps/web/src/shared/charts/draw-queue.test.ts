import { expect, it, vi } from 'vitest';
import { queueFirstDraw, queueReveal } from './draw-queue.ts';

/** An element at `top` (px from the viewport's top), `size` px square. */
function at(top: number, size = 100): Element {
  const el = document.createElement('div');
  el.getBoundingClientRect = () => ({ top, bottom: top + size, left: 0, right: size, width: size, height: size, x: 0, y: top, toJSON: () => ({}) });
  return el;
}

it("draws one chart per task, the viewport's from the top first, then those below; a cancelled one never", async () => {
  Object.defineProperty(window, 'innerHeight', { value: 800, configurable: true });
  const drawn: string[] = [];
  queueFirstDraw(at(3000), () => drawn.push('far below'));
  queueFirstDraw(at(2000, 400), () => drawn.push('below'));
  queueFirstDraw(at(400), () => drawn.push('small'));
  const cancel = queueFirstDraw(at(300, 500), () => drawn.push('left the page'));
  queueFirstDraw(at(-50, 300), () => drawn.push('big, cut at the top'));
  cancel();
  expect(drawn).toEqual([]);
  await expect.poll(() => drawn.length).toBe(4);
  expect(drawn).toEqual(['big, cut at the top', 'small', 'below', 'far below']);
  // (In view by the top, the size does not matter; below the viewport, from the top down.)
});

it('a chart that throws is logged and does not stop the ones after it', async () => {
  const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const drawn: string[] = [];
  queueFirstDraw(at(0), () => {
    throw new Error('broken chart');
  });
  queueFirstDraw(at(100), () => drawn.push('next'));
  await expect.poll(() => drawn).toEqual(['next']);
  expect(logged).toHaveBeenCalledWith(new Error('broken chart'));
  logged.mockRestore();
});

it('a reveal holds the queue until it is done: the next chart waits for the first one to commit', async () => {
  const ran: string[] = [];
  let finishFirst: (() => void) | null = null;
  queueReveal(at(0), (done) => {
    ran.push('first');
    finishFirst = done;
  });
  queueReveal(at(100), (done) => {
    ran.push('second');
    done();
  });
  await expect.poll(() => ran).toEqual(['first']);
  // Tasks go by (a first draw runs meanwhile), and the second still waits for the first's commit.
  const drawn: string[] = [];
  queueFirstDraw(at(0), () => drawn.push('drawn'));
  await expect.poll(() => drawn).toEqual(['drawn']);
  expect(ran).toEqual(['first']);
  finishFirst!();
  await expect.poll(() => ran).toEqual(['first', 'second']);
});

it('a reveal that never reports its commit lets the next one go after a second', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  try {
    const ran: string[] = [];
    queueReveal(at(0), () => ran.push('stuck'));
    queueReveal(at(100), () => ran.push('next'));
    await vi.waitFor(() => expect(ran).toEqual(['stuck']));
    vi.advanceTimersByTime(999);
    await Promise.resolve();
    expect(ran).toEqual(['stuck']);
    vi.advanceTimersByTime(1);
    await vi.waitFor(() => expect(ran).toEqual(['stuck', 'next']));
  } finally {
    vi.useRealTimers();
  }
});
