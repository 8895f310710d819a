import type { UserInfo } from '@shutu/contracts';
import { canAccess, type Access } from '../shared/access.ts';
import { t } from '../shared/messages.ts';
import { bt } from '../features/board/messages.ts';
import { hm } from '../features/home/messages.ts';
import { am } from '../features/dataapi/messages.ts';
import { HOME_PATH } from '@shutu/contracts/home-constants';
import { hmt, smt } from '../features/heatmap/messages.ts';
import { am as appLabels } from '../features/app/messages.ts';
import { APP_EDIT_PATH, APP_LIST_PATH } from '../features/app/paths.ts';
import { orderExportLabels } from '../features/orderexport/index.ts';
import { alertLabels } from '../features/alert/index.ts';
import { marketLabels } from '../features/market/index.ts';
import { cm as cdpLabels } from '../features/cdp/messages.ts';
import { workflowLabels } from '../features/workflow/index.ts';
import { AUDIENCE_EDIT_PATH, AUDIENCE_LIST_PATH, audienceLabels } from '../features/audience/index.ts';
import { PROFILE_COMPARE_PATH, TAG_AUDIENCE_PATH, TAG_DETAIL_PATH, TAG_LIBRARY_PATH, tagLabels } from '../features/tag/index.ts';
import { LEAVE_HANDLE_PATH, LEAVE_START_PATH, WORK_START_PATH } from '@shutu/contracts/workflow-constants';

export type PageKey =
  | 'home'
  | 'warning'
  | 'warningEdit'
  | 'warningLog'
  | 'warningSettings'
  | 'dataset'
  | 'visual'
  | 'report'
  | 'users'
  | 'depts'
  | 'roles'
  | 'dict'
  | 'datasource'
  | 'authGroup'
  | 'authGroupSetting'
  | 'settings'
  | 'profile'
  | 'exportTasks'
  | 'ppt'
  | 'app'
  | 'appEdit'
  | 'subscriptionLog'
  | 'shares'
  | 'dataapi'
  | 'dataapiDocs'
  | 'dataapiAdmin'
  | 'heatmap'
  | 'heatmapSites'
  | 'orderExport'
  | 'market'
  | 'workStart'
  | 'leaveStart'
  | 'leaveHandle'
  | 'cdpJoin'
  | 'cdpJoinInfo'
  | 'cdpJoinLog'
  | 'cdpJoinCallback'
  | 'cdpAccounts'
  | 'cdpFans'
  | 'cdpPlatforms'
  | 'audience'
  | 'audienceEdit'
  | 'tagLibrary'
  | 'tagDetail'
  | 'tagAudience'
  | 'profileCompare';
export type Section = 'home' | 'data' | 'visual' | 'system' | 'personal';

export interface PageDef {
  key: PageKey;
  path: string;
  label: string;
  section: Section;
  access: Access;
  /** Opened from another page, never from the side menu; `parent` is the menu entry it belongs to. */
  hidden?: boolean;
  parent?: PageKey;
  /** Never where `/` lands (`/` opens 首页, the first page; docs/home.md). */
  notHome?: boolean;
}

