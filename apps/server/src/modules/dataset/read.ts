import {
  cubeModelSchema,
  cubeQueryRequestSchema,
  datasetMessages,
  type CubeModelParsed,
  type CubeQueryRequestParsed,
  type GlobalParamValues,
} from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../platform/http/errors.ts';
import { viewStatements } from '../datasource/index.ts';
import type { Caller } from '../perm/index.ts';
import type { QueryPermissions } from '@shutu/query';
import { readRestriction, requireViewable } from './access.ts';
import { keyOf, parseFilterTree, parseJoins, parseSorts, parseTables, resolveParams, storedModel, treeIsEmpty } from './model.ts';
import { findCube, listFields, type CubeRow, type FieldRow } from './repo.ts';

/**
 * The one way a saved dataset is read (preview, charts): its own model, whatever tables the
 * caller is granted (the dataset grant, or the grant of what shows it, is the right to read
 * it); the global filter ANDed into every read (administrators included; its parameters from
 * `params`); and the caller's permission filters (access.ts: union of rows, intersection of
 * hidden columns; administrators unrestricted), and those of the owner the caller reads
 * through (a board's creator) at the same time.
 */
export interface DatasetRead {
  cube: CubeRow;
  fields: FieldRow[];
  model: CubeModelParsed;
  /** The caller's permission filters with the global filter as a row filter. */
  permissions: QueryPermissions;
  /** The statements of the saved SQL views among its tables, by table name (compiled as derived tables). */
  derivedTables: ReadonlyMap<string, string>;
}

export interface DatasetReadOptions {
  /**
   * 'dataset' (default): the caller must be allowed to see the dataset (404 / 403 otherwise).
   * 'granted': the caller's right to read was checked by the caller of this function (e.g.
   * a board the caller may see shows a chart of the dataset); the dataset must exist.
   */
  access?: 'dataset' | 'granted';
  /**
   * Who publishes what is read (the creator of the board showing the chart): their
   * restriction applies too (access.ts readRestriction). Undefined: the caller reads for
   * themself (the dataset preview, an editor's chart).
   */
  ownerId?: number | null;
}

export async function openDatasetRead(
  ctx: AppContext,
  caller: Caller,
  cubeId: number,
  params: GlobalParamValues | undefined,
  options: DatasetReadOptions = {},
): Promise<DatasetRead> {
  const cube = options.access === 'granted' ? await findCube(ctx.db, cubeId) : await requireViewable(ctx, caller, cubeId);
  if (!cube) throw notFound(datasetMessages.datasetNotFound);
  const fields = await listFields(ctx.db, cube.id);
  const model = parsedModel(cube, fields);
  const restriction = await readRestriction(ctx, caller, cube, options.ownerId);
  const globalFilter = parseFilterTree(cube.filterJson);
  const rowFilters = globalFilter && !treeIsEmpty(globalFilter) ? [resolveParams(globalFilter, params)] : [];
  const derivedTables = await viewStatements(ctx, cube.datasourceId, model.tables);
  return { cube, fields, model, permissions: { ...restriction, rowFilters: [...restriction.rowFilters, ...rowFilters] }, derivedTables };
}

/**
 * The stored model parsed once per loaded cube row and field list: the rows come from the
 * metadata memo (platform/cache/coherent.ts cachedRead) and are the same objects until the
 * dataset changes, so a chart answered from cache does not parse its model again. Any newly
 * loaded row or list misses here and is parsed. The parsed model is shared: nothing mutates it.
 */
const parsedModels = new WeakMap<FieldRow[], { cube: CubeRow; model: CubeModelParsed }>();

function parsedModel(cube: CubeRow, fields: FieldRow[]): CubeModelParsed {
  const hit = parsedModels.get(fields);
  if (hit && hit.cube === cube) return hit.model;
  const model = cubeModelSchema.parse(storedModel(parseTables(cube.cubeTableNames), parseJoins(cube.linksJoin), fields));
  parsedModels.set(fields, { cube, model });
  return model;
}

/** The dataset's saved order (orderByList), for the entries the request selects. */
export function savedOrder(orderByJson: string, request: Pick<CubeQueryRequestParsed, 'dimensions' | 'measures'>): CubeQueryRequestParsed['sort'] {
  const dimensions = new Set(request.dimensions.map((d) => keyOf(d.fieldId)));
  const measures = request.measures.map((m) => ({ key: keyOf(m.fieldId), aggregation: m.aggregation ?? null }));
  const selected = parseSorts(orderByJson).filter((s) => {
    const key = keyOf(s.fieldId);
    return dimensions.has(key) || measures.some((m) => m.key === key && (!s.aggregation || !m.aggregation || s.aggregation === m.aggregation));
  });
  return cubeQueryRequestSchema.shape.sort.parse(selected);
}
