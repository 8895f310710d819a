import { datasetMessages, formatMessage, type FieldId, type FilterGroup } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { badRequest, forbidden, notFound } from '../../platform/http/errors.ts';
import { grantedIds, groupIdsOf, mayView, ownerCaller, type Caller } from '../perm/index.ts';
import { UNRESTRICTED, type QueryPermissions } from '@shutu/query';
import { listPermFilters } from './filter-repo.ts';
import { keyOf, parseFilterTree, parseIdList, treeFieldKeys } from './model.ts';
import { findCube, type CubeRow } from './repo.ts';

/**
 * Who may see and change a dataset, and what a user sees of it (docs/datasets.md).
 *
 * - See: administrators all; anyone a public dataset; others the datasets granted to one of
 *   their permission groups, and the datasets they created.
 * - Change and delete: administrators, and the creator.
 * - Read: administrators unrestricted. Others get the permission filters of the dataset
 *   bound to their groups: none → unrestricted; otherwise the rows of ANY of those filters
 *   (union) and a column hidden only when EVERY one of them excludes it (intersection).
 */

type CubeAccessFacts = Pick<CubeRow, 'id' | 'publicStatus' | 'createUserId'>;

export function mayEditCube(caller: Caller, cube: Pick<CubeRow, 'createUserId'>): boolean {
  return caller.isAdministrator || (cube.createUserId !== null && cube.createUserId === caller.userId);
}

export async function mayViewCube(ctx: AppContext, caller: Caller, cube: CubeAccessFacts): Promise<boolean> {
  return mayEditCube(caller, cube) || mayView(ctx, caller, 'cube', cube);
}

/** The datasets a non-administrator may see beyond public ones and their own; undefined for administrators. */
export async function visibilityOf(ctx: AppContext, caller: Caller): Promise<{ userId: number; grantedIds: number[] } | undefined> {
  const granted = await grantedIds(ctx, caller, 'cube');
  if (granted.all) return undefined;
  return { userId: caller.userId, grantedIds: [...granted.ids] };
}

/** The dataset, if the caller may see it: 404 when there is none, 403 naming it otherwise. */
export async function requireViewable(ctx: AppContext, caller: Caller, id: number): Promise<CubeRow> {
  const cube = await findCube(ctx.db, id);
  if (!cube) throw notFound(datasetMessages.datasetNotFound);
  if (!(await mayViewCube(ctx, caller, cube))) throw forbidden(formatMessage(datasetMessages.datasetForbidden, { name: cube.cubeName }));
  return cube;
}

/** The dataset, if the caller may change it (administrators, its creator). */
export async function requireEditable(ctx: AppContext, caller: Caller, id: number): Promise<CubeRow> {
  const cube = await findCube(ctx.db, id);
  if (!cube) throw notFound(datasetMessages.datasetNotFound);
  if (!mayEditCube(caller, cube)) {
    // Who cannot even see it is not told more than that.
    if (!(await mayViewCube(ctx, caller, cube))) throw forbidden(formatMessage(datasetMessages.datasetForbidden, { name: cube.cubeName }));
    throw forbidden(datasetMessages.datasetNotOwned);
  }
  return cube;
}

/** A user's permission filters on one dataset, with the names they were saved under. */
export interface CubeRestriction {
  /** The filters of the caller's groups (empty: unrestricted). */
  filters: { name: string; tree: FilterGroup; fieldKeys: string[] }[];
  permissions: QueryPermissions;
}

const UNRESTRICTED_CUBE: CubeRestriction = { filters: [], permissions: UNRESTRICTED };

/**
 * What the caller may read of the dataset: administrators everything; others the union of
 * their groups' row filters on it and the columns every one of those filters excludes.
 */
export async function cubeRestriction(ctx: AppContext, caller: Caller, cubeId: number): Promise<CubeRestriction> {
  if (caller.isAdministrator) return UNRESTRICTED_CUBE;
  const rows = await listPermFilters(ctx.db, cubeId, await groupIdsOf(ctx, caller.userId));
  if (rows.length === 0) return UNRESTRICTED_CUBE;
  const filters = rows.map((row) => {
    const tree = parseFilterTree(row.filterJson) ?? { relation: 'AND' as const, conditions: [], filters: [] };
    return { name: row.cubePermName, tree: tree as FilterGroup, fieldKeys: treeFieldKeys(tree) };
  });
  const [first, ...rest] = rows.map((row) => new Set(parseIdList(row.excludeColumnIds)));
  const excluded = [...first!].filter((id) => rest.every((set) => set.has(id)));
  return { filters, permissions: { rowFilters: [], rowFilterSets: [filters.map((f) => f.tree)], excludedColumnIds: excluded } };
}

/**
 * What a read shows when it is made for a viewer on behalf of an owner — the creator of the
 * board that shows the chart (and so of the share link, subscription, slideshow or export
 * that reads that board): rows pass every subject's filters, a column is hidden when any
 * subject hides it. Nobody publishes more than they can see, and nobody sees more than they
 * may. The owner must still be allowed to see the dataset (403 otherwise); an owner of null
 * is the system (demo content) and adds nothing.
 */
export async function readRestriction(
  ctx: AppContext,
  viewer: Caller,
  cube: CubeAccessFacts & Pick<CubeRow, 'cubeName'>,
  ownerId: number | null | undefined,
): Promise<QueryPermissions> {
  const subjects = [viewer];
  if (ownerId !== null && ownerId !== undefined && ownerId !== viewer.userId) {
    const owner = await ownerCaller(ctx, ownerId);
    if (!(await mayViewCube(ctx, owner, cube))) throw forbidden(formatMessage(datasetMessages.ownerLostDataset, { name: cube.cubeName }));
    subjects.push(owner);
  }
  const restrictions = await Promise.all(subjects.map(async (subject) => (await cubeRestriction(ctx, subject, cube.id)).permissions));
  return intersectPermissions(restrictions);
}

/** Every restriction at once: all row filters and filter sets, the union of hidden columns. */
export function intersectPermissions(all: readonly QueryPermissions[]): QueryPermissions {
  if (all.length === 1) return all[0]!;
  const excluded = new Map<string, FieldId>();
  for (const p of all) for (const id of p.excludedColumnIds) excluded.set(keyOf(id), id);
  return {
    rowFilters: all.flatMap((p) => p.rowFilters),
    rowFilterSets: all.flatMap((p) => p.rowFilterSets ?? []),
    excludedColumnIds: [...excluded.values()],
  };
}

/**
 * The editor's model preview of a saved dataset (POST /api/query/preview with cubeDataId):
 * the caller must be allowed to see the dataset, and a non-administrator reads it through
 * their groups' filters. A filter naming a field the edited model no longer has cannot be
 * applied: 400, save first.
 */
export async function editorPreviewPermissions(ctx: AppContext, caller: Caller, cubeId: number, fieldIds: readonly FieldId[]): Promise<QueryPermissions> {
  await requireViewable(ctx, caller, cubeId);
  const restriction = await cubeRestriction(ctx, caller, cubeId);
  if (restriction.filters.length === 0) return restriction.permissions;
  const known = new Set(fieldIds.map(keyOf));
  const broken = restriction.filters.find((f) => f.fieldKeys.some((key) => !known.has(key)));
  if (broken) throw badRequest(formatMessage(datasetMessages.permFilterFieldMissing, { name: broken.name }));
  return restriction.permissions;
}
