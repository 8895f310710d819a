import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Result, Spin } from 'antd';
import { PLATFORM_DICT_KEY } from '@shutu/contracts';
import { errorText } from '../../shared/notify.ts';
import { finishJoin } from './api.ts';
import { cm } from './messages.ts';

/**
 * 授权回调 (spec 1 §2.11): auth_code from the query, platformDictId from local storage; finishes
 * the join once, then replaces itself with /cdp/join/info?id={id}.
 */
export function JoinCallbackPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);
  const authCode = params.get('auth_code');
  const platformDictId = Number(localStorage.getItem(PLATFORM_DICT_KEY));
  const missing = !authCode || !platformDictId;
  useEffect(() => {
    if (missing || started.current) return;
    started.current = true;
    finishJoin(platformDictId, authCode)
      .then(({ id }) => {
        localStorage.removeItem(PLATFORM_DICT_KEY);
        void navigate(`/cdp/join/info?id=${id}`, { replace: true });
      })
      .catch((e: unknown) => setError(errorText(e)));
  }, [authCode, missing, navigate, platformDictId]);
  if (missing || error) {
    return <Result status="error" title={cm.authFailed} subTitle={error ?? cm.callbackMissing} extra={<Link to="/cdp/join">{cm.backToJoin}</Link>} />;
  }
  return (
    <div className="full-page-center">
      <Spin tip={cm.callbackRunning} size="large">
        <div style={{ width: 240, height: 80 }} />
      </Spin>
    </div>
  );
}
