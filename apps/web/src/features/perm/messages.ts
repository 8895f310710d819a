/** Labels of the permission-group dialog and settings page added with issue 16 (zh-CN). */
export const pt = {
  newType: '新建分类',
  newTypePlaceholder: '新分类名称',
  newTypeOk: '添加',
  newTypeCancel: '取消',
  noTypes: '还没有分类：点「新建分类」添加一个',
  /** The dialog's summary of what is still missing, by field label. */
  missing: (labels: string[]) => `还需填写：${labels.join('、')}`,
  groupNotFound: '权限组不存在',
};
