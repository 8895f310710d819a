import type { CubePreviewParsed, CubePreviewResult, DatasetPreviewParsed } from '@shutu/contracts';
import type { QueryPermissions } from '@shutu/query';
import type { AppContext } from '../../context.ts';
import { savedOrder } from '../dataset/index.ts';
import { viewStatements } from '../datasource/index.ts';
import { getDataSourceDriver } from '../datasource/registry.ts';
import type { Caller } from '../perm/index.ts';
import { serverTimeZoneOffsetMinutes } from '../system/index.ts';
import { compilePreview } from './compile.ts';
import { openRead } from './open.ts';
import { runPreview } from './run.ts';

/**
 * Previews: the rows of a model the dataset editor is building (the caller's permissions come
 * from the route: unrestricted on tables they may use, or a saved dataset's filters while
 * editing it), and of a saved dataset (its own model, global filter and the caller's filters).
 * Formulas' `${key}` references read `params` (bound; no value: NULL). Previews are not kept
 * in the read cache: an editor wants what the source holds now.
 */

/** The editor's preview of an unsaved model on its data source. */
export async function previewModel(
  ctx: AppContext,
  body: CubePreviewParsed,
  permissions: QueryPermissions,
  now: Date = new Date(),
): Promise<CubePreviewResult> {
  const driver = await getDataSourceDriver(ctx, body.datasourceId);
  const views = await viewStatements(ctx, body.datasourceId, body.model.tables);
  return runPreview(driver, compilePreview(await driver.dialect(), body, permissions, now, await serverTimeZoneOffsetMinutes(ctx, now), views));
}

/** A saved dataset's rows (preview by cubeDataId); the caller must be allowed to see the dataset. */
export async function previewSavedDataset(ctx: AppContext, caller: Caller, body: DatasetPreviewParsed): Promise<CubePreviewResult> {
  const read = await openRead(ctx, { viewer: caller }, body.cubeDataId, body.params);
  const request = body.request.sort.length > 0 ? body.request : { ...body.request, sort: savedOrder(read.cube.orderByJson, body.request) };
  return runPreview(
    read.driver,
    compilePreview(
      read.dialect,
      { model: read.model, request, params: read.params },
      read.permissions,
      read.now,
      read.timeZoneOffsetMinutes,
      read.derivedTables,
    ),
  );
}
