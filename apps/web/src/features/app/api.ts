import type { App, AppDetail, AppFrame, AppGrantable, AppMenu, AppSave, FrameSettings, MenuSave, MenuTreeSave } from '@shutu/contracts';
import { API, apiPath } from '@shutu/contracts/api';
import { http, request } from '../../shared/api.ts';

export const appKeys = {
  all: ['app'] as const,
  list: ['app', 'list'] as const,
  detail: (id: number) => ['app', 'detail', id] as const,
  grantable: ['app', 'grantable'] as const,
  groupAuthAll: ['app', 'group-auth'] as const,
  groupAuth: (groupId: number) => ['app', 'group-auth', groupId] as const,
  mobile: ['app', 'mobile'] as const,
  mobileApp: (id: number) => ['app', 'mobile', id] as const,
  frame: ['app', 'frame'] as const,
  frameSettings: ['app', 'frame-settings'] as const,
};

export const fetchApps = () => http.get<App[]>(API.app.apps);
export const fetchApp = (id: number) => http.get<AppDetail>(apiPath(API.app.app, { id }));
/** Writes keep the whole result: `msg` is the server's success message. */
export const saveApp = (body: AppSave) => request<AppDetail>(API.app.apps, { method: 'POST', body });
export const deleteApp = (id: number) => request<null>(apiPath(API.app.app, { id }), { method: 'DELETE' });

export const saveMenu = (appId: number, body: MenuSave) => request<AppMenu[]>(apiPath(API.app.menus, { id: appId }), { method: 'POST', body });
export const saveMenuTree = (appId: number, menus: MenuTreeSave[]) =>
  request<AppMenu[]>(apiPath(API.app.menus, { id: appId }), { method: 'PUT', body: { menus } });
export const deleteMenus = (appId: number, ids: number[]) =>
  request<AppMenu[]>(apiPath(API.app.menus, { id: appId }), { method: 'DELETE', query: { ids: ids.join(',') } });

export const fetchGrantableApps = () => http.get<AppGrantable[]>(API.app.grantable);
export const fetchGroupAppAuth = (groupId: number) => http.get<number[]>(apiPath(API.app.groupAuth, { dataPermId: groupId }));
export const saveGroupAppAuth = (groupId: number, appIdList: number[]) =>
  request<number[]>(apiPath(API.app.groupAuth, { dataPermId: groupId }), { method: 'PUT', body: { appIdList } });

export const fetchMobileApps = () => http.get<App[]>(API.app.mobile);
export const fetchMobileApp = (id: number) => http.get<AppDetail>(apiPath(API.app.mobileApp, { id }));
export const fetchFrame = () => http.get<AppFrame>(API.app.frame);
export const fetchFrameSettings = () => http.get<FrameSettings>(API.app.frameSettings);
export const saveFrameSettings = (body: FrameSettings) => request<FrameSettings>(API.app.frameSettings, { method: 'PUT', body });
