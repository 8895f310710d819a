import { useEffect, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { setTokenOverride } from '../../../shared/api.ts';
import { AnchorNav } from '../runtime/AnchorNav.tsx';
import { BoardView } from '../runtime/BoardView.tsx';
import { BoardStatePanel } from './BoardStatePanel.tsx';
import { useBoardView } from './useBoardView.ts';

/**
 * /openview/{id}?token=: the board alone (the iframe preview, and what the server's headless
 * Chromium renders for thumbnails and PDF). Every call uses the token of the address instead of
 * any stored session; without a token, or when it has expired, 链接已失效. Its only chrome is
 * 导航 in the top right corner, and only when the board has anchors.
 */
export default function OpenViewPage() {
  const id = Number(useParams().id);
  const token = useSearchParams()[0].get('token')?.trim() || null;
  // Set before the first query runs (queries start after render), undone on leaving.
  useState(() => setTokenOverride(token));
  useEffect(() => {
    setTokenOverride(token);
    return () => setTokenOverride(null);
  }, [token]);
  const { board, failure, onReady, retry } = useBoardView(id, { failure: token ? null : 'expired' });
  if (!board) return <BoardStatePanel failure={failure} onRetry={retry} />;
  return (
    <div className="board-preview-page" data-testid="board-openview">
      <BoardView
        board={board}
        batch
        onReady={onReady}
        header={(controls) =>
          controls.anchors.length > 0 ? (
            <div className="board-openview-bar">
              <AnchorNav controls={controls} content={board.content} />
            </div>
          ) : null
        }
      />
    </div>
  );
}
