import { Empty, Spin } from 'antd';
import { RightOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { appKeys, fetchMobileApps } from '../app/api.ts';
import { MenuIcon } from '../app/menu-icons.tsx';
import { am } from '../app/messages.ts';
import { mobileAppPath } from '../app/paths.ts';
import './mobile.css';

const TITLE = '我的应用';

/** /m: the apps the user may open on a phone (published and granted; administrators all). */
export default function MobileHomePage() {
  const apps = useQuery({ queryKey: appKeys.mobile, queryFn: fetchMobileApps, staleTime: 0 });
  return (
    <div className="m-page" data-testid="m-home">
      <header className="m-header">
        <h1 className="m-title">{TITLE}</h1>
      </header>
      <main className="m-list">
        {apps.isLoading && <Spin className="m-center" />}
        {apps.data?.length === 0 && <Empty description={am.empty} />}
        {apps.data?.map((app) => (
          <Link key={app.appId} to={mobileAppPath(app.appId)} className="m-app-card" data-testid="m-app-card" data-name={app.appName}>
            <span className="m-app-icon">{app.appIcon ? <img src={app.appIcon} alt="" /> : <MenuIcon name={null} />}</span>
            <span className="m-app-text">
              <span className="m-app-name">{app.appName}</span>
              {app.appDescription && <span className="m-app-desc">{app.appDescription}</span>}
            </span>
            <RightOutlined className="m-app-arrow" />
          </Link>
        ))}
      </main>
    </div>
  );
}
