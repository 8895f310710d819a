import { useEffect, useRef } from 'react';

export interface EditorKeyHandlers {
  enabled: boolean;
  onUndo(): void;
  onRedo(): void;
  /** Ctrl+C: the chart key to remember (null: nothing selected). */
  onCopy(): string | null;
  /** Ctrl+V: the remembered chart key. */
  onPaste(key: string): void;
  onDelete(): void;
  /** Arrow keys: design pixels; true when a chart moved (the page then does not scroll). */
  onNudge(dx: number, dy: number): boolean;
}

/** Typing in a field keeps the browser's own keys (undo in an input, arrows, delete). */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || !!target.closest('.ant-select, .ant-picker, .ant-modal, .ant-color-picker');
}

const ARROWS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/**
 * The editor's keyboard: Ctrl+Z undo, Ctrl+Y / Ctrl+Shift+Z redo, Ctrl+C / Ctrl+V duplicate
 * the selected chart, Delete removes it, arrows nudge it 1 px (Shift: 10 px). ⌘ works as Ctrl.
 */
export function useEditorKeys(handlers: EditorKeyHandlers) {
  const latest = useRef(handlers);
  const clipboard = useRef<string | null>(null);
  useEffect(() => {
    latest.current = handlers;
  });

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const h = latest.current;
      if (!h.enabled || isTyping(e.target)) return;
      const ctrl = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      if (ctrl && key === 'z') {
        e.preventDefault();
        if (e.shiftKey) h.onRedo();
        else h.onUndo();
      } else if (ctrl && key === 'y') {
        e.preventDefault();
        h.onRedo();
      } else if (ctrl && key === 'c') {
        const copied = h.onCopy();
        if (copied) clipboard.current = copied;
      } else if (ctrl && key === 'v') {
        if (clipboard.current) {
          e.preventDefault();
          h.onPaste(clipboard.current);
        }
      } else if (!ctrl && (e.key === 'Delete' || e.key === 'Backspace')) {
        e.preventDefault();
        h.onDelete();
      } else if (!ctrl && ARROWS[e.key]) {
        const [dx, dy] = ARROWS[e.key]!;
        const step = e.shiftKey ? 10 : 1;
        if (h.onNudge(dx * step, dy * step)) e.preventDefault();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
