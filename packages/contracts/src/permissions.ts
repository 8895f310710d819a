/** Permission codes granted through roles. Administrators hold every code. */
export const PERMISSIONS = [
  { code: 'cube_filter_row', name: '数据集行权限与全局过滤', group: '数据集' },
  { code: 'dict_view', name: '查看字典', group: '字典管理' },
  { code: 'dict_add', name: '新增字典', group: '字典管理' },
  { code: 'dict_edit', name: '编辑字典', group: '字典管理' },
  { code: 'dict_delete', name: '删除字典', group: '字典管理' },
  { code: 'order_export', name: '订购数据导出', group: '客户数据' },
  { code: 'market_view', name: '营销任务统计', group: '客户数据' },
] as const;

export type PermissionCode = (typeof PERMISSIONS)[number]['code'];
export const PERMISSION_CODES: readonly string[] = PERMISSIONS.map((p) => p.code);
