import type { ColumnType, Generated } from 'kysely';
import type { DataSourceType } from '@shutu/contracts';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;

export interface SysUserTable {
  id: Generated<number>;
  account: string;
  passwordHash: string;
  name: string;
  realName: string | null;
  avatar: string | null;
  phone: string | null;
  email: string | null;
  userExtJson: string | null;
  deptId: number | null;
  isAdministrator: boolean;
  status: number;
  /** 0012: the initial password must be changed before anything else (docs/decisions.md "Initial password"). */
  mustChangePassword: Generated<boolean>;
  createTime: CreatedAt;
  updateTime: UpdatedAt;
}

export interface SysDeptTable {
  id: Generated<number>;
  parentId: number;
  deptName: string;
  sort: number;
}

export interface SysRoleTable {
  id: Generated<number>;
  parentId: number;
  roleName: string;
  sort: number;
}

export interface SysRolePermissionTable {
  roleId: number;
  code: string;
}

export interface SysUserRoleTable {
  userId: number;
  roleId: number;
}

export interface AuthTokenTable {
  id: Generated<number>;
  tokenHash: string;
  userId: number;
  createdAt: CreatedAt;
  expiresAt: Date;
  revokedAt: Date | null;
  /** Set on tokens handed out by a share link (0010_share): what they may read; jsonb, written as JSON text. */
  scope: ColumnType<unknown, string | null | undefined, string | null>;
}

export interface AuthLoginFailureTable {
  id: Generated<number>;
  account: string;
  failedAt: CreatedAt;
}

export interface SysConfigTable {
  key: string;
  value: string;
}

export interface SysDictTable {
  id: Generated<number>;
  parentId: number;
  code: string;
  dictKey: number;
  dictValue: string;
  sort: number;
  isSealed: number;
  remark: string | null;
  createTime: CreatedAt;
  updateTime: UpdatedAt;
}

/** ds_name is the spec's dsDb; password_encrypted is AES-256-GCM ciphertext (platform/crypto.ts). */
export interface DataSourceTable {
  id: Generated<number>;
  dsName: string;
  type: DataSourceType;
  host: string | null;
  port: number | null;
  database: string | null;
  username: string | null;
  passwordEncrypted: string | null;
  path: string | null;
  remark: string | null;
  isBuiltin: ColumnType<boolean, boolean | undefined, boolean>;
  /** A process's embedded warehouse (host:file, 0037): only that process opens it. */
  localOwner: ColumnType<string | null, string | null | undefined, string | null>;
  createTime: CreatedAt;
  updateTime: UpdatedAt;
}

export interface Database {
  sysUser: SysUserTable;
  sysDept: SysDeptTable;
  sysRole: SysRoleTable;
  sysRolePermission: SysRolePermissionTable;
  sysUserRole: SysUserRoleTable;
  authToken: AuthTokenTable;
  authLoginFailure: AuthLoginFailureTable;
  sysConfig: SysConfigTable;
  sysDict: SysDictTable;
  dataSource: DataSourceTable;
  fileTable: FileTableTable;
  sqlView: SqlViewTable;
  permType: PermTypeTable;
  permGroup: PermGroupTable;
  permGrantTable: PermGrantTableTable;
  permGrantWrite: PermGrantWriteTable;
  permGrant: PermGrantTable;
  cubeCategory: CubeCategoryTable;
  cube: CubeTable;
  cubeField: CubeFieldTable;
  cubePermFilter: CubePermFilterTable;
  globalParamType: GlobalParamTypeTable;
  globalParam: GlobalParamTable;
  boardCategory: BoardCategoryTable;
  board: BoardTable;
  boardChart: BoardChartTable;
  exportTask: ExportTaskTable;
  ppt: PptTable;
  pptCategory: PptCategoryTable;
  subscription: SubscriptionTable;
  subscriptionLog: SubscriptionLogTable;
  shareLink: ShareLinkTable;
  pptPdfTask: PptPdfTaskTable;
  jobInstance: JobInstanceTable;
  jobRun: JobRunTable;
  recentVisit: RecentVisitTable;
  boardFavourite: BoardFavouriteTable;
  app: AppTable;
  appMenu: AppMenuTable;
}

