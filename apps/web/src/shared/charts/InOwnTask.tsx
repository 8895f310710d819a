import { useEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { queueFirstDraw } from './draw-queue.ts';

/**
 * Children that mount in a task of their own, after the commit that placed them, in the
 * viewport's order (draw-queue.ts, as the charts' first pictures). antd's table and select
 * measure the page while React commits them (a scrollbar, an input's width: a forced layout),
 * which inside a board's first commit laid out the whole new board in that commit: the share
 * link's longest task on a phone (issue 26). A task later the board has been laid out and only
 * the part is. `fallback` holds the place meanwhile, at the part's size.
 */
export function InOwnTask({ fallback, children }: { fallback?: ReactNode; children: ReactNode }) {
  const place = useRef<HTMLDivElement>(null);
  const [now, setNow] = useState(false);
  useEffect(() => {
    const el = place.current;
    if (now || !el) return;
    // Rendered and committed inside the task: two parts whose turns follow each other are not batched into one commit.
    return queueFirstDraw(el, () => flushSync(() => setNow(true)));
  }, [now]);
  if (now) return children;
  return (
    <div ref={place} style={{ height: '100%' }}>
      {fallback}
    </div>
  );
}

/** The look of antd's closed select or range picker (middle size), for the moment before it mounts. */
const PENDING_CONTROL: CSSProperties = {
  width: '100%',
  height: 32,
  boxSizing: 'border-box',
  padding: '0 11px',
  border: '1px solid #d9d9d9',
  borderRadius: 6,
  background: '#fff',
  fontSize: 14,
  lineHeight: '30px',
  overflow: 'hidden',
  whiteSpace: 'nowrap',
  textOverflow: 'ellipsis',
};

/** A filter control before it mounts: its values, or its placeholder in the placeholder's grey. */
export function PendingControl({ text, placeholder }: { text: string; placeholder: boolean }) {
  return (
    <div aria-busy="true" style={{ ...PENDING_CONTROL, color: placeholder ? 'rgba(0, 0, 0, 0.25)' : 'rgba(0, 0, 0, 0.88)' }}>
      {text}
    </div>
  );
}
