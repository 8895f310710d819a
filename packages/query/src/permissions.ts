import type { FieldId, FilterGroup } from '@shutu/contracts';

/**
 * What a reader may see of a data source's rows: row filters ANDed into every request (a
 * request's own OR cannot escape them: global filters), sets of row filters of which any one
 * suffices (one set per subject read for — the viewer and the owner of what shows the data —
 * each the union of that subject's groups' filters; every set must hold), and the ids of
 * columns it may not read (a request touching one, even through a computed field, is refused:
 * 403).
 *
 * These come from the server side only, never from a request body. Administrators are
 * unrestricted.
 */
export interface QueryPermissions {
  readonly rowFilters: readonly FilterGroup[];
  readonly rowFilterSets?: readonly (readonly FilterGroup[])[];
  readonly excludedColumnIds: readonly FieldId[];
}

export const UNRESTRICTED: QueryPermissions = Object.freeze({ rowFilters: [], rowFilterSets: [], excludedColumnIds: [] });