/** A process working jobs (0013_job_runs): its heartbeat is database time, renewed every few seconds. */
export interface JobInstanceTable {
  id: string;
  host: ColumnType<string, string | undefined, string>;
  pid: ColumnType<number, number | undefined, number>;
  startedAt: ColumnType<Date, Date | undefined, Date>;
  heartbeatAt: ColumnType<Date, Date | undefined, Date>;
}

/** A job a process is running (0013_job_runs); data is the job's JSON. */
export interface JobRunTable {
  id: string;
  instanceId: string;
  queue: string;
  jobId: string;
  data: string;
  startedAt: ColumnType<Date, Date | undefined, Date>;
}

/** A table created in a data source from an uploaded file; columns_json is FileColumn[]. */
/** loading: rows go into the staging table; publishing: loaded, being renamed to its name; ready: visible. */
export type FileTableStatus = 'loading' | 'publishing' | 'ready';

export interface FileTableTable {
  id: Generated<number>;
  datasourceId: number;
  tableName: string;
  tableComment: string;
  fileName: string;
  columnsJson: string;
  /** bigint: read as text by node-postgres. */
  rowCount: ColumnType<string | number, number | undefined, number>;
  status: ColumnType<FileTableStatus, FileTableStatus | undefined, FileTableStatus>;
  /** The private table the rows are loaded into until the load is published (0014). */
  stagingName: string | null;
  /** The process loading it (platform/files/owner.ts); null once abandoned to recovery. */
  ownerInstance: string | null;
  /** Renewed by the loading process, database time. */
  heartbeatTime: Date | null;
  createUserId: number | null;
  createTime: CreatedAt;
  updateTime: UpdatedAt;
}

/** A saved single SELECT over one data source (spec 2 §3 "SQL view"). */
export interface SqlViewTable {
  id: Generated<number>;
  datasourceId: number;
  sqlName: string;
  viewName: string;
  sqlStatement: string;
  createUserId: number | null;
  createTime: CreatedAt;
  updateTime: UpdatedAt;
}

export interface PermTypeTable {
  id: Generated<number>;
  typeName: string;
  sortNum: ColumnType<number, number | undefined, number>;
  createTime: CreatedAt;
}

/** perm_json: PermJson as JSON text (spec 2 §3 "Permission group"). */
export interface PermGroupTable {
  id: Generated<number>;
  permName: string;
  typeId: number;
  permJson: string;
  createTime: CreatedAt;
  updateTime: UpdatedAt;
}

/** The write permission of a data-source grant: its group's members may upload file tables there (issue 28). */
export interface PermGrantWriteTable {
  permId: number;
  datasourceId: number;
}

/** A table of a data source granted to a group. */
export interface PermGrantTableTable {
  permId: number;
  datasourceId: number;
  tableSchema: string;
  tableName: string;
}

/** One resource of a kind (GrantKind other than datasource) granted to a group. */
export interface PermGrantTable {
  permId: number;
  kind: string;
  resourceId: number;
  createTime: CreatedAt;
}

/** A dataset category; parent_id 0 is the top level (spec 2 §3 "Category"). */
export interface CubeCategoryTable {
  id: Generated<number>;
  wsName: string;
  parentId: number;
  sortNum: ColumnType<number, number | undefined, number>;
  createUserId: number | null;
  createTime: CreatedAt;
  updateTime: UpdatedAt;
}

/** A dataset (spec 2 §3 "Dataset"); the *Json / cubeTableNames / linksJoin columns are JSON text. */
export interface CubeTable {
  id: Generated<number>;
  cubeName: string;
  remark: string | null;
  workspaceId: number;
  datasourceId: number;
  cubeTableNames: string;
  linksJoin: string;
  tableType: 'LOGIC' | 'PHYSICS';
  filterJson: string | null;
  orderByJson: ColumnType<string, string | undefined, string>;
  publicStatus: ColumnType<number, number | undefined, number>;
  createUserId: number | null;
  createTime: CreatedAt;
  updateTime: UpdatedAt;
}

