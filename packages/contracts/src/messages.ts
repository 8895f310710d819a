/**
 * The zh-CN message catalogue. Every user-facing string the server sends and the web
 * shows comes from here, so a second language is one more catalogue of the same keys.
 * Strings quoted in the spec are used exactly as written there.
 */
export const zhCN = {
  // generic
  ok: '操作成功!',
  saved: '保存成功',
  deleted: '删除成功!',
  updated: '已更新',
  badRequest: '请求参数有误',
  unauthorized: '登录已失效，请重新登录',
  forbidden: '没有权限执行此操作',
  notFound: '请求的资源不存在',
  conflict: '数据已存在',
  tooManyRequests: '请求过于频繁，请稍后再试',
  serverError: '服务器错误',
  routeNotFound: '接口不存在',
  // auth
  accountRequired: '请输入账号',
  passwordRequired: '请输入密码',
  passwordMustBeHashed: '密码须以MD5摘要发送',
  loginFailed: '账号或密码错误',
  accountDisabled: '账号已被停用，请联系管理员',
  loginLocked: '登录失败次数过多，请1分钟后再试',
  loggedOut: '已退出登录',
  // profile (spec 1 §8)
  infoUpdated: '修改信息成功',
  passwordUpdated: '修改密码成功',
  oldPasswordWrong: '原密码不正确',
  passwordMismatch: '两次输入的密码不一致',
  passwordSameAsOld: '新密码不能与原密码相同',
  passwordTooShort: '密码长度不能少于6位',
  emailInvalid: '请输入正确的邮箱',
  phoneInvalid: '请输入正确的手机号',
  // system
  systemNameRequired: '请输入系统名称',
  // org
  accountInvalid: '账号须以字母开头，只含字母、数字或下划线，长度2-32',
  accountExists: '账号已存在',
  nameRequired: '请输入姓名',
  userNotFound: '用户不存在',
  cannotDisableSelf: '不能停用当前登录的账号',
  cannotDemoteSelf: '不能取消自己的管理员身份',
  deptNameRequired: '请输入部门名称',
  deptNotFound: '部门不存在',
  deptHasChildren: '请先删除下级部门',
  deptHasUsers: '部门下还有用户，不能删除',
  roleNameRequired: '请输入角色名称',
  roleNotFound: '角色不存在',
  roleHasChildren: '请先删除下级角色',
  parentInvalid: '上级不能是自己或自己的下级',
  permissionUnknown: '未知的权限编码',
  passwordReset: '密码已重置',
  userDisabled: '已停用',
  userEnabled: '已启用',
  // dictionaries (spec 2 §5 "Dictionary admin")
  dictCodeRequired: '请输入字典编号',
  dictKeyRequired: '请输入字典键值',
  dictValueRequired: '请输入字典名称',
  dictSortRequired: '请输入字典排序',
  dictSealedRequired: '请选择封存',
  dictSelectAtLeastOne: '请选择至少一条数据',
  dictConfirmBatchDelete: '确定将选择数据删除?',
  dictKeyExists: '同一字典下键值已存在',
  dictCodeExists: '字典编号已存在',
  dictHasChildren: '请先删除字典项',
  dictParentNotFound: '上级字典不存在',
  dictNotFound: '字典不存在',
} as const;

export type MessageKey = keyof typeof zhCN;
export const messages = zhCN;
