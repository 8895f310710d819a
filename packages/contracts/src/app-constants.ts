/** Apps' messages and constants without zod (docs/web-performance.md "Schema-free contracts"): the phone viewer imports them from here; app.ts re-exports them. */

export const appMessages = {
  nameRequired: '请填写应用名',
  menuNameRequired: '请输入菜单名',
  childNeedsVisual: '二级菜单需关联大屏',
  topNeedsVisualOrChildren: '一级菜单【{name}】应关联大屏或添加子菜单',
  deleteConfirm: '确定删除此菜单?',
  deleteHasChildren: '请先删除子菜单',
  notFound: '应用不存在',
  forbidden: '没有此应用权限',
  notOwned: '只能修改或删除自己创建的应用',
  notPublished: '应用未发布',
  menuNotFound: '菜单不存在',
  parentNotFound: '上级菜单不存在',
  parentNotTop: '只支持两级菜单',
  visualMissing: '大屏【{id}】不存在',
  visualForbidden: '没有此大屏权限',
  grantUnpublished: '应用【{name}】未发布，不能授权',
  saved: '保存成功',
  deleted: '删除成功',
  noMenus: '此应用还没有菜单',
  frameAddressInvalid: '默认地址须以 / 或 http(s):// 开头',
} as const;

/** Default menu icon (spec 1 §9); the web app maps it to an antd icon. */
export const DEFAULT_MENU_ICON = 'el-icon-data-analysis';
export const DEFAULT_WATERMARK_TEXT = '保密';
export const APP_NAME_MAX_LENGTH = 50;
export const MENU_NAME_MAX_LENGTH = 30;
export const MAX_APP_MENUS = 200;
export const APP_PUBLISH_STATUS = { unpublished: 0, published: 1 } as const;
