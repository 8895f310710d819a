import { formatMessage } from '@shutu/contracts';

/** The connectors' zh-CN messages (to move into the contracts catalogue with the data-source screens). */
export const connectorMessages = {
  unreachable: '无法连接数据源 {address}（{reason}），请检查主机地址、端口和网络',
  connectTimeout: '连接数据源 {address} 超时（{seconds} 秒内无响应），请检查主机地址、端口和网络',
  hostUnknown: '无法解析数据源主机名【{host}】，请检查主机地址',
  auth: '数据源认证失败，请检查用户名和密码',
  databaseUnknown: '数据库【{database}】不存在',
  fileUnavailable: '无法打开数据库文件【{path}】：{detail}',
  timeout: '查询超时：执行超过 {seconds} 秒已被终止，请缩小查询范围或增加筛选条件',
  cancelled: '查询已取消',
  readOnly: '只读查询不能修改数据，仅支持 SELECT 查询',
  singleStatement: '一次只能执行一条 SELECT 语句',
  queryFailed: '查询执行失败：{detail}',
  tableExists: '表【{name}】已存在，请更换表名',
  tableNotFound: '表【{name}】不存在',
  identifierInvalid: '名称【{name}】无效：不能为空、超过 {max} 个字符或包含不可见字符',
  columnsMissing: '请至少提供一列',
  columnDuplicate: '列名【{name}】重复',
  rowLength: '第 {row} 行有 {actual} 个值，应为 {expected} 个',
  valueNumber: '第 {row} 行【{column}】的值“{value}”不是数字',
  valueInteger: '第 {row} 行【{column}】的值“{value}”不是整数',
  valueDate: '第 {row} 行【{column}】的值“{value}”不是有效的日期时间',
  paramCount: 'SQL 中的参数占位符有 {expected} 个，提供了 {actual} 个值',
  closed: '数据源连接已关闭',
  loadFailed: '数据导入失败：{detail}',
  csvRefused: '文件中有引擎无法直接导入的内容，请检查文件格式',
  appendColumns: '表【{name}】的列与追加的数据不一致：{detail}',
  engineExited: '数据仓库引擎进程已退出（{reason}），请重试',
} as const;

export type ConnectorMessageKey = keyof typeof connectorMessages;

export type ConnectorErrorKind =
  'unreachable' | 'auth' | 'database' | 'timeout' | 'cancelled' | 'readOnly' | 'query' | 'tableExists' | 'tableNotFound' | 'invalid' | 'closed';

const STATUS: Record<ConnectorErrorKind, number> = {
  unreachable: 502,
  auth: 502,
  database: 502,
  timeout: 504,
  cancelled: 499,
  readOnly: 400,
  query: 400,
  tableExists: 409,
  tableNotFound: 404,
  invalid: 400,
  closed: 503,
};

/**
 * Every failure of a driver. `message` is the Chinese text for the response's `msg`;
 * `detail` keeps the engine's own text (the SQL editor's error tab shows it); `status`
 * is the HTTP status the server answers with.
 */
export class ConnectorError extends Error {
  readonly status: number;
  constructor(
    readonly kind: ConnectorErrorKind,
    message: string,
    readonly detail: string | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ConnectorError';
    this.status = STATUS[kind];
  }
}

export function connectorError(
  kind: ConnectorErrorKind,
  key: ConnectorMessageKey,
  params: Record<string, string | number> = {},
  detail: string | null = null,
  cause?: unknown,
): ConnectorError {
  return new ConnectorError(kind, formatMessage(connectorMessages[key], params), detail, cause === undefined ? undefined : { cause });
}

export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** `Code: 159, e.displayText() = DB::Exception: Timeout …, e.what() = DB::Exception` → the middle part. */
function trimEngineText(text: string): string {
  const ch = /^Code: \d+, e\.displayText\(\) = (?:DB::Exception: )?([\s\S]*?)(?:, e\.what\(\) = [\w:]+)?\s*$/.exec(text);
  return (ch ? ch[1]! : text).trim();
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'EADDRNOTAVAIL',
  'ETIMEDOUT',
  'ESOCKETTIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'PROTOCOL_CONNECTION_LOST',
]);
const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: '连接被拒绝',
  ECONNRESET: '连接被重置',
  EHOSTUNREACH: '主机不可达',
  ENETUNREACH: '网络不可达',
  EPIPE: '连接已断开',
  EADDRNOTAVAIL: '地址不可用',
  PROTOCOL_CONNECTION_LOST: '连接已断开',
};

/** The `code` of a Node or driver error, looking through `cause` and AggregateError. */
export function errorCode(error: unknown): string | null {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return code;
    const inner = (e as { errors?: unknown[] }).errors;
    if (Array.isArray(inner) && inner.length > 0) {
      const found = errorCode(inner[0]);
      if (found) return found;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

/** A connection-level failure (refused, unreachable, unknown host, connect timeout), or null. */
export function networkError(error: unknown, address: { host: string; port: number | string }, timeoutMs: number): ConnectorError | null {
  if (error instanceof ConnectorError) return error;
  const code = errorCode(error);
  const text = errorText(error);
  const where = `${address.host}:${address.port}`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return connectorError('unreachable', 'hostUnknown', { host: address.host }, text, error);
  if (code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT' || /timeout|timed out/i.test(text)) {
    return connectorError('unreachable', 'connectTimeout', { address: where, seconds: Number((timeoutMs / 1000).toFixed(1)) }, text, error);
  }
  if (code && NETWORK_CODES.has(code))
    return connectorError('unreachable', 'unreachable', { address: where, reason: NETWORK_REASONS[code] ?? code }, text, error);
  if (/socket hang up|ECONNREFUSED|connection terminated/i.test(text)) {
    return connectorError('unreachable', 'unreachable', { address: where, reason: '连接被拒绝' }, text, error);
  }
  return null;
}

/** A query failure the engine reported: its text, without engine boilerplate, in `detail`. */
export function queryFailed(error: unknown): ConnectorError {
  if (error instanceof ConnectorError) return error;
  const text = trimEngineText(errorText(error));
  return connectorError('query', 'queryFailed', { detail: text.slice(0, 2000) }, text, error);
}

const LEADING = /^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*/;
/** First words of statements that are not read-only queries. */
const WRITE_STATEMENT =
  /^(insert|update|delete|merge|upsert|replace|create|drop|alter|truncate|rename|grant|revoke|copy|call|do|set|reset|vacuum|analyze|optimize|cluster|reindex|comment|lock|refresh|attach|detach|begin|commit|rollback|end|abort|start|savepoint|release|prepare|execute|deallocate|discard|listen|notify|unlisten|load|install|security|import|export|reassign|checkpoint|kill|system|use|handler)\b/i;

/** Where the statement's first word starts (after whitespace and comments). */
export function statementStart(sql: string): number {
  return LEADING.exec(sql)![0].length;
}

/** Whether the statement's first word makes it something other than a read-only query. */
export function isWriteStatement(sql: string): boolean {
  return WRITE_STATEMENT.test(sql.slice(statementStart(sql)));
}

export const timeoutError = (timeoutMs: number, cause?: unknown) =>
  connectorError('timeout', 'timeout', { seconds: Number((timeoutMs / 1000).toFixed(3)) }, cause === undefined ? null : errorText(cause), cause);
export const cancelledError = () => connectorError('cancelled', 'cancelled');
export const readOnlyError = (cause?: unknown) =>
  connectorError('readOnly', 'readOnly', {}, cause === undefined ? null : trimEngineText(errorText(cause)), cause);
