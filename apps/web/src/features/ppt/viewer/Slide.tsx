import { useEffect, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useQuery } from '@tanstack/react-query';
import { API, apiPath, type Board, type PptVisual } from '@shutu/contracts';
import { http } from '../../../shared/api.ts';
import { BoardStatePanel } from '../../board/preview/BoardStatePanel.tsx';
import { boardViewKeys, failureOf, type BoardFailure } from '../../board/preview/useBoardView.ts';
import { BoardView, type BoardControls } from '../../board/runtime/BoardView.tsx';

export interface SlideProps {
  visual: PptVisual;
  /** The dashboard on screen; the others stay mounted but hidden (their charts keep their data). */
  current: boolean;
  /** Where the current dashboard's own controls go (the top bar or the floating bar). */
  controlsSlot: HTMLElement | null;
  renderControls: (board: Board, controls: BoardControls) => ReactNode;
  onReady: (id: number) => void;
  onFailure: (id: number, failure: BoardFailure) => void;
  /** Chart tools (导出, 查看数据); off for a share link's visitor, who has no session for them. */
  tools?: boolean;
}

/**
 * One dashboard of the slideshow. Mounted on its first visit and kept afterwards (hidden while
 * another one shows): each dashboard loads its board and chart data once, and coming back only
 * shows it again (spec 1 §4).
 */
export function Slide({ visual, current, controlsSlot, renderControls, onReady, onFailure, tools = true }: SlideProps) {
  const { id } = visual;
  const query = useQuery({
    queryKey: boardViewKeys.board(id),
    queryFn: () => http.get<Board>(apiPath(API.board.board, { id })),
    // Loaded once per visit of the viewer: a slide that comes back is not fetched again.
    staleTime: Infinity,
    retry: false,
    meta: { silent: true },
  });
  const failure = query.error ? failureOf(query.error) : null;
  useEffect(() => {
    if (failure) onFailure(id, failure);
  }, [failure, id, onFailure]);

  const board = query.data;
  return (
    <div
      className="pptv-slide"
      data-ppt-slide={id}
      data-ppt-current={current ? 'true' : 'false'}
      aria-hidden={!current}
      style={{ visibility: current ? 'visible' : 'hidden' }}
    >
      {board ? (
        <BoardView
          board={board}
          tools={tools}
          onReady={() => onReady(id)}
          header={(controls) => (current && controlsSlot ? createPortal(renderControls(board, controls), controlsSlot) : null)}
        />
      ) : (
        <BoardStatePanel failure={failure} onRetry={() => void query.refetch()} />
      )}
    </div>
  );
}
