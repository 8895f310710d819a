/**
 * Zod-free constants of the schema files that the web app's light pages need (issue 26: /login,
 * the share link, the phone viewer): the API paths `api.ts` gathers, the default system name, the
 * page-size cap and a dataset's default formats. A schema file builds its zod schemas when
 * loaded, so importing one constant from it loaded zod and every schema of the file; these files
 * re-export the constants from here, so both ways of importing them keep working. Larger sets
 * have a file of their own beside their schema file (board-, share-, ppt-, app-constants.ts,
 * time-zone.ts; docs/web-performance.md "Schema-free contracts").
 */

export const DEFAULT_SYSTEM_NAME = '数图';

/** Paths of the data-API calls (also in API.dataApi). */
export const DATA_API_PATHS = {
  categories: '/api/dataapi/categories',
  category: '/api/dataapi/categories/:id',
  apis: '/api/dataapi/apis',
  api: '/api/dataapi/apis/:id',
  /** dataapiDetailKey */
  byKey: '/api/dataapi/by-key/:apiKey',
  copy: '/api/dataapi/apis/:id/copy',
  status: '/api/dataapi/apis/:id/status',
  /** A published API's answer as a filter pick-list (enumSource 2): { options: [{ value, label }] }, `?q=` searches. */
  options: '/api/dataapi/apis/:id/options',
  /** The APIs a filter may take its pick-list from (any signed-in user): online, formal, type 1 or 2; id and name only. */
  pickSources: '/api/dataapi/pick-sources',
  /** openurl */
  preview: '/api/dataapi/preview',
  keys: '/api/dataapi/keys',
  key: '/api/dataapi/keys/:id',
  logs: '/api/dataapi/logs',
  stats: '/api/dataapi/stats',
  settings: '/api/dataapi/settings',
  /** Enumeration dictionaries saved from a preview: list and save; one by keyCode. */
  dicts: '/api/dataapi/dicts',
  dict: '/api/dataapi/dicts/:keyCode',
  /** The published runtime (GET and POST), outside /api: access keys, signatures or user tokens. */
  open: '/open/api/:apiKey',
  /** The OpenAPI 3.1 document of every published API. */
  openapi: '/open/api-docs/openapi.json',
} as const;

export const ORDER_EXPORT_PATHS = {
  maxrows: '/api/orderexport/maxrows',
  channels: '/api/orderexport/channels',
  areaTree: '/api/orderexport/areaTree',
  areapRoductTree: '/api/orderexport/areapRoductTree',
  page: '/api/orderexport/page',
  add: '/api/orderexport/add',
  addtxt: '/api/orderexport/addtxt',
  updatename: '/api/orderexport/updatename',
  details: '/api/orderexport/details',
  pageresult: '/api/orderexport/pageresult',
  download: '/api/orderexport/download',
  settings: '/api/orderexport/settings',
} as const;

export const MARKET_PATHS = {
  tasks: '/api/market/tasks',
  task: '/api/market/task',
  activate: '/api/market/Member-activate-task',
  receive: '/api/market/Member-receive-task',
  chart: '/api/market/marketing-task-chart',
  keep: '/api/market/marketing-task-keep',
} as const;

export const CDP_PATHS = {
  platforms: '/api/cdp/platform/list',
  platform: '/api/cdp/platform',
  platformDelete: '/api/cdp/platform/:id',
  /** joinTypeInfo (spec 3 §7). */
  platformInfo: '/api/cdp/platform/info',
  /** The default accessUrl of a WeChat-style platform: POST {platformDictId} → the authorisation link. */
  authUrl: '/api/cdp/auth/url',
  /** The platform pushes component_verify_ticket here (public, signed). */
  ticket: '/api/cdp/ticket/:platformId',
  joinPage: '/api/cdp/join/page',
  joinInfo: '/api/cdp/join/info',
  joinCallback: '/api/cdp/join/callback',
  taskList: '/api/cdp/task/list',
  taskData: '/api/cdp/task/data',
  taskUpdate: '/api/cdp/task/update',
  taskRefresh: '/api/cdp/task/refresh',
  logList: '/api/cdp/log/list',
  accounts: '/api/cdp/account/list',
  fans: '/api/cdp/fan/page',
  fan: '/api/cdp/fan',
} as const;

export const TRACK_SITE_PATHS = {
  /** GET the sites, POST a new one. */
  sites: '/api/heatmap/sites',
  /** PUT (name, project, enabled, rate limit, retention) or DELETE one site: `${sites}/{id}`. */
  site: '/api/heatmap/sites/:id',
  /** GET ?title=: frame the page or show the screenshot (and why). */
  frame: '/api/heatmap/frame',
  /** GET ?title=&width=: PNG of the whole page at that width, taken by the server's Chromium. */
  screenshot: '/api/heatmap/screenshot',
} as const;