/** A field of a dataset (spec 2 §3 "Field"); ids may be taken from the sequence before the insert. */
export interface CubeFieldTable {
  id: Generated<number>;
  cubeId: number;
  columnName: string | null;
  columnTitle: string;
  columnComment: string | null;
  columnAttr: 'NORMAL' | 'VIRTUAL';
  columnFormula: string | null;
  tableName: string | null;
  tableAliasName: string | null;
  dimensionType: 'WEIDU' | 'ZHIBIAO';
  viewDataType: 'STRING' | 'NUMBER' | 'DATETIME';
  oldViewDataType: 'STRING' | 'NUMBER' | 'DATETIME' | null;
  hiddenStatus: number;
  sortNum: number;
  numberDataFormat: string;
  timeDataFormat: string;
  aggregationType: 'SUM' | 'AVG' | 'COUNT' | 'COUNT_DISTINCT' | 'APPROX_COUNT_DISTINCT' | 'MAX' | 'MIN';
  virtualAggregationStatus: number;
  isExtra: number;
}

/** A permission group's row filter (filter_json) and excluded columns (comma text) on a dataset. */
export interface CubePermFilterTable {
  id: Generated<number>;
  cubeId: number;
  permId: number;
  cubePermName: string;
  filterJson: string;
  excludeColumnIds: ColumnType<string, string | undefined, string>;
  createTime: CreatedAt;
  updateTime: UpdatedAt;
}

export interface GlobalParamTypeTable {
  id: Generated<number>;
  typeName: string;
  sortNum: ColumnType<number, number | undefined, number>;
  createTime: CreatedAt;
}

export interface GlobalParamTable {
  id: Generated<number>;
  typeId: number;
  paramName: string;
  paramKey: string;
  paramColumnType: 'STRING' | 'NUMBER' | 'DATETIME';
  createTime: CreatedAt;
  updateTime: UpdatedAt;
}

/** A board category of one kind; parent_id 0 is the top level (spec 1 §3 "Report category"). */
export interface BoardCategoryTable {
  id: Generated<number>;
  kind: 'visual' | 'report';
  categoryKey: string | null;
  categoryValue: string;
  parentId: number;
  sortNum: ColumnType<number, number | undefined, number>;
  createUserId: number | null;
  createTime: CreatedAt;
  updateTime: UpdatedAt;
}

/** A dashboard (kind visual) or self-service report (kind report); content is JSON text. */
export interface BoardTable {
  id: Generated<number>;
  kind: 'visual' | 'report';
  title: string;
  categoryId: number;
  content: string;
  backgroundUrl: string | null;
  publicStatus: ColumnType<number, number | undefined, number>;
  sortNum: ColumnType<number, number | undefined, number>;
  createUserId: number | null;
  createTime: CreatedAt;
  updateTime: UpdatedAt;
}

/** A chart of a board; dataconfig, option, modal_set, site and ext are JSON text. */
export interface BoardChartTable {
  id: Generated<number>;
  boardId: number;
  chartKey: string;
  name: string;
  title: string;
  dataconfig: string | null;
  option: string;
  modalSet: string | null;
  site: string;
  ext: string;
}

