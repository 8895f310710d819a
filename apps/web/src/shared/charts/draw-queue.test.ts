import { expect, it, vi } from 'vitest';
import { queueFirstDraw } from './draw-queue.ts';

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
