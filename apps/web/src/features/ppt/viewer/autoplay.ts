import { useEffect, useRef } from 'react';

/**
 * Auto-play (spec 1 §4): the next dashboard every `interval` seconds; mouse movement stops the
 * running timer, and after `interval` seconds without movement it starts again (the next
 * switch is then one more interval later).
 */
export interface AutoPlay {
  /** The mouse moved: stop, and restart after a quiet interval. */
  activity(): void;
  /** Running right now (not paused by movement). */
  running(): boolean;
  dispose(): void;
}

export function createAutoPlay(intervalMs: number, onNext: () => void): AutoPlay {
  let ticker: ReturnType<typeof setInterval> | undefined;
  let idle: ReturnType<typeof setTimeout> | undefined;
  let disposed = false;
  const start = () => {
    idle = undefined;
    if (!disposed && ticker === undefined) ticker = setInterval(onNext, intervalMs);
  };
  const stop = () => {
    if (ticker !== undefined) clearInterval(ticker);
    ticker = undefined;
  };
  start();
  return {
    activity() {
      if (disposed) return;
      stop();
      if (idle !== undefined) clearTimeout(idle);
      idle = setTimeout(start, intervalMs);
    },
    running: () => ticker !== undefined,
    dispose() {
      disposed = true;
      stop();
      if (idle !== undefined) clearTimeout(idle);
    },
  };
}

/** Auto-play while `enabled`, paused by mouse movement over the window. */
export function useAutoPlay(enabled: boolean, intervalSeconds: number, onNext: () => void): void {
  const next = useRef(onNext);
  useEffect(() => {
    next.current = onNext;
  });
  useEffect(() => {
    if (!enabled || !(intervalSeconds > 0)) return;
    const play = createAutoPlay(intervalSeconds * 1000, () => next.current());
    const moved = () => play.activity();
    window.addEventListener('mousemove', moved);
    return () => {
      window.removeEventListener('mousemove', moved);
      play.dispose();
    };
  }, [enabled, intervalSeconds]);
}