/** An export of a table chart to Excel; file_path is relative to the data directory, request the JSON of links and params. */
export interface ExportTaskTable {
  id: Generated<number>;
  userId: number;
  boardId: number;
  chartKey: string;
  fileName: string;
  status: ColumnType<
    'waiting' | 'running' | 'done' | 'failed',
    'waiting' | 'running' | 'done' | 'failed' | undefined,
    'waiting' | 'running' | 'done' | 'failed'
  >;
  progress: ColumnType<number, number | undefined, number>;
  rowCount: ColumnType<number, number | undefined, number>;
  totalRows: number | null;
  filePath: string | null;
  /** bigint: the pg driver returns it as text. */
  fileSize: ColumnType<string | number | null, number | null | undefined, number | null>;
  errMsg: string | null;
  request: string;
  /** 0017: the file's format. */
  format: ColumnType<'xlsx' | 'csv', 'xlsx' | 'csv' | undefined, 'xlsx' | 'csv'>;
  createTime: CreatedAt;
  startTime: Date | null;
  finishTime: Date | null;
  /** 0013: the job run that claimed it (platform/jobs/recovery.ts). */
  runId: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A share link (0010_share): a short code to a board or a slideshow. */
export interface ShareLinkTable {
  id: Generated<number>;
  code: string;
  dataType: 'visual' | 'report' | 'ppt';
  dataId: number;
  visualDataTitle: string;
  purpose: ColumnType<string, string | undefined, string>;
  linkType: ColumnType<number, number | undefined, number>;
  passwordHash: string | null;
  expireTime: Date | null;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  createUserId: number;
  createTime: CreatedAt;
  updateTime: UpdatedAt;
}

/** A subscription (spec 1 §3 "Subscription form"); trigger_* are Asia/Shanghai wall-clock values. */
export interface SubscriptionTable {
  id: Generated<number>;
  userId: number;
  dataType: 'visual' | 'report' | 'ppt';
  dataId: number;
  subTitle: string;
  notifyTitle: string;
  notifyType: 'email' | 'qywechat' | 'dingtalk' | 'feishu' | 'tianxiangyun';
  triggerPeriod: 'day' | 'week' | 'month';
  triggerHour: number;
  triggerWeekValue: number;
  triggerDayValue: number;
  format: 'image' | 'pdf';
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  createTime: CreatedAt;
  lastSlot: Date | null;
}

/** One send of a subscription for one due time (slot); UNIQUE (subscription_id, slot) is the claim. */
export interface SubscriptionLogTable {
  id: Generated<number>;
  subscriptionId: number | null;
  subTitle: string;
  dataType: 'visual' | 'report' | 'ppt';
  dataId: number;
  userId: number | null;
  userName: string | null;
  notifyType: 'email' | 'qywechat' | 'dingtalk' | 'feishu' | 'tianxiangyun';
  state: ColumnType<'pending' | 'sent' | 'failed', 'pending' | 'sent' | 'failed' | undefined, 'pending' | 'sent' | 'failed'>;
  attempts: ColumnType<number, number | undefined, number>;
  errCode: ColumnType<number, number | undefined, number>;
  errMsg: string | null;
  content: string | null;
  slot: Date;
  createTime: CreatedAt;
  updateTime: UpdatedAt;
  /** 0013: the job run that claimed (or took over) the send. */
  runId: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A slideshow (visual_type 0), favourite (1) or archive (2); visual_ids and settings are JSON text. */
export interface PptTable {
  id: Generated<number>;
  ppName: string;
  ppMonth: string | null;
  cateId: ColumnType<number, number | undefined, number>;
  visualIds: string;
  settings: string;
  visualType: 0 | 1 | 2;
  sourceId: number | null;
  publicStatus: ColumnType<number, number | undefined, number>;
  createUserId: number | null;
  createTime: CreatedAt;
  updateTime: UpdatedAt;
}

/** A user's own favourite (1) or archive (2) category; 默认分类 (id 0) is not stored. */
export interface PptCategoryTable {
  id: Generated<number>;
  visualType: 1 | 2;
  classifyName: string;
  createUserId: number;
  sort: ColumnType<number, number | undefined, number>;
  createTime: CreatedAt;
}

/** A slideshow PDF export (0011_ppt_pdf); board_ids is JSON text, file_path relative to the data directory. */
export interface PptPdfTaskTable {
  id: string;
  userId: number;
  pptId: number;
  fileName: string;
  boardIds: string;
  watermark: string | null;
  status: ColumnType<
    'waiting' | 'running' | 'done' | 'failed',
    'waiting' | 'running' | 'done' | 'failed' | undefined,
    'waiting' | 'running' | 'done' | 'failed'
  >;
  pages: ColumnType<number, number | undefined, number>;
  rendered: ColumnType<number, number | undefined, number>;
  filePath: string | null;
  errMsg: string | null;
  createTime: CreatedAt;
  startTime: Date | null;
  finishTime: Date | null;
  /** 0013: the job run that claimed it (platform/jobs/recovery.ts). */
  runId: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A board or slideshow a user opened, at its latest visit (0015_recent_visits). */
export interface RecentVisitTable {
  userId: number;
  kind: 'board' | 'ppt';
  targetId: number;
  visitTime: ColumnType<Date, Date | undefined, Date>;
}

/** A board a user starred (0015_recent_visits). */
export interface BoardFavouriteTable {
  userId: number;
  boardId: number;
  createTime: CreatedAt;
}

/** Data APIs (0018_dataapi; issue 17, docs/dataapi.md): merged into Database. */
export interface Database {
  dataApiCategory: DataApiCategoryTable;
  dataApi: DataApiTable;
  dataApiKey: DataApiKeyTable;
  dataApiKeyScope: DataApiKeyScopeTable;
  dataApiNonce: DataApiNonceTable;
  dataApiCallLog: DataApiCallLogTable;
  dataApiSetting: DataApiSettingTable;
  dataApiDict: DataApiDictTable;
}

export interface DataApiCategoryTable {
  id: Generated<number>;
  categoryName: string;
  sort: ColumnType<number, number | undefined, number>;
  createTime: CreatedAt;
}

/** api_headers, note and query_param are JSON text (spec 2 §3). */
export interface DataApiTable {
  id: Generated<number>;
  apiKey: string;
  apiName: string;
  categoryId: number | null;
  apiFormal: ColumnType<number, number | undefined, number>;
  remark: ColumnType<string, string | undefined, string>;
  datasourceId: number | null;
  queryTable: string | null;
  querySql: string | null;
  apiType: number;
  chartType: ColumnType<number, number | undefined, number>;
  apiStatus: ColumnType<number, number | undefined, number>;
  apiUrl: string | null;
  apiMethod: ColumnType<'get' | 'post', 'get' | 'post' | undefined, 'get' | 'post'>;
  apiParamType: ColumnType<number, number | undefined, number>;
  apiJsFunction: string;
  apiHeaders: ColumnType<string, string | undefined, string>;
  note: ColumnType<string, string | undefined, string>;
  queryParam: ColumnType<string, string | undefined, string>;
  failCount: ColumnType<number, number | undefined, number>;
  createUserId: number | null;
  createTime: CreatedAt;
  updateTime: UpdatedAt;
}

export interface DataApiKeyTable {
  id: Generated<number>;
  keyName: string;
  accessKey: string;
  secretHash: string;
  secretEnc: string;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  rateLimit: ColumnType<number, number | undefined, number>;
  createUserId: number | null;
  createTime: CreatedAt;
  lastUsedTime: Date | null;
}

export interface DataApiKeyScopeTable {
  keyId: number;
  apiId: number;
}

export interface DataApiNonceTable {
  accessKey: string;
  nonce: string;
  expiresAt: Date;
}

export interface DataApiCallLogTable {
  id: Generated<string>;
  apiId: number | null;
  apiKey: string;
  accessKey: string | null;
  userId: number | null;
  params: string;
  status: number;
  rowCount: number;
  durationMs: number;
  errorMsg: string | null;
  createTime: CreatedAt;
}

export interface DataApiSettingTable {
  settingKey: string;
  settingValue: string;
}

/** Enumeration dictionaries saved from a data-API preview (0019_dataapi_dict). */
export interface DataApiDictTable {
  id: Generated<number>;
  keyCode: string;
  content: string;
  apiId: number | null;
  createUserId: number | null;
  createTime: CreatedAt;
  updateTime: UpdatedAt;
}

/** An order-data export task (0021_order_export; issue 20, docs/order-export.md). */
export interface OrderExportTaskTable {
  id: Generated<number>;
  userId: number;
  mcomment: string | null;
  utype: number;
  cusertype: number;
  conditionJson: string;
  phonesPath: string | null;
  taskStatus1: ColumnType<number, number | undefined, number>;
  progress: ColumnType<string | number, number | undefined, number>;
  fetchedNums: ColumnType<string | number | null, number | null | undefined, number | null>;
  statusLog: ColumnType<string, string | undefined, string>;
  errorMsg: string | null;
  resultPath: string | null;
  filePath: string | null;
  runId: string | null;
  createTime: ColumnType<Date, Date | undefined, never>;
  updateTime: ColumnType<Date, Date | undefined, Date>;
  expiredAt: Date | null;
  /** 0025: the partial CSV's length at the last checkpoint, and how often the task was resumed. */
  resumeBytes: ColumnType<string | number | null, number | null | undefined, number | null>;
  resumes: ColumnType<number, number | undefined, number>;
  /** 0038: the last order id of the last slice written whole (the extraction goes on after it). */
  resumeKey: ColumnType<string | number | null, number | null | undefined, number | null>;
}

export interface OrderExportSettingTable {
  id: ColumnType<number, number | undefined, never>;
  maxRows: ColumnType<number, number | undefined, number>;
  retentionDays: ColumnType<number, number | undefined, number>;
}

export interface Database {
  orderExportTask: OrderExportTaskTable;
  orderExportSetting: OrderExportSettingTable;
}

/** Alerts (0022_alert; issue 19, docs/alerts.md): merged into Database. JSON columns are text. */
export interface Database {
  alert: AlertTable;
  alertCheck: AlertCheckTable;
  alertSend: AlertSendTable;
  alertSmsTemplate: AlertSmsTemplateTable;
  alertSmsProvider: AlertSmsProviderTable;
}

export interface AlertTable {
  id: Generated<number>;
  name: string;
  requestFreq: number;
  enableStatus: number;
  cubeDataId: number | null;
  cubeDataName: string | null;
  datasourceId: number | null;
  datasourceName: string | null;
  columnJson: string;
  filterJson: string;
  filterRelationJson: string;
  filterTimeJson: string;
  warnUserIds: string;
  warnDeptIds: ColumnType<string, string | undefined, string>;
  checkedWays: string;
  smsId: number | null;
  smsParams: string;
  messageDynamicContent: string;
  pushEnabled: boolean;
  warningWays: string;
  flowId: string | null;
  visualDataJson: string;
  repeatIntervalSeconds: number;
  notifyRecovery: boolean;
  quietStart: string | null;
  quietEnd: string | null;
  state: ColumnType<'ok' | 'firing', 'ok' | 'firing' | undefined, 'ok' | 'firing'>;
  stateSince: Date | null;
  lastCheckTime: Date | null;
  lastFiredTime: Date | null;
  lastNotifiedTime: Date | null;
  lastSlot: Date | null;
  createUserId: number | null;
  createTime: CreatedAt;
  updateTime: UpdatedAt;
}

export interface AlertCheckTable {
  id: Generated<number>;
  alertId: number;
  slot: Date;
  status: ColumnType<'running' | 'done' | 'failed', 'running' | 'done' | 'failed' | undefined, 'running' | 'done' | 'failed'>;
  runId: string | null;
  attempts: ColumnType<number, number | undefined, number>;
  windowStart: string | null;
  windowEnd: string | null;
  rowCount: number | null;
  state: string | null;
  notifyReason: string | null;
  rowsJson: string | null;
  errMsg: string | null;
  durationMs: number | null;
  checkTime: CreatedAt;
  finishTime: Date | null;
}

export interface AlertSendTable {
  id: Generated<number>;
  checkId: number;
  alertId: number;
  channel: string;
  recipient: string;
  status: ColumnType<'pending' | 'sent' | 'failed', 'pending' | 'sent' | 'failed' | undefined, 'pending' | 'sent' | 'failed'>;
  errMsg: string | null;
  createTime: CreatedAt;
}

export interface AlertSmsTemplateTable {
  id: Generated<number>;
  templateName: string;
  templateContent: string;
  templateParams: string;
  category: string;
  createTime: CreatedAt;
}

export interface AlertSmsProviderTable {
  category: string;
  settings: string;
  updateTime: UpdatedAt;
}

/** Click tracking (0020_heatmap_track; issue 22, docs/heatmap.md): merged into Database. */
export interface Database {
  trackSite: TrackSiteTable;
  trackEvent: TrackEventTable;
}

export interface TrackSiteTable {
  id: Generated<number>;
  writeKey: string;
  siteName: string;
  project: ColumnType<string, string | undefined, string>;
  createTime: CreatedAt;
  /** 0026_track_sites: management, rate limit, retention and counters. */
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  rateLimit: ColumnType<number, number | undefined, number>;
  retentionDays: ColumnType<number, number | undefined, number>;
  acceptedEvents: ColumnType<string, never, string | number>;
  invalidBatches: ColumnType<string, never, string | number>;
  invalidEvents: ColumnType<string, never, string | number>;
  limitedBatches: ColumnType<string, never, string | number>;
  lastEventTime: ColumnType<Date | null, never, Date | null>;
}

export interface TrackEventTable {
  id: ColumnType<string, never, never>;
  siteId: number;
  event: string;
  eventTime: ColumnType<Date, Date | string, never>;
  distinctId: string;
  phone: string | null;
  pageTitle: string;
  url: string;
  platformType: string;
  project: string;
  x: number;
  y: number;
  pageWidth: number;
}

/** AI assistance (0029_ai; issue 25, docs/ai.md): merged into Database. */
export interface Database {
  aiCallLog: AiCallLogTable;
}

export interface AiCallLogTable {
  id: Generated<number>;
  userId: number;
  purpose: 'sql' | 'formula';
  datasourceId: number | null;
  model: ColumnType<string, string | undefined, string>;
  promptTokens: ColumnType<number, number | undefined, number>;
  completionTokens: ColumnType<number, number | undefined, number>;
  attempts: ColumnType<number, number | undefined, number>;
  durationMs: ColumnType<number, number | undefined, number>;
  outcome: ColumnType<'running' | 'ok' | 'failed' | 'error', 'running' | 'ok' | 'failed' | 'error' | undefined, 'running' | 'ok' | 'failed' | 'error'>;
  accepted: ColumnType<boolean, boolean | undefined, boolean>;
  error: string | null;
  createTime: CreatedAt;
}

/** Approval workflow (0027_workflow; issue 23, docs/workflow.md): merged into Database. */
export interface Database {
  workflowDefinition: WorkflowDefinitionTable;
  workflowInstance: WorkflowInstanceTable;
  workflowHistory: WorkflowHistoryTable;
  workflowLeave: WorkflowLeaveTable;
  workflowNotice: WorkflowNoticeTable;
}

export interface WorkflowDefinitionTable {
  id: string;
  processKey: string;
  name: string;
  version: number;
  xml: string;
  contentHash: string;
  deployTime: CreatedAt;
}

export interface WorkflowInstanceTable {
  id: string;
  definitionId: string;
  businessId: string;
  starterId: number;
  status: 'running' | 'approved' | 'rejected' | 'withdrawn';
  currentActivityId: string | null;
  currentActivityName: string | null;
  assigneeId: number | null;
  /** The engine's getState() as JSON. */
  state: string;
  /** JSON array of the activity and flow ids the engine finished (the diagram marks them). */
  finishedActivities: ColumnType<string, string | undefined, string>;
  revision: ColumnType<number, number | undefined, number>;
  createTime: CreatedAt;
  updateTime: UpdatedAt;
  endTime: Date | null;
}

export interface WorkflowHistoryTable {
  id: string;
  instanceId: string;
  activityId: string;
  activityName: string;
  assigneeId: number | null;
  action: 'start' | 'task' | 'approve' | 'reject' | 'transfer' | 'withdraw' | 'end';
  comment: string | null;
  createTime: ColumnType<Date, Date | string | undefined, never>;
  endTime: Date | null;
}

export interface WorkflowLeaveTable {
  id: string;
  applicantId: number;
  approverId: number;
  /** yyyy-MM-dd HH:mm:ss as the form sent it (wall-clock time, no zone). */
  startTime: string;
  endTime: string;
  reason: string;
  createTime: CreatedAt;
}

/** The approver's email outbox (0030_workflow_notice; docs/workflow.md "Approver mail"). */
export interface WorkflowNoticeTable {
  id: string;
  instanceId: string;
  taskId: string;
  assigneeId: number;
  kind: 'started' | 'transferred';
  status: ColumnType<'pending' | 'sending' | 'sent' | 'failed' | 'skipped', 'pending' | undefined, 'pending' | 'sending' | 'sent' | 'failed' | 'skipped'>;
  attempts: ColumnType<number, number | undefined, number>;
  /** The job run (platform/jobs/recovery.ts) or in-process send that claimed it. */
  runId: string | null;
  error: string | null;
  createTime: CreatedAt;
  claimTime: Date | null;
  finishTime: Date | null;
}

/** An app (0032_app; docs/apps.md): publish_status 0 unpublished / 1 published, menu_show_type '1' / '2'. */
export interface AppTable {
  id: Generated<number>;
  appName: string;
  appIcon: string | null;
  appDescription: string | null;
  publishStatus: ColumnType<number, number | undefined, number>;
  menuShowType: ColumnType<string, string | undefined, string>;
  waterMarkStatus: ColumnType<number, number | undefined, number>;
  waterMarkText: ColumnType<string, string | undefined, string>;
  createUserId: number | null;
  createTime: CreatedAt;
  updateTime: UpdatedAt;
}

/** A menu of an app: parent_id 0 first level; visual_id a board. */
export interface AppMenuTable {
  id: Generated<number>;
  appId: number;
  parentId: number;
  menuName: string;
  menuIcon: ColumnType<string, string | undefined, string>;
  icon: string | null;
  sortNum: number;
  visualId: number | null;
  visualName: string | null;
}

/** Rate limits shared by every process (0040; platform/ratelimit/shared-window.ts). */
export interface Database {
  rateWindow: RateWindowTable;
}

export interface RateWindowTable {
  scope: string;
  key: string;
  windowStart: Date;
  calls: number;
}
