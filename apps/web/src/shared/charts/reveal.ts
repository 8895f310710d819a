import { startTransition, useEffect, useRef, useState, type RefObject } from 'react';
import { queueReveal } from './draw-queue.ts';

/**
 * What a chart shows of `value` (its answer): a new value is taken in a transition of its own,
 * one chart at a time, the charts in view first (draw-queue.ts `queueReveal`), and the next chart
 * only once this one's render has committed (issue 26).
 *
 * Why: react-query's store updates render synchronously, so the answers of a board's batch were
 * drawn in one long task; with `useDeferredValue` they were one transition of every chart, which
 * each newly arrived answer restarted and whose single commit (the tables' DOM, antd's styles, the
 * first layout) was still one long task. A transition per chart renders in slices of a few
 * milliseconds and commits one chart's DOM at a time, so a phone answers a tap in between.
 *
 * `initial` is shown until the first value is taken, so even an answer there at mount (the
 * board's batch) is drawn through the queue.
 */
export function useRevealed<T>(value: T, initial: T, el: RefObject<Element | null>): T {
  const [shown, setShown] = useState<{ value: T }>(() => ({ value: initial }));
  const release = useRef<(() => void) | null>(null);

  useEffect(() => {
    if (Object.is(shown.value, value)) return;
    const cancel = queueReveal(el.current, (done) => {
      release.current = done;
      startTransition(() => setShown({ value }));
    });
    return () => {
      cancel();
      // A newer value, or the chart left the page: the queue goes on.
      release.current?.();
      release.current = null;
    };
    // `shown` is read to skip a value already shown, not to queue again when it changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value, el]);

  // Committed: the next chart may go.
  useEffect(() => {
    release.current?.();
    release.current = null;
  }, [shown]);

  return shown.value;
}
