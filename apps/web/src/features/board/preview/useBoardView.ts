import { useCallback, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Board, BoardState } from '@shutu/contracts';
import { API, apiPath } from '@shutu/contracts/api';
import { ApiError, http } from '../../../shared/api.ts';
import { useBoardStateAttribute } from '../runtime/board-state.ts';

/** Why a board cannot be shown: refused or missing (没有此大屏权限), the link expired (401 on /openview), anything else. */
export type BoardFailure = 'forbidden' | 'expired' | 'error';

export const boardViewKeys = {
  board: (id: number) => ['board', 'view', id] as const,
};

export function failureOf(error: unknown): BoardFailure {
  if (error instanceof ApiError) {
    if (error.status === 403 || error.status === 404) return 'forbidden';
    if (error.status === 401) return 'expired';
  }
  return 'error';
}

/**
 * A board for a preview page, and the render state on `<html>` (loading → ready once BoardView
 * reports every chart rendered; refused on 401/403/404; error otherwise). Failures are shown
 * by the page, not toasted.
 */
export function useBoardView(id: number, options: { failure?: BoardFailure | null } = {}) {
  const valid = Number.isSafeInteger(id) && id > 0;
  const query = useQuery({
    queryKey: boardViewKeys.board(id),
    queryFn: () => http.get<Board>(apiPath(API.board.board, { id })),
    enabled: valid && !options.failure,
    retry: false,
    staleTime: 0,
    meta: { silent: true },
  });
  const [ready, setReady] = useState(false);
  const onReady = useCallback(() => setReady(true), []);
  const failure: BoardFailure | null = options.failure ? options.failure : !valid ? 'forbidden' : query.error ? failureOf(query.error) : null;
  const state: BoardState = failure ? (failure === 'error' ? 'error' : 'refused') : query.data && ready ? 'ready' : 'loading';
  useBoardStateAttribute(state);
  return { board: query.data ?? null, failure, state, onReady, retry: () => void query.refetch() };
}
