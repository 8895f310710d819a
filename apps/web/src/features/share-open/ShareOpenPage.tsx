import { lazy, Suspense, useCallback, useDeferredValue, useEffect, useRef, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { Button, Card, Input, Result, Space, Spin, Tooltip } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ShareOpenRefusal, ShareOpenResult } from '@shutu/contracts';
import { ApiError, clearToken, getToken, loginPath, setTokenOverride } from '../../shared/api.ts';
import { BoardStatePanel } from '../board/preview/BoardStatePanel.tsx';
import { useBoardView } from '../board/preview/useBoardView.ts';
import { AnchorNav } from '../board/runtime/AnchorNav.tsx';
import { BoardView } from '../board/runtime/BoardView.tsx';
import { ClearLinkageButton, DialogChartButtons } from '../board/runtime/ControlButtons.tsx';
import { SHARED_PATH_RULES, viewerFlags } from '../ppt/viewer/viewer-rules.ts';
import { pptKeys } from '../ppt/api.ts';
import { openShareLink } from '../share/api.ts';
import { sm } from '../share/messages.ts';
import '../share/share.css';
import '../board/board.css';

/** The slideshow viewer: only a slideshow's link loads it (a board's link is the common case and stays light). */
const PptViewer = lazy(() => import('../ppt/viewer/PptViewer.tsx').then((m) => ({ default: m.PptViewer })));

/** Why the open call failed, from the server's `data.reason` (or the status when there is none). */
export function refusalOf(error: unknown): ShareOpenRefusal | 'error' {
  if (!(error instanceof ApiError)) return 'error';
  const reason = (error.data as { reason?: string } | null)?.reason;
  if (reason) return reason as ShareOpenRefusal;
  if (error.status === 404) return 'gone';
  if (error.status === 410) return 'expired';
  return 'error';
}

function Panel({ children, testId, refusal }: { children: React.ReactNode; testId: string; refusal?: string }) {
  return (
    <div className="share-state-panel" data-testid={testId} data-refusal={refusal}>
      {children}
    </div>
  );
}

/** 此分享需要访问密码: the password form, with 密码错误 (or the server's message) inline. */
function PasswordForm({ error, pending, onSubmit }: { error: string | null; pending: boolean; onSubmit: (password: string) => void }) {
  const [password, setPassword] = useState('');
  const submit = () => password && onSubmit(password);
  return (
    <Panel testId="share-password">
      <Card className="share-password-card" title={sm.passwordTitle}>
        <Space.Compact style={{ width: '100%' }}>
          <Input.Password
            autoFocus
            prefix={<LockOutlined />}
            placeholder={sm.passwordInputPlaceholder}
            aria-label={sm.passwordInputPlaceholder}
            value={password}
            status={error ? 'error' : undefined}
            onChange={(e) => setPassword(e.target.value)}
            onPressEnter={submit}
            data-testid="share-password-input"
          />
          <Button type="primary" loading={pending} disabled={!password} onClick={submit} data-testid="share-password-submit">
            {sm.passwordSubmit}
          </Button>
        </Space.Compact>
        <div className="share-password-error" data-testid="share-password-error">
          {error}
        </div>
      </Card>
    </Panel>
  );
}

/** One shared board, read-only, through the link's token (set as the API's token override before it renders). */
function SharedBoard({ boardId }: { boardId: number }) {
  const { board: current, failure, onReady, retry } = useBoardView(boardId);
  // The board's first render in a transition: React renders it in slices between which a phone
  // still answers taps (Lighthouse's total blocking time), instead of one task of its charts.
  const board = useDeferredValue(current);
  useEffect(() => {
    if (board) document.title = board.title;
  }, [board]);
  if (!board) return <BoardStatePanel failure={failure} onRetry={retry} />;
  return (
    <div className="board-preview-page" data-testid="share-board">
      <BoardView
        key={board.id}
        board={board}
        tools={false}
        onReady={onReady}
        batch
        header={(controls) => (
          <div className="board-topbar" data-testid="board-topbar">
            <Tooltip title={board.title}>
              <div className="board-topbar-title" data-testid="board-title">
                {board.title}
              </div>
            </Tooltip>
            <Space size={8} wrap={false}>
              <DialogChartButtons controls={controls} />
              <AnchorNav controls={controls} content={board.content} />
              <ClearLinkageButton controls={controls} />
            </Space>
          </div>
        )}
      />
    </div>
  );
}

