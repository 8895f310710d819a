/**
 * Connected platforms: messages and constants without zod (docs/web-performance.md "Schema-free contracts"): the
 * app shell's page list imports them from here and evaluates no schema; cdp.ts re-exports them.
 */

export const cdpMessages = {
  platformNotFound: '平台类型不存在',
  appNotFound: '接入应用不存在',
  taskNotFound: '数据任务不存在',
  fanNotFound: '粉丝不存在',
  platformNameRequired: '请输入平台名称',
  platformNameTaken: '平台名称已存在',
  accessUrlRequired: '请输入接入地址',
  accessUrlInvalid: '接入地址须为本系统的 /api/ 路径',
  apiBaseUrlInvalid: '请输入正确的平台接口地址（http:// 或 https://）',
  interfaceNameRequired: '请输入接口名称',
  tableNameInvalid: '表名只能包含小写字母、数字和下划线，并以字母开头',
  platformInUse: '该平台已有接入应用，不能删除',
  authCodeRequired: '缺少授权码 auth_code',
  platformDictRequired: '缺少平台类型 platformDictId',
  notConfigured: '平台未配置第三方平台 AppID 与密钥',
  noTicket: '尚未收到平台推送的 component_verify_ticket，请稍后再试',
  ticketRejected: '签名校验失败',
  cycleValueRequired: '请输入请求周期',
  cycleUnitRequired: '请选择周期单位',
  cycleTooShort: '请求周期不能少于 60 秒',
  manualPullOnly: '该接口不支持手动拉取',
  notAuthorised: '应用未授权或已解除授权，请重新授权',
  pullQueued: '已提交',
  refreshed: '已刷新',
  saved: '保存成功',
  deleted: '操作成功!',
  jobsOff: '任务服务未启动',
  pullRunning: '该接口正在拉取中，请稍后再试',
  dateRange: '开始时间不能晚于结束时间',
  authFailed: '授权失败',
} as const;
