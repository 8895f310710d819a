/**
 * Every HTTP path of the API, shared by server routes, the web client and the tests.
 * The spec names operations, not paths (spec 2 §7); these are ours.
 */
import { APP_PATHS, AUDIENCE_PATHS, CDP_PATHS, DATA_API_PATHS, HEATMAP_PATHS, MARKET_PATHS, ORDER_EXPORT_PATHS, TAG_PATHS } from './constants.ts';

export const API = {
  health: '/api/health',
  docs: '/api/docs',
  auth: {
    login: '/api/auth/login',
    logout: '/api/auth/logout',
    info: '/api/auth/info',
  },
  profile: {
    info: '/api/profile',
    password: '/api/profile/password',
  },
  system: {
    config: '/api/system/config',
    /** GET/PUT (administrators): SMTP and robot settings of subscriptions; secrets masked. */
    notify: '/api/system/notify',
    /** GET/PUT (administrators): the origins allowed to frame /openview and share links. */
    embed: '/api/system/embed',
    /** GET/PUT (administrators): 公开访问地址, the base of every link sent out (subscriptions, share links). */
    publicUrl: '/api/system/public-url',
    /** GET/PUT (administrators): 时区, the wall clock of schedules, relative dates and every time shown. */
    timeZone: '/api/system/time-zone',
    /** GET (signed-in users) / PUT (administrators): the data source that receives uploaded file tables (issue 27). */
    fileTableSource: '/api/system/file-table-source',
  },
  org: {
    users: '/api/org/users',
    user: '/api/org/users/:id',
    userStatus: '/api/org/users/:id/status',
    userPassword: '/api/org/users/:id/password',
    departments: '/api/org/departments',
    department: '/api/org/departments/:id',
    roles: '/api/org/roles',
    role: '/api/org/roles/:id',
    permissions: '/api/org/permissions',
  },
  dict: {
    parents: '/api/dict/parents',
    children: '/api/dict/children',
    dicts: '/api/dict',
    dict: '/api/dict/:id',
    remove: '/api/dict/remove',
  },
  datasource: {
    /** GET page (keyword), POST create. */
    sources: '/api/datasource',
    /** GET, PUT, DELETE one. */
    source: '/api/datasource/:id',
    /** POST: test a saved source. */
    test: '/api/datasource/:id/test',
    /** POST: test a form not saved yet. */
    testForm: '/api/datasource/test',
    tables: '/api/datasource/:id/tables',
    /** GET ?tableName=&schema= */
    columns: '/api/datasource/:id/columns',
    /** GET: the sources the caller may build datasets on (administrators: all; others: granted ones). */
    usable: '/api/datasource/usable',
  },
  /**
   * Permission groups (spec 2 §7 "Permission groups and other grants", "Data-source table
   * authorisation"): typeList → GET types; typeSave → POST types (with id: update);
   * typeDel → DELETE types/:id; groupPage → GET groups; group save → POST groups (with id:
   * update); groupDel → DELETE groups/:id; my auth groups → GET my-groups; dsAuthList →
   * GET groups/:id/datasources; dsAuthSave → PUT groups/:id/datasources/:datasourceId
   * (an empty table list removes the source).
   */
  perm: {
    types: '/api/perm/types',
    type: '/api/perm/types/:id',
    groups: '/api/perm/groups',
    group: '/api/perm/groups/:id',
    myGroups: '/api/perm/my-groups',
    dataSourceGrants: '/api/perm/groups/:id/datasources',
    dataSourceGrant: '/api/perm/groups/:id/datasources/:datasourceId',
  },
  /**
   * File tables (spec 2 §7 "File tables"). The spec's calls map to:
   * POST {base}/bi-api/cube/file/structure → POST structure (multipart `file`);
   * tableFileUpload → POST tables (multipart file, tableName, tableComment, dsId, tableColumnList);
   * tableFileList → GET tables?dsId=.
   */
  fileTable: {
    structure: '/api/filetable/structure',
    tables: '/api/filetable/tables',
  },
  /**
   * SQL views (spec 2 §7 "SQL views"): viewSave → POST views (with id: update);
   * SQL views by datasourceId → GET views?datasourceId=; viewPreview → POST preview
   * (Base64 `sqlStatement`); GET defaultName → V_SQL_YYYYMMDDHHmm.
   */
  sqlView: {
    views: '/api/sqlview/views',
    view: '/api/sqlview/views/:id',
    preview: '/api/sqlview/preview',
    defaultName: '/api/sqlview/default-name',
  },
  /**
   * The dataset editor's query calls (spec 2 §7 "Dataset editor"): preview cube → POST
   * preview; check whether a formula has aggregation → POST formulaCheck; functions by data
   * source type → GET functions?dsType=. POST bodies may be `{ payload: Base64 JSON }`.
   */
  query: {
    preview: '/api/query/preview',
    formulaCheck: '/api/query/formula-check',
    functions: '/api/query/functions',
  },
  /**
   * Datasets (spec 2 §7 "Dataset editor", "Dataset permission filters", "Group-level dataset
   * authorisation"): categoryList → GET categories; save category (wsName, sortNum, parentId)
   * → POST categories (with id: update); delete category → DELETE categories/:id; cubeList
   * (workspaceId, cubeName, current, size) → GET cubes; cube detail by cubeDataId → GET
   * cubes/:id; cube field list (cubeFieldList) → GET cubes/:id/fields; save cube → POST cubes
   * (Base64 payload; data: the id); delete cube → DELETE cubes/:id; delete cube field by
   * columnId → DELETE fields/:columnId; field check → POST field-check; preview of a saved
   * cube (cubeDataId + request) → POST preview (the editor's model preview stays POST
   * /api/query/preview, carrying cubeDataId when editing); cubePremList (cubeDataId) → GET
   * cubes/:id/perm-filters; cubePremSave → POST perm-filters (with id: update);
   * cubePremSDel (cubePermId) → DELETE perm-filters/:id; authCubeList (cubeWorkspaceId,
   * dataPermId) → GET auth/:dataPermId/cubes?cubeWorkspaceId=; authCubeDetail (cubeDataId,
   * cubeWorkspaceId, dataPermId) → GET auth/:dataPermId/cubes/:cubeDataId; authCubeSaveBatch
   * (dataIdList, cubeWorkspaceId, dataPermId) → PUT auth/:dataPermId/cubes.
   */
  dataset: {
    categories: '/api/dataset/categories',
    category: '/api/dataset/categories/:id',
    cubes: '/api/dataset/cubes',
    cube: '/api/dataset/cubes/:id',
    fields: '/api/dataset/cubes/:id/fields',
    field: '/api/dataset/fields/:columnId',
    fieldCheck: '/api/dataset/field-check',
    preview: '/api/dataset/preview',
    permFilters: '/api/dataset/cubes/:id/perm-filters',
    permFilterSave: '/api/dataset/perm-filters',
    permFilter: '/api/dataset/perm-filters/:id',
    authCubes: '/api/dataset/auth/:dataPermId/cubes',
    authCube: '/api/dataset/auth/:dataPermId/cubes/:cubeDataId',
  },
  /**
   * Global parameters (spec 2 §3 "Parameter category and global parameter", §7 "Dataset
   * editor"): global parameter category list → GET types; save → POST types (with id:
   * update); delete → DELETE types/:id; parameter list (current, size, typeId) → GET params;
   * save → POST params (with id: update); delete → DELETE params/:id.
   */
  /**
   * Boards: dashboards (kind visual) and self-service reports (kind report) (spec 1 §7
   * "Reports", "Report authorisation"): list → GET boards?kind=&current=&size=50&title=&categoryId=;
   * editor save → POST boards (with id: update); detail with charts → GET boards/:id;
   * componentList → GET boards/:id/charts; save simple → PUT boards/:id/info; delete → DELETE
   * boards/:id; copy → POST boards/:id/copy; sort → PUT sort (ids as a comma string); category
   * list → GET categories?kind=; category save → POST categories (with id: update); category
   * delete → DELETE categories/:id; list by report id (permIds) → GET boards/:id/auth; save
   * (publicStatus, dataPermIdList) → PUT boards/:id/auth; report-auth list of a group → GET
   * auth/:dataPermId?kind=&reportCategoryId=; report-auth save → PUT auth/:dataPermId; chart
   * data → POST chart-data.
   */
  board: {
    boards: '/api/board/boards',
    board: '/api/board/boards/:id',
    charts: '/api/board/boards/:id/charts',
    info: '/api/board/boards/:id/info',
    copy: '/api/board/boards/:id/copy',
    auth: '/api/board/boards/:id/auth',
    sort: '/api/board/sort',
    categories: '/api/board/categories',
    category: '/api/board/categories/:id',
    groupAuth: '/api/board/auth/:dataPermId',
    chartData: '/api/board/chart-data',
    /** POST: several saved charts of one board in one call (board-batch.ts). */
    chartDataBatch: '/api/board/chart-data/batch',
    thumbnail: '/api/board/thumbnails/:file',
    /** POST: a short-lived token (BOARD_VIEW_TOKEN_MINUTES) for /openview/{id} and the server's renderer. */
    viewToken: '/api/board/boards/:id/view-token',
  },
  /**
   * Table export to Excel (spec 1 §7 "Export Excel and export records"): export → POST
   * tasks (a background task); export records of a chart → GET records?boardId=&chartKey=
   * &current=1&size=5; my tasks (任务管理) → GET tasks?current=&size=&status=; download → GET
   * tasks/:id/download (owner only); delete → DELETE tasks/:id; retry a failed one → POST tasks/:id/retry.
   */
  /**
   * Slideshows (spec 1 §7 "Slideshow"): info → GET slideshows/:id (detail + visualList);
   * submit → POST slideshows (with id: update); favourite / archive category lists → GET
   * categories?visualType=1|2 (默认分类 id 0 first); componentList is API.board.charts.
   * PDF: POST slideshows/:id/pdf (print form) → task; GET pdf-tasks/:taskId; GET its file.
   */
  ppt: {
    slideshows: '/api/ppt/slideshows',
    slideshow: '/api/ppt/slideshows/:id',
    categories: '/api/ppt/categories',
    category: '/api/ppt/categories/:id',
    /** GET / PUT (administrators): public status and groups of one slideshow. */
    auth: '/api/ppt/slideshows/:id/auth',
    /** GET / PUT (administrators): the slideshows granted to a permission group (the 幻灯片 grant tab). */
    groupAuth: '/api/ppt/auth/:dataPermId',
    pdf: '/api/ppt/slideshows/:id/pdf',
    pdfTask: '/api/ppt/pdf-tasks/:taskId',
    pdfFile: '/api/ppt/pdf-tasks/:taskId/file',
    /** POST: a failed PDF task runs again, as the same task (任务管理 重试). */
    pdfRetry: '/api/ppt/pdf-tasks/:taskId/retry',
  },
  /**
   * Share links (spec 1 §7 "Shares"): share list → GET links?title=&current=&size=; create →
   * POST links; update (enable, password, expiry, purpose) → PUT links/:id; delete → DELETE
   * links/:id; open a link (no login needed for login-free links) → POST open/:code; get auth
   * share (dataPermId) → GET auth?dataPermId=; save auth share (linkIdList, dataPermId) → PUT auth.
   */
  share: {
    links: '/api/share/links',
    link: '/api/share/links/:id',
    open: '/api/share/open/:code',
    auth: '/api/share/auth',
  },
  subscription: {
    /** GET the caller's subscriptions (administrators: everyone's); POST save (create / update). */
    subscriptions: '/api/subscription/subscriptions',
    subscription: '/api/subscription/subscriptions/:id',
    enabled: '/api/subscription/subscriptions/:id/enabled',
    /** POST (administrators): send now, through the same job and log as a due time. */
    sendNow: '/api/subscription/subscriptions/:id/send',
    /** POST {notifyType}: data 0 when the method can be used, else non-zero with msg. */
    check: '/api/subscription/check',
    logs: '/api/subscription/logs',
    log: '/api/subscription/logs/:id',
    /** Public, unguessable names: the images robots link to (DingTalk, Feishu, tianxiangyun). */
    image: '/api/subscription/images/:file',
  },
  export: {
    tasks: '/api/export/tasks',
    task: '/api/export/tasks/:id',
    records: '/api/export/records',
    download: '/api/export/tasks/:id/download',
    /** POST: a failed task (e.g. interrupted by a restart) runs again, as the same task. */
    retry: '/api/export/tasks/:id/retry',
    /** GET 任务管理: the caller's chart exports and slideshow PDFs in one list (kind column). */
    allTasks: '/api/export/all-tasks',
  },
  globalParam: {
    types: '/api/global-param/types',
    type: '/api/global-param/types/:id',
    params: '/api/global-param/params',
    param: '/api/global-param/params/:id',
  },
  /** 首页 (docs/home.md): GET the sections; POST visits {kind, id}; PUT/DELETE a board favourite. */
  home: {
    home: '/api/home',
    visits: '/api/home/visits',
    favouriteBoard: '/api/home/favourite-boards/:id',
  },
  /** Data APIs (issue 17; docs/dataapi.md). */
  dataApi: DATA_API_PATHS,
  orderExport: ORDER_EXPORT_PATHS,
  market: MARKET_PATHS,
  /** Connected platforms (issue 21; docs/platforms.md). */
  cdp: CDP_PATHS,
  /** Click heat map (issue 22; docs/heatmap.md). */
  heatmap: HEATMAP_PATHS,
  /** Apps, their menus and grants, the mobile viewer, the full-screen frame (issue 24; docs/apps.md). */
  app: APP_PATHS,
  /** Tags, the tag-driven audience and the profile comparison (issue 18; docs/tags.md). */
  tag: TAG_PATHS,
  /** Audiences: dataset-driven editor, import groups, members (issue 18; docs/audiences.md). */
  audience: AUDIENCE_PATHS,
} as const;

/** Fills `:name` segments of a path. */
export function apiPath(path: string, params: Record<string, string | number>): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(String(params[name])));
}
