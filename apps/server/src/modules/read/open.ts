import type { CubePreviewParsed, CubeQueryRequestParsed, GlobalParamValues } from '@shutu/contracts';
import type { Driver } from '@shutu/connectors';
import type { CompiledQuery, Dialect } from '@shutu/query';
import type { AppContext } from '../../context.ts';
import type { MaybeScoped } from '../../platform/auth/scope.ts';
import { openDatasetRead, type DatasetRead } from '../dataset/index.ts';
import { getDataSourceDriver } from '../datasource/registry.ts';
import { serverTimeZoneOffsetMinutes } from '../system/index.ts';
import type { Caller } from '../perm/index.ts';
import { cachedRead, type SharedRows } from './cache.ts';
import { compilePreview, compileWithPermissions } from './compile.ts';
import { runPreview } from './run.ts';

/**
 * Who reads, and for whom (docs/architecture.md "The read module"):
 *
 * - `viewer`: a session, the account a share link's token reads as, the owner of a job
 *   (export, subscription, slideshow PDF) — their permission filters apply;
 * - `ownerId`: the creator of what shows the data (the board of a saved chart) — their
 *   filters apply too, and they must still be allowed to see the dataset;
 * - `access`: 'dataset' (default) when the viewer must be allowed to see the dataset itself;
 *   'granted' when the caller of openRead checked a right that includes it (a board the viewer
 *   may see shows the chart).
 */
export interface ReadSubject {
  viewer: Caller & MaybeScoped;
  ownerId?: number | null;
  access?: 'dataset' | 'granted';
}

/** A dataset opened for a subject: model, restriction, driver and dialect, loaded once per read. */
export interface OpenRead extends DatasetRead {
  driver: Driver;
  dialect: Dialect;
  /** Global parameter values for the filters' and formulas' references. */
  params: CubePreviewParsed['params'];
  /** The instant relative time conditions count from, one for every query of the read. */
  now: Date;
  /** The installation's zone offset at `now` (系统设置 → 时区), the days relative conditions count. */
  timeZoneOffsetMinutes: number;
}

export async function openRead(ctx: AppContext, subject: ReadSubject, cubeId: number, params: GlobalParamValues | undefined): Promise<OpenRead> {
  const read = await openDatasetRead(ctx, subject.viewer, cubeId, params, { access: subject.access ?? 'dataset', ownerId: subject.ownerId });
  const driver = await getDataSourceDriver(ctx, read.cube.datasourceId);
  const now = new Date();
  return { ...read, driver, dialect: await driver.dialect(), params: params ?? {}, now, timeZoneOffsetMinutes: await serverTimeZoneOffsetMinutes(ctx, now) };
}

/** A request of the read compiled with its subject's restriction (no row limit of its own). */
export function compileRead(read: OpenRead, request: CubeQueryRequestParsed): CompiledQuery {
  return compileWithPermissions(read.dialect, read.model, request, read.permissions, read.params, read.now, read.timeZoneOffsetMinutes, read.derivedTables);
}

/**
 * A page of rows (the request's limit, at most 10 000) and its count when asked, shared with
 * every identical read of this server for a short while (cache.ts). Returns the field
 * dictionary of this reader beside the shared rows.
 */
export async function readPage(
  ctx: AppContext,
  read: OpenRead,
  request: CubeQueryRequestParsed,
): Promise<{ answer: { value: SharedRows; shared: boolean }; fields: CompiledQuery['fields'] }> {
  const compiled = compilePreview(
    read.dialect,
    { model: read.model, request, params: read.params },
    read.permissions,
    read.now,
    read.timeZoneOffsetMinutes,
    read.derivedTables,
  );
  const answer = await cachedRead(ctx, { id: read.cube.datasourceId, driver: read.driver }, compiled, async () => {
    const result = await runPreview(read.driver, compiled);
    return { dataList: result.dataList, total: result.total, elapsedMs: result.elapsedMs };
  });
  return { answer, fields: compiled.fields };
}