export const HEATMAP_PATHS = {
  /** User event titles (website pages with their url). */
  titles: '/api/heatmap/titles',
  /** The phone lookup (spec: an open-url call): GET ?phone= → tel and shence_id. */
  phone: '/api/heatmap/phone',
  /** User event list: POST the query, the points with counts per page and top areas. */
  events: '/api/heatmap/events',
  /** The demo website (its pages at their web_pages paths) and its script. */
  demoSite: '/demo-site/*',
  /** The tracker script a website includes with one tag. */
  tracker: '/tracker/shutu-track.js',
  /** Batches of tracked events (navigator.sendBeacon, text/plain JSON; public, by write key). */
  track: '/track/batch',
  /** Sites and write keys, frame check and screenshot fallback (track.ts). */
  ...TRACK_SITE_PATHS,
} as const;

export const APP_PATHS = {
  /** GET the apps the caller may edit (administrators: all; others: their own); POST save (create or update). */
  apps: '/api/apps',
  /** GET detail with the menu tree; DELETE (creator or administrator). */
  app: '/api/apps/:id',
  /** GET the menu tree; POST save one menu; PUT save all (the tree, replacing); DELETE ?ids=1,2. */
  menus: '/api/apps/:id/menus',
  /** GET (administrators) appList: the published apps grants offer. */
  grantable: '/api/apps/grantable',
  /** GET/PUT (administrators) authListByGroup / authSaveByGroup (appIdList). */
  groupAuth: '/api/apps/auth/:dataPermId',
  /** GET the apps the caller may open on a phone (/m). */
  mobile: '/api/apps/mobile',
  /** GET one app for the viewer: published (or the caller administers it) and visible to the caller. */
  mobileApp: '/api/apps/mobile/:id',
  /** GET the caller's full-screen frame: their bigdataId board or the default address. */
  frame: '/api/apps/frame',
  /** GET/PUT (administrators): the default address of the full-screen frame (系统设置). */
  frameSettings: '/api/apps/frame-settings',
} as const;

export const TAG_PATHS = {
  list: '/api/tag/list',
  detail: '/api/tag/detail',
  months: '/api/tag/months',
  ratio: '/api/tag/ratio',
  count: '/api/tag/count',
  tree: '/api/tag/tree',
  treeProduct: '/api/tag/tree/product',
  audience: '/api/tag/audience',
  audienceCount: '/api/tag/audience/preview',
  compare: '/api/tag/profile/compare',
} as const;

const AUDIENCE_BASE = '/api/audience';
export const AUDIENCE_PATHS = {
  /** GET: 人群分类 list; POST: add one. */
  categories: `${AUDIENCE_BASE}/categories`,
  /** GET (page): audiences the caller may see. */
  list: `${AUDIENCE_BASE}/list`,
  /** GET ?id (groupDetail). */
  detail: `${AUDIENCE_BASE}/detail`,
  /** POST (groupSave). */
  save: `${AUDIENCE_BASE}/save`,
  /** POST (groupPreview): the set operation's first rows and its size. */
  preview: `${AUDIENCE_BASE}/preview`,
  /** POST {id}: compute now (刷新). */
  refresh: `${AUDIENCE_BASE}/refresh`,
  /** GET ?id: the audience's computations, newest first (audience_refresh, at most 50). */
  refreshes: `${AUDIENCE_BASE}/refreshes`,
  /** POST {id, isOnline}: 1 in use, 2 stopped. */
  online: `${AUDIENCE_BASE}/online`,
  /** POST {id}. */
  remove: `${AUDIENCE_BASE}/remove`,
  /** GET ?id: members as CSV (UTF-8 with BOM), streamed. */
  export: `${AUDIENCE_BASE}/export`,
  /** POST multipart (uploadGroup): file, name, userGroupStatus, startAnalyseDate, endAnalyseDate. */
  import: `${AUDIENCE_BASE}/import`,
} as const;

/** The largest page the server hands out; the spec's "large list fetches" ask for 10000. */
export const MAX_PAGE_SIZE = 10000;

/** A dataset's defaults (spec 2 §9): formats, aggregation, join (dataset.ts re-exports them). */
export const DATASET_DEFAULTS = {
  numberDataFormat: 'AUTO',
  timeDataFormat: 'yyyy_MM_ddhh$mm$ss',
  aggregationType: 'SUM',
  joinType: 'LEFT_JOIN',
} as const;
