/**
 * Data APIs: messages and constants without zod (docs/web-performance.md "Schema-free contracts"): the
 * app shell's page list imports them from here and evaluates no schema; dataapi.ts re-exports them.
 */

export const dataApiMessages = {
  // spec 2 §5 "Data API", in the type-3 editor's order
  categoryRequired: '请选择分类',
  apiKeyRequired: '请输入接口key',
  apiNameRequired: '请输入接口名',
  datasourceRequired: '请选择数据源',
  tableRequired: '请选择数据表',
  checkSyntax: '请检查语法',
  mustSaveToPreview: '必须保存才能预览',
  previewFirst: '请先预览',
  dictNameRequired: '请输入字典名',
  // ours
  apiKeyInvalid: '接口key只能包含字母、数字、下划线或中划线，且以字母开头',
  apiKeyExists: '接口key已存在',
  apiNotFound: '接口不存在',
  notOwner: '只能修改或删除自己创建的接口',
  sqlRequired: '请输入SQL语句',
  urlRequired: '请输入接口地址',
  headersInvalid: '请求头须为 JSON 对象（名称到值）',
  noteInvalid: 'note 不是合法的 JSON（showFields 与 params）',
  categoryNameRequired: '请输入分类名称',
  categoryExists: '分类名称已存在',
  categoryNotFound: '分类不存在',
  categoryInUse: '该分类下还有 {count} 个接口，不能删除',
  // parameters
  paramRequired: '缺少必填参数【{key}】',
  paramInvalid: '参数【{key}】的值不合法：应为{type}',
  paramUnknownInSql: 'SQL 引用了未定义的参数【{key}】',
  paramPlaceholder: 'SQL 中请用 ${参数key} 引用参数，不能直接写占位符【{text}】',
  columnUnknown: '数据表中没有字段【{name}】',
  // the published runtime
  apiOffline: '接口已下线，暂不提供服务',
  apiFaulty: '接口连续调用失败，已标记为故障，请联系管理员处理',
  credentialsRequired: '请提供访问密钥、签名或登录令牌',
  keyInvalid: '访问密钥无效或已停用',
  keyNotScoped: '该访问密钥无权调用此接口',
  signatureInvalid: '签名无效',
  signatureExpired: '签名时间戳已过期，请校准时间后重试',
  nonceReplayed: '该请求已使用过（nonce 重复），拒绝重放',
  rateLimited: '调用过于频繁，请稍后再试',
  executionFailed: '接口执行失败：{detail}',
  // access keys
  keyNameRequired: '请输入密钥名称',
  keyNotFound: '访问密钥不存在',
  keyCreated: '已生成访问密钥，密钥只显示这一次，请立即保存',
  // external APIs and the handler sandbox
  urlScheme: '接口地址只支持 http 或 https',
  urlInvalid: '接口地址不是合法的 URL',
  hostNotAllowed: '接口地址的主机【{host}】不在允许列表中，请联系管理员',
  addressRefused: '不允许访问本机、内网链路本地或云元数据地址【{host}】',
  externalFailed: '外部接口调用失败：{detail}',
  handlerTimeout: '处理函数运行超时（超过 200 毫秒），已中止',
  handlerKilled: '处理函数超过 1 秒未结束或内存失控，已强制终止',
  handlerMemory: '处理函数内存超过 32 MB 限制，已中止',
  handlerError: '处理函数执行出错：{detail}',
  handlerNotFunction: '处理函数须是一个函数表达式，例如 function (data) { return data }',
  // dictionaries from a preview
  dictContentInvalid: '字典内容须为 { key, value, children? } 组成的树（JSON 数组）',
  dictNotFound: '字典不存在',
  // pick-lists (enumSource 2)
  optionsNotList: '接口返回的不是列表，不能作为下拉选项',
  // success
  saved: '保存成功',
  deleted: '删除成功!',
  done: '操作成功!',
} as const;
