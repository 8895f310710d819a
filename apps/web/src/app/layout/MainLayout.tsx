import { useEffect, useState, type MouseEvent } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { Avatar, Breadcrumb, Dropdown, Layout, Menu, type MenuProps } from 'antd';
import { DownOutlined, IdcardOutlined, LogoutOutlined, MenuFoldOutlined, MenuUnfoldOutlined, UserOutlined } from '@ant-design/icons';
import { useSignOut, useUserInfo } from '../../shared/session.ts';
import { useSystemName } from '../../features/system/api.ts';
import { Logo } from '../../shared/Logo.tsx';
import { t } from '../../shared/messages.ts';
import { pageByKey, pageByPath, SECTIONS } from '../pages.ts';
import { buildMenuItems } from './menu.tsx';

const { Header, Sider, Content } = Layout;

export function MainLayout() {
  const { data: user } = useUserInfo();
  const systemName = useSystemName();
  const location = useLocation();
  const navigate = useNavigate();
  const signOut = useSignOut();
  const [collapsed, setCollapsed] = useState(false);

  useEffect(() => {
    document.title = systemName;
  }, [systemName]);

  const page = pageByPath(location.pathname);
  const section = SECTIONS.find((s) => s.key === page?.section);
  // A hidden page (opened from another one) keeps its menu entry selected and shows it in the trail.
  const parent = page?.parent ? pageByKey(page.parent) : undefined;
  const menuPage = parent ?? page;

  const followLink = (path: string) => (e: MouseEvent) => {
    e.preventDefault();
    void navigate(path);
  };

  const userMenu: MenuProps = {
    items: [
      { key: 'profile', icon: <IdcardOutlined />, label: t.pageProfile },
      { type: 'divider' },
      { key: 'logout', icon: <LogoutOutlined />, label: t.logout, danger: true },
    ],
    onClick: ({ key }) => {
      if (key === 'profile') void navigate('/info/index');
      if (key === 'logout') void signOut();
    },
  };

  return (
    <Layout className="app-shell">
      <Header className="app-header" data-testid="app-header">
        <div className="app-header-left">
          <Logo size={30} />
          <span className="app-header-title" data-testid="system-name">
            {systemName}
          </span>
        </div>
        <Dropdown menu={userMenu} placement="bottomRight" trigger={['click', 'hover']}>
          <button type="button" className="app-user" data-testid="user-menu">
            <Avatar size={30} src={user?.avatar || undefined} icon={<UserOutlined />} className="app-user-avatar" />
            <span className="app-user-name">{user?.name}</span>
            <DownOutlined className="app-user-caret" />
          </button>
        </Dropdown>
      </Header>
      <Layout>
        <Sider width={208} collapsedWidth={64} collapsed={collapsed} className="app-sider" theme="light" trigger={null}>
          <Menu
            mode="inline"
            className="app-menu"
            selectedKeys={menuPage ? [menuPage.path] : []}
            items={buildMenuItems(user, collapsed)}
            onClick={({ key }) => void navigate(key)}
          />
          <button type="button" className="app-sider-toggle" onClick={() => setCollapsed((c) => !c)} aria-label={collapsed ? t.expandMenu : t.collapseMenu}>
            {collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
          </button>
        </Sider>
        <Content className="app-content">
          {page && (
            <Breadcrumb
              className="app-breadcrumb"
              items={[
                ...(section?.label ? [{ title: section.label }] : []),
                ...(parent ? [{ title: parent.label, href: parent.path, onClick: followLink(parent.path) }] : []),
                { title: page.label },
              ]}
            />
          )}
          <Outlet />
        </Content>
      </Layout>
    </Layout>
  );
}
