/**
 * Every HTTP path of the API, shared by server routes, the web client and the tests.
 * The spec names operations, not paths (spec 2 §7); these are ours.
 */
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
} as const;

/** Fills `:name` segments of a path. */
export function apiPath(path: string, params: Record<string, string | number>): string {
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(String(params[name])));
}