/**
 * A shared slideshow in the full slideshow viewer, through the link's token: paging, keys,
 * auto-play and the watermark (?watermark=1&text=…) work; what needs a session of one's own
 * (订阅, 导出pdf, 收藏, 归档, chart tools) is left out. Only the boards the token may read are shown.
 */
function SharedSlideshow({ opened }: { opened: ShareOpenResult }) {
  const [search] = useSearchParams();
  return (
    <Suspense
      fallback={
        <Panel testId="share-opening">
          <Spin size="large" />
        </Panel>
      }
    >
      <PptViewer
        ppid={opened.dataId}
        initialId={0}
        full={false}
        rules={SHARED_PATH_RULES}
        flags={viewerFlags(search)}
        token={opened.token}
        shared
        boardIds={opened.boardIds}
      />
    </Suspense>
  );
}

/**
 * /share/{code}: opens a share link. Login-free links open without a session; account-matching
 * ones send a visitor without one to the login page (and back). A password is asked for when
 * the link has one (密码错误 inline); 链接已过期 and 链接不存在或已失效 get their own panels. The
 * content is then read with the token the link hands out — an in-memory override: the stored
 * session (if any) is neither used nor changed by the board's calls.
 */
export default function ShareOpenPage() {
  const code = useParams().code ?? '';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [opened, setOpened] = useState<ShareOpenResult | null>(null);
  const [refusal, setRefusal] = useState<ShareOpenRefusal | 'error' | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  // The open call itself goes out with the stored session (an account-matching link needs it).
  useState(() => setTokenOverride(null));
  // What is read through the link's token must not be shown to the stored session later, nor
  // the other way round: boards and slideshows are cached for long (the viewer loads each once).
  const dropContentCache = useCallback(() => {
    queryClient.removeQueries({ queryKey: ['board'] });
    queryClient.removeQueries({ queryKey: pptKeys.all });
  }, [queryClient]);
  useEffect(
    () => () => {
      setTokenOverride(null);
      dropContentCache();
    },
    [dropContentCache],
  );

  const open = useMutation({
    mutationFn: (password?: string) => openShareLink(code, password),
    meta: { silent: true },
    onSuccess: (result) => {
      dropContentCache();
      setTokenOverride(result.token);
      setOpened(result);
    },
    onError: (error) => {
      const why = refusalOf(error);
      if (why === 'login') {
        // The server saw no valid session: a stored one has expired.
        if (getToken()) clearToken();
        void navigate(loginPath(`/share/${encodeURIComponent(code)}`), { replace: true });
        return;
      }
      setRefusal(why);
      setMessage(error instanceof ApiError ? error.message : null);
    },
  });
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    open.mutate(undefined);
  }, [open]);

  if (opened) {
    return opened.dataType === 'ppt' ? <SharedSlideshow opened={opened} /> : <SharedBoard boardId={opened.dataId} />;
  }
  if (refusal === 'password' || refusal === 'passwordWrong' || refusal === 'tooMany') {
    return <PasswordForm pending={open.isPending} error={refusal === 'password' ? null : message} onSubmit={(password) => open.mutate(password)} />;
  }
  if (refusal === 'expired') {
    return (
      <Panel testId="share-refused" refusal="expired">
        <Result status="warning" title={sm.linkExpired} subTitle={sm.expiredSub} />
      </Panel>
    );
  }
  if (refusal === 'gone') {
    return (
      <Panel testId="share-refused" refusal="gone">
        <Result status="404" title={sm.linkGone} subTitle={sm.goneSub} />
      </Panel>
    );
  }
  if (refusal === 'forbidden') {
    return (
      <Panel testId="share-refused" refusal="forbidden">
        <Result status="403" title={message ?? sm.forbidden} subTitle={sm.forbiddenSub} />
      </Panel>
    );
  }
  if (refusal) {
    return (
      <Panel testId="share-refused" refusal="error">
        <Result
          status="error"
          title={sm.loadFailed}
          subTitle={message}
          extra={
            <Button type="primary" onClick={() => open.mutate(undefined)}>
              {sm.retry}
            </Button>
          }
        />
      </Panel>
    );
  }
  return (
    <Panel testId="share-opening">
      <Spin size="large" />
      <span style={{ marginLeft: 12 }}>{sm.opening}</span>
    </Panel>
  );
}
