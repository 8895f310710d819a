import { useEffect } from 'react';
import { BOARD_STATE_ATTRIBUTE } from '@shutu/contracts/board-constants';
import type { BoardState } from '@shutu/contracts';

/**
 * The render state the server's headless browser waits for (contracts BOARD_STATE_ATTRIBUTE):
 * on `<html>` and, for scripts, on `window.__shutuBoardState`.
 */
declare global {
  interface Window {
    __shutuBoardState?: BoardState;
  }
}

export function setBoardState(state: BoardState | null): void {
  const root = document.documentElement;
  if (state === null) {
    root.removeAttribute(BOARD_STATE_ATTRIBUTE);
    delete window.__shutuBoardState;
    return;
  }
  root.setAttribute(BOARD_STATE_ATTRIBUTE, state);
  window.__shutuBoardState = state;
}

/** Keeps the attribute equal to `state` while the page is mounted; removes it on unmount. */
export function useBoardStateAttribute(state: BoardState): void {
  useEffect(() => {
    setBoardState(state);
  }, [state]);
  useEffect(() => () => setBoardState(null), []);
}
