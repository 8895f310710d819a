import { useMemo } from 'react';
import { BoardView } from '../board/runtime/BoardView.tsx';
import { BoardStatePanel } from '../board/preview/BoardStatePanel.tsx';
import { useBoardView } from '../board/preview/useBoardView.ts';
import { reflowForPhone } from './reflow.ts';

/**
 * One dashboard on a phone, read with the desktop viewer's call and permission (403 没有此大屏权限):
 * a quick board reflowed to one column, a screen board scaled to the phone's width (pinch to zoom).
 */
export function MobileBoard({ boardId }: { boardId: number }) {
  const { board, failure, onReady, retry } = useBoardView(boardId);
  const shown = useMemo(() => (board ? reflowForPhone(board) : null), [board]);
  if (!shown) return <BoardStatePanel failure={failure} onRetry={retry} />;
  return (
    <div className="m-board" data-testid="m-board" data-board-id={boardId} data-board-type={shown.content.type}>
      <BoardView key={boardId} board={shown} tools={false} onReady={onReady} batch />
    </div>
  );
}