/** Every page of the app, in menu order; `/` opens the first menu page the user may open. */
export const PAGES: readonly PageDef[] = [
  // 首页 (issue 16): where everyone lands after login and `/` (docs/home.md).
  { key: 'home', path: HOME_PATH, label: hm.page, section: 'home', access: 'user' },
  // 流程工作台 /work/start (issue 23; spec 3 §2, docs/workflow.md): every signed-in user starts and approves; the forms return here.
  { key: 'workStart', path: WORK_START_PATH, label: workflowLabels.page, section: 'home', access: 'user', notHome: true },
  {
    key: 'leaveStart',
    path: LEAVE_START_PATH,
    label: workflowLabels.pageLeaveStart,
    section: 'home',
    access: 'user',
    hidden: true,
    parent: 'workStart',
    notHome: true,
  },
  {
    key: 'leaveHandle',
    path: LEAVE_HANDLE_PATH,
    label: workflowLabels.pageLeaveHandle,
    section: 'home',
    access: 'user',
    hidden: true,
    parent: 'workStart',
    notHome: true,
  },
  // Open to every signed-in user: the server lists only the datasets each may see.
  { key: 'dataset', path: '/newbi/dataset', label: t.pageDataset, section: 'data', access: 'user', notHome: true },
  // Data APIs (issue 17; route not in the spec, docs/dataapi.md): every user defines their own; the server lists only theirs.
  { key: 'dataapi', path: '/newbi/dataapi', label: am.pageList, section: 'data', access: 'user', notHome: true },
  { key: 'dataapiDocs', path: '/newbi/dataapi/docs', label: am.pageDocs, section: 'data', access: 'user', hidden: true, parent: 'dataapi', notHome: true },
  // Open to every signed-in user: the server lists only the boards each may see.
  { key: 'visual', path: '/newbi/visual', label: bt.pageVisual, section: 'visual', access: 'user', notHome: true },
  { key: 'report', path: '/newbi/report', label: bt.pageReport, section: 'visual', access: 'user', notHome: true },
  { key: 'ppt', path: '/newbi/ppt', label: bt.pagePpt, section: 'visual', access: 'user', notHome: true },
  // 应用管理 and 编辑应用 ?id= (issue 24; routes not in the spec, docs/apps.md): every signed-in user; others' apps only for administrators.
  { key: 'app', path: APP_LIST_PATH, label: appLabels.page, section: 'visual', access: 'user', notHome: true },
  { key: 'appEdit', path: APP_EDIT_PATH, label: appLabels.pageEdit, section: 'visual', access: 'user', hidden: true, parent: 'app', notHome: true },
  // 点击热力图 (issue 22; route not in the spec, docs/heatmap.md): every signed-in user; table grants decide what they read.
  { key: 'heatmap', path: '/newbi/heatmap', label: hmt.page, section: 'visual', access: 'user', notHome: true },
  // Tracked sites and their write keys (issue 22): administrators, opened from 点击热力图.
  { key: 'heatmapSites', path: '/newbi/heatmap-sites', label: smt.page, section: 'visual', access: 'admin', hidden: true, parent: 'heatmap', notHome: true },
  // 订购数据导出 (issue 20; route not in the spec, docs/order-export.md): the permission code order_export.
  { key: 'orderExport', path: '/cdp/orderexport', label: orderExportLabels.page, section: 'data', access: { permission: 'order_export' }, notHome: true },
  // 预警 (issue 19; docs/alerts.md): the list (route not in the spec), the editor /newbi/warning/edit?id= (spec 3 §2) and the check log.
  { key: 'warning', path: '/newbi/warning', label: alertLabels.page, section: 'data', access: 'user', notHome: true },
  { key: 'warningEdit', path: '/newbi/warning/edit', label: alertLabels.pageEdit, section: 'data', access: 'user', hidden: true, parent: 'warning' },
  { key: 'warningLog', path: '/newbi/warning/log', label: alertLabels.pageLog, section: 'data', access: 'user', hidden: true, parent: 'warning' },
  { key: 'warningSettings', path: '/newbi/warning/settings', label: alertLabels.settings, section: 'data', access: 'admin', hidden: true, parent: 'warning' },
  // 营销任务统计 (issue 20; route not in the spec): the permission code market_view.
  { key: 'market', path: '/cdp/market', label: marketLabels.page, section: 'data', access: { permission: 'market_view' }, notHome: true },
  // 平台接入 (issue 21; docs/platforms.md): administrators. /cdp/join/info and /cdp/join/log are the spec's routes; the list, the callback, 公众号 and 粉丝列表 are ours.
  { key: 'cdpJoin', path: '/cdp/join', label: cdpLabels.pageJoin, section: 'data', access: 'admin', notHome: true },
  { key: 'cdpJoinInfo', path: '/cdp/join/info', label: cdpLabels.pageInfo, section: 'data', access: 'admin', hidden: true, parent: 'cdpJoin', notHome: true },
  { key: 'cdpJoinLog', path: '/cdp/join/log', label: cdpLabels.pageLog, section: 'data', access: 'admin', hidden: true, parent: 'cdpJoin', notHome: true },
  {
    key: 'cdpJoinCallback',
    path: '/cdp/join/callback',
    label: cdpLabels.pageCallback,
    section: 'data',
    access: 'admin',
    hidden: true,
    parent: 'cdpJoin',
    notHome: true,
  },
  { key: 'cdpAccounts', path: '/cdp/official', label: cdpLabels.pageAccounts, section: 'data', access: 'admin', notHome: true },
  { key: 'cdpFans', path: '/cdp/fans', label: cdpLabels.pageFans, section: 'data', access: 'admin', notHome: true },
  // 人群管理 and the dataset-driven editor ?id= (issue 18 A; list route ours, docs/audiences.md): every signed-in user; reads use their own data permissions.
  { key: 'audience', path: AUDIENCE_LIST_PATH, label: audienceLabels.pageList, section: 'data', access: 'user', notHome: true },
  {
    key: 'audienceEdit',
    path: AUDIENCE_EDIT_PATH,
    label: audienceLabels.pageEdit,
    section: 'data',
    access: 'user',
    hidden: true,
    parent: 'audience',
    notHome: true,
  },
  // 标签库 / 标签详情 / 标签人群 (issue 18 B; routes not in the spec, docs/tags.md): every signed-in user; table grants decide what they read.
  { key: 'tagLibrary', path: TAG_LIBRARY_PATH, label: tagLabels.pageLibrary, section: 'data', access: 'user', notHome: true },
  { key: 'tagDetail', path: TAG_DETAIL_PATH, label: tagLabels.pageDetail, section: 'data', access: 'user', hidden: true, parent: 'tagLibrary', notHome: true },
  { key: 'tagAudience', path: TAG_AUDIENCE_PATH, label: tagLabels.pageAudience, section: 'data', access: 'user', notHome: true },
  // 用户画像对比 ?type=&id=1,2,3 (spec 3 §2): over the audiences the user may see.
  { key: 'profileCompare', path: PROFILE_COMPARE_PATH, label: tagLabels.pageCompare, section: 'data', access: 'user', notHome: true },
  { key: 'users', path: '/system/users', label: t.pageUsers, section: 'system', access: 'admin' },
  { key: 'depts', path: '/system/depts', label: t.pageDepts, section: 'system', access: 'admin' },
  { key: 'roles', path: '/system/roles', label: t.pageRoles, section: 'system', access: 'admin' },
  { key: 'dict', path: '/system/dict', label: t.pageDict, section: 'system', access: { permission: 'dict_view' } },
  { key: 'datasource', path: '/system/datasource', label: t.pageDatasource, section: 'system', access: 'admin' },
  { key: 'authGroup', path: '/system/authGroup', label: t.pageAuthGroup, section: 'system', access: 'admin' },
  {
    key: 'authGroupSetting',
    path: '/system/authGroupSetting',
    label: t.pageAuthGroupSetting,
    section: 'system',
    access: 'admin',
    hidden: true,
    parent: 'authGroup',
  },
  { key: 'settings', path: '/system/settings', label: t.pageSettings, section: 'system', access: 'admin' },
  // 平台类型 (issue 21): the connected platforms' types, URLs, open-platform secrets and interfaces.
  { key: 'cdpPlatforms', path: '/system/platforms', label: cdpLabels.pagePlatforms, section: 'system', access: 'admin' },
  // Access keys, the call log and the outgoing-host allow-list of data APIs (issue 17).
  { key: 'dataapiAdmin', path: '/system/dataapi', label: am.pageAdmin, section: 'system', access: 'admin' },
  { key: 'profile', path: '/info/index', label: t.pageProfile, section: 'personal', access: 'user' },
  // The user's own export tasks (spec 1 §2.10: 任务管理 → /newbi/mine/export).
  { key: 'exportTasks', path: '/newbi/mine/export', label: bt.pageExportTasks, section: 'personal', access: 'user' },
  // The user's share links (administrators see everyone's) and the subscription sending log (spec 1 §2.9).
  { key: 'shares', path: '/newbi/mine/share', label: bt.pageShares, section: 'personal', access: 'user' },
  { key: 'subscriptionLog', path: '/newbi/mine/subscription-log', label: bt.pageSubscriptionLog, section: 'personal', access: 'user' },
];

export const SECTIONS: readonly { key: Section; label: string }[] = [
  // No title: 首页 stands alone at the top of the menu.
  { key: 'home', label: '' },
  { key: 'data', label: t.menuDataPrep },
  { key: 'visual', label: bt.menuVisual },
  { key: 'system', label: t.menuSystem },
  { key: 'personal', label: t.menuPersonal },
];

type Who = Pick<UserInfo, 'isAdministrator' | 'permissions'>;

/** The side menu's pages for this user: those they may open, hidden pages left out. */
export function visiblePages(user: Who | null | undefined): PageDef[] {
  return PAGES.filter((p) => !p.hidden && canAccess(user, p.access));
}

export function homePath(user: Who | null | undefined): string {
  return visiblePages(user).find((p) => !p.notHome)?.path ?? '/info/index';
}

export function pageByPath(pathname: string): PageDef | undefined {
  return PAGES.find((p) => pathname === p.path || pathname.startsWith(`${p.path}/`));
}

export function pageByKey(key: PageKey): PageDef {
  return PAGES.find((p) => p.key === key)!;
}
