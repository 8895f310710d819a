import { CUBE_PREVIEW_DEFAULT_ROWS, CUBE_PREVIEW_MAX_ROWS, type CubePreviewParsed } from '@shutu/contracts';
import {
  compileCubeQuery,
  planCubeQuery,
  QueryError,
  type CompiledQuery,
  type CompileOptions,
  type CubePlan,
  type Dialect,
  type QueryPermissions,
} from '@shutu/query';
import { queryFailure } from '../../platform/http/errors.ts';

/** Runs the query engine; its refusals become their Chinese message and status (400, 403). */
export function refusing<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof QueryError) throw queryFailure(error);
    throw error;
  }
}

/** Rows a preview returns: the request's limit, default 100, at most 10 000. */
export function previewLimit(limit: number | null | undefined): number {
  return Math.min(limit ?? CUBE_PREVIEW_DEFAULT_ROWS, CUBE_PREVIEW_MAX_ROWS);
}

/** A preview compiled for one dialect: the engine's query and the row limit it is read with. */
export type CompiledPreview = CompiledQuery & { limit: number };

/** A page's query for `dialect`, with the reader's permissions and the request's parameters; relative dates count from `now` in the installation's zone. */
export function compilePreview(
  dialect: Dialect,
  body: Pick<CubePreviewParsed, 'model' | 'request' | 'params'>,
  permissions: QueryPermissions,
  now: Date,
  timeZoneOffsetMinutes: number,
  derivedTables?: ReadonlyMap<string, string>,
): CompiledPreview {
  const limit = previewLimit(body.request.limit);
  return {
    ...compileWithPermissions(dialect, body.model, { ...body.request, limit }, permissions, body.params, now, timeZoneOffsetMinutes, derivedTables),
    limit,
  };
}

/**
 * Compiles a request with the reader's permission filters and the formulas' parameters, as
 * every read of data does (previews, charts, exports); a refusal of the compiler becomes its
 * Chinese message (400; 403 for a hidden column).
 */
export function compileWithPermissions(
  dialect: Dialect,
  model: CubePreviewParsed['model'],
  request: CubePreviewParsed['request'],
  permissions: QueryPermissions,
  params: CubePreviewParsed['params'],
  now: Date,
  /** The installation's zone offset at `now` (系统设置 → 时区): 本月, 最近7天 … count its days. */
  timeZoneOffsetMinutes: number,
  /** Saved SQL views among the model's tables, by name: read as derived tables (datasource views.ts). */
  derivedTables?: ReadonlyMap<string, string>,
): CompiledQuery {
  return refusing(() => compileCubeQuery(model, request, permissionOptions(dialect, permissions, params, now, timeZoneOffsetMinutes, derivedTables)));
}

/** The same read as compileWithPermissions, planned but not rendered (grouped statements combine plans: grouped.ts). */
export function planWithPermissions(...args: Parameters<typeof compileWithPermissions>): CubePlan {
  const [dialect, model, request, permissions, params, now, timeZoneOffsetMinutes, derivedTables] = args;
  return refusing(() => planCubeQuery(model, request, permissionOptions(dialect, permissions, params, now, timeZoneOffsetMinutes, derivedTables)));
}

function permissionOptions(
  dialect: Dialect,
  permissions: QueryPermissions,
  params: CubePreviewParsed['params'],
  now: Date,
  timeZoneOffsetMinutes: number,
  derivedTables: ReadonlyMap<string, string> | undefined,
): CompileOptions {
  return {
    dialect,
    now,
    timeZoneOffsetMinutes,
    rowFilters: permissions.rowFilters,
    rowFilterSets: permissions.rowFilterSets,
    excludedColumnIds: permissions.excludedColumnIds,
    params,
    derivedTables,
  };
}
