import { Button, Result, Spin } from 'antd';
import { previewMessages as pm } from '../runtime/messages.ts';
import type { BoardFailure } from './useBoardView.ts';

/** The whole-page states of a preview: 拼命加载中, 没有此大屏权限, 链接已失效, a failure with 重试. */
export function BoardStatePanel({ failure, onRetry }: { failure: BoardFailure | null; onRetry?: () => void }) {
  if (!failure) {
    return (
      <div className="board-state-panel" data-testid="board-loading">
        <Spin size="large" />
        <span>{pm.loading}</span>
      </div>
    );
  }
  const body =
    failure === 'forbidden' ? (
      <Result status="403" title={pm.forbidden} subTitle={pm.forbiddenSub} />
    ) : failure === 'expired' ? (
      <Result status="warning" title={pm.linkExpired} subTitle={pm.linkExpiredSub} />
    ) : (
      <Result
        status="error"
        title={pm.loadFailed}
        extra={
          onRetry && (
            <Button type="primary" onClick={onRetry}>
              {pm.retry}
            </Button>
          )
        }
      />
    );
  return (
    <div className="board-state-panel" data-testid="board-failure" data-failure={failure}>
      {body}
    </div>
  );
}
