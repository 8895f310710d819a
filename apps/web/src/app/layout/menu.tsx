import type { ReactNode } from 'react';
import type { MenuProps } from 'antd';
import {
  AlertOutlined,
  ProfileOutlined,
  RiseOutlined,
  ApartmentOutlined,
  BookOutlined,
  DatabaseOutlined,
  DesktopOutlined,
  FundProjectionScreenOutlined,
  HomeOutlined,
  IdcardOutlined,
  KeyOutlined,
  SafetyCertificateOutlined,
  SettingOutlined,
  TableOutlined,
  TeamOutlined,
  CloudDownloadOutlined,
  PlaySquareOutlined,
  ShareAltOutlined,
  NotificationOutlined,
  HeatMapOutlined,
  ApiOutlined,
  CloudServerOutlined,
  AuditOutlined,
  LinkOutlined,
  WechatOutlined,
  UserOutlined,
  ClusterOutlined,
  AppstoreOutlined,
  TagsOutlined,
  UsergroupAddOutlined,
} from '@ant-design/icons';
import type { UserInfo } from '@shutu/contracts';
import { SECTIONS, visiblePages, type PageKey } from '../pages.ts';
import { TodoBadge } from '../../features/workflow/index.ts';

const ICONS: Record<PageKey, ReactNode> = {
  home: <HomeOutlined />,
  dataset: <TableOutlined />,
  visual: <FundProjectionScreenOutlined />,
  report: <DesktopOutlined />,
  users: <TeamOutlined />,
  depts: <ApartmentOutlined />,
  roles: <SafetyCertificateOutlined />,
  dict: <BookOutlined />,
  datasource: <DatabaseOutlined />,
  authGroup: <KeyOutlined />,
  authGroupSetting: <KeyOutlined />,
  settings: <SettingOutlined />,
  profile: <IdcardOutlined />,
  exportTasks: <CloudDownloadOutlined />,
  ppt: <PlaySquareOutlined />,
  shares: <ShareAltOutlined />,
  subscriptionLog: <NotificationOutlined />,
  dataapi: <ApiOutlined />,
  dataapiDocs: <ApiOutlined />,
  dataapiAdmin: <CloudServerOutlined />,
  heatmap: <HeatMapOutlined />,
  heatmapSites: <HeatMapOutlined />,
  orderExport: <ProfileOutlined />,
  warning: <AlertOutlined />,
  warningEdit: <AlertOutlined />,
  warningLog: <AlertOutlined />,
  warningSettings: <AlertOutlined />,
  market: <RiseOutlined />,
  workStart: <AuditOutlined />,
  leaveStart: <AuditOutlined />,
  leaveHandle: <AuditOutlined />,
  cdpJoin: <LinkOutlined />,
  cdpJoinInfo: <LinkOutlined />,
  cdpJoinLog: <LinkOutlined />,
  cdpJoinCallback: <LinkOutlined />,
  cdpAccounts: <WechatOutlined />,
  cdpFans: <UserOutlined />,
  cdpPlatforms: <ClusterOutlined />,
  audience: <TeamOutlined />,
  audienceEdit: <TeamOutlined />,
  tagLibrary: <TagsOutlined />,
  tagDetail: <TagsOutlined />,
  tagAudience: <UsergroupAddOutlined />,
  profileCompare: <UsergroupAddOutlined />,
  app: <AppstoreOutlined />,
  appEdit: <AppstoreOutlined />,
};

type MenuItem = Required<MenuProps>['items'][number];

/** Shown at the right of a menu entry: the to-do count of 流程工作台 (issue 23). */
const EXTRAS: Partial<Record<PageKey, ReactNode>> = { workStart: <TodoBadge /> };

/**
 * The side menu: one group per section, holding only the pages the user may open; empty
 * groups are dropped. Collapsed, the group titles would not fit: dividers separate sections.
 */
export function buildMenuItems(user: Pick<UserInfo, 'isAdministrator' | 'permissions'> | null | undefined, collapsed = false): MenuItem[] {
  const pages = visiblePages(user);
  const items: MenuItem[] = [];
  for (const section of SECTIONS) {
    const children = pages
      .filter((p) => p.section === section.key)
      .map((p) => ({ key: p.path, icon: ICONS[p.key], label: p.label, ...(EXTRAS[p.key] ? { extra: EXTRAS[p.key] } : {}) }));
    if (children.length === 0) continue;
    // A section without a title (首页) is its entries alone, above the groups.
    if (!section.label) items.push(...children);
    else if (!collapsed) items.push({ type: 'group', key: section.key, label: section.label, children });
    else items.push(...(items.length ? [{ type: 'divider' as const, key: `divider-${section.key}` }] : []), ...children);
  }
  return items;
}
