import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Result, Spin } from 'antd';
import { useParams, useSearchParams } from 'react-router';
import { API, apiPath, BOARD_KINDS, type Board, type BoardKind, type BoardType } from '@shutu/contracts';
import { http } from '../../../shared/api.ts';
import { errorText } from '../../../shared/notify.ts';
import { boardKeys } from '../api.ts';
import { BoardEditor } from './BoardEditor.tsx';
import { et } from './messages.ts';
import { docFromBoard, initialState, newDoc } from './state.ts';
import './editor.css';

const positive = (text: string | null): number | null => {
  const n = Number(text);
  return text && Number.isSafeInteger(n) && n > 0 ? n : null;
};

export const editorKeys = {
  board: (id: number) => [...boardKeys.all, 'editor', id] as const,
};

/**
 * /newbi/:kind/bigdataEdit (screen) and /newbi/:kind/quickEdit (quick): `?id=` edits a
 * board; otherwise a new one, in the category `?cg=` when given, its charts starting from
 * the dataset `?ds=` when given. The board is loaded once: saving a new board puts its id in
 * the address without reloading the editor.
 */
export default function BoardEditorPage({ mode }: { mode: BoardType }) {
  const params = useParams();
  const [search] = useSearchParams();
  const kind: BoardKind = (BOARD_KINDS as readonly string[]).includes(params.kind ?? '') ? (params.kind as BoardKind) : 'visual';
  // The address as opened: a save that adds ?id= must not remount or reload the editor.
  const [opened] = useState(() => ({ id: positive(search.get('id')), categoryId: positive(search.get('cg')), ds: positive(search.get('ds')) }));

  const board = useQuery({
    queryKey: editorKeys.board(opened.id ?? 0),
    queryFn: () => http.get<Board>(apiPath(API.board.board, { id: opened.id! })),
    enabled: opened.id !== null,
    staleTime: Infinity,
    meta: { silent: true },
  });

  if (opened.id !== null) {
    if (board.isError)
      return (
        <Result
          status={board.error && 'status' in board.error && board.error.status === 403 ? '403' : 'error'}
          title={et.loadFailed}
          subTitle={errorText(board.error)}
        />
      );
    if (!board.data) return <Spin className="be-page-spin" size="large" />;
    return <BoardEditor key={opened.id} kind={kind} mode={mode} ds={opened.ds} initial={initialState(docFromBoard(board.data, mode), opened.id)} />;
  }
  return <BoardEditor key="new" kind={kind} mode={mode} ds={opened.ds} initial={initialState(newDoc(mode, et.untitled(mode), opened.categoryId))} />;
}
