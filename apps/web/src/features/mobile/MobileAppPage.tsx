import { useEffect } from 'react';
import { Button, Result, Spin } from 'antd';
import { LeftOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { useUserInfo } from '../../shared/session.ts';
import { errorText } from '../../shared/notify.ts';
import { appKeys, fetchMobileApp } from '../app/api.ts';
import { am } from '../app/messages.ts';
import { MOBILE_HOME_PATH } from '../app/paths.ts';
import { MenuBarFor } from './MenuBarFor.tsx';
import { MobileBoard } from './MobileBoard.tsx';
import { menuToOpen, watermarkText } from './reflow.ts';
import { Watermark } from './Watermark.tsx';
import './mobile.css';

/**
 * /m/app/{appId}: an app on a phone. Its menus as a top sub-menu ('1') or a pop-up sub-menu
 * ('2'); the chosen dashboard (?menu= keeps it across reloads) fills the width under them, with
 * the user's watermark when the app asks for one. Unpublished or ungranted apps answer 403.
 */
export default function MobileAppPage() {
  const id = Number(useParams().id);
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const user = useUserInfo().data;
  const app = useQuery({ queryKey: appKeys.mobileApp(id), queryFn: () => fetchMobileApp(id), retry: false, staleTime: 0, meta: { silent: true } });
  useEffect(() => {
    if (app.data) document.title = app.data.appName;
  }, [app.data]);

  if (app.isLoading) return <Spin className="m-center" size="large" />;
  if (!app.data) {
    return (
      <div className="m-center" data-testid="m-app-refused">
        <Result status="403" title={errorText(app.error)} extra={<Button onClick={() => void navigate(MOBILE_HOME_PATH)}>{am.back}</Button>} />
      </div>
    );
  }
  const detail = app.data;
  const open = menuToOpen(detail.menus, Number(params.get('menu')) || null);
  const onOpen = (menuId: number) => setParams({ menu: String(menuId) }, { replace: true });
  return (
    <div className="m-page" data-testid="m-app" data-show-type={detail.menuShowType}>
      <header className="m-header">
        <button type="button" className="m-back" aria-label={am.back} onClick={() => void navigate(MOBILE_HOME_PATH)}>
          <LeftOutlined />
        </button>
        <h1 className="m-title">{detail.appName}</h1>
      </header>
      <MenuBarFor app={detail} activeId={open?.menuId} onOpen={(m) => onOpen(m.menuId)} />
      <main className="m-body">
        {open?.visualId ? <MobileBoard key={open.visualId} boardId={open.visualId} /> : <Result status="info" title={am.noMenus} />}
        {detail.waterMarkStatus === 1 && <Watermark text={watermarkText(user?.realName || user?.name || '', detail.waterMarkText)} />}
      </main>
    </div>
  );
}
