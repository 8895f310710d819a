import { createContext, useContext } from 'react';
import { DATA_API_PATHS, apiPath, type DataApiDict, type DataApiDictNode, type DataApiOption, type DataApiPickSource } from '@shutu/contracts';
import { http } from '../../../shared/api.ts';
import type { FilterItem } from './types.ts';

/**
 * Pick-lists for filter values (spec 1 §3, spec 2 §3 filter item: enumSource 1 raw-data
 * aggregation, 2 data API, 3 custom dictionary; issue 28). A filter item names where its values
 * come from; the value input then offers them, searchable, instead of free typing:
 *
 * - manual list: `options` holds the values the author typed (enumSource absent);
 * - 1: the field's own distinct values, read through the read module under the reader's
 *   permissions (DistinctValues below: the dataset editor previews its model);
 * - 2: a published data API's answer (`GET /api/dataapi/apis/:id/options`, first column the
 *   value, second the label), `enumId` the API id;
 * - 3: an enumeration dictionary saved from a data-API preview, `enumId` its keyCode — a tree
 *   (parent and child entries) offered as a tree.
 */

export interface PickOption {
  value: string | number;
  label: string;
  children?: PickOption[];
}

export type ValueSource = 'typed' | 'manual' | 'distinct' | 'api' | 'dict';

export function sourceOf(item: Pick<FilterItem, 'enumSource' | 'options'>): ValueSource {
  if (item.enumSource === 1) return 'distinct';
  if (item.enumSource === 2) return 'api';
  if (item.enumSource === 3) return 'dict';
  return (item.options?.length ?? 0) > 0 ? 'manual' : 'typed';
}

const ENUM_SOURCE: Record<ValueSource, 1 | 2 | 3 | null> = { typed: null, manual: null, distinct: 1, api: 2, dict: 3 };

/** Sets an item's value source; a changed source clears what the old one picked. */
export function withSource(item: FilterItem, source: ValueSource, enumId: string | number | null = null, options: readonly unknown[] = []): FilterItem {
  return { ...item, enumSource: ENUM_SOURCE[source], enumId, options: source === 'manual' ? [...options] : null };
}

const dictOptions = (nodes: readonly DataApiDictNode[]): PickOption[] =>
  nodes.map((n) => ({
    value: n.key,
    label: n.value === null || n.value === '' ? String(n.key) : String(n.value),
    ...(n.children?.length ? { children: dictOptions(n.children) } : {}),
  }));

/** The manual list's entries as options (text or { value, label }). */
export function manualOptions(options: readonly unknown[] | null | undefined): PickOption[] {
  return (options ?? []).flatMap((o): PickOption[] => {
    if (typeof o === 'string' || typeof o === 'number') return [{ value: o, label: String(o) }];
    if (o && typeof o === 'object' && 'value' in o) {
      const { value, label } = o as { value: string | number; label?: string };
      return [{ value, label: label ?? String(value) }];
    }
    return [];
  });
}

export const fetchDictList = () => http.get<DataApiDict[]>(DATA_API_PATHS.dicts);
export const fetchDictOptions = (keyCode: string) => http.get<DataApiDict>(apiPath(DATA_API_PATHS.dict, { keyCode })).then((d) => dictOptions(d.content));
/** The APIs a pick-list may come from: every online one, not only the viewer's own (dataapiList lists those). */
export const fetchApiList = () => http.get<DataApiPickSource[]>(DATA_API_PATHS.pickSources);
export const fetchApiOptions = (id: number | string) =>
  http
    .get<{ options: DataApiOption[] }>(apiPath(DATA_API_PATHS.options, { id: String(id) }))
    .then((r) => r.options.map((o) => ({ value: o.value, label: o.label })));

/** Reads a field's distinct values (enumSource 1) for whoever edits the filter; absent where no read is at hand. */
export type DistinctValues = (cubeColumnId: FilterItem['cubeColumnId']) => Promise<PickOption[]>;
export const DistinctValuesContext = createContext<DistinctValues | null>(null);
export const useDistinctValues = () => useContext(DistinctValuesContext);

/** Every value of a tree of options, flattened (for labels of picked values). */
export function flatOptions(options: readonly PickOption[]): PickOption[] {
  return options.flatMap((o) => [o, ...flatOptions(o.children ?? [])]);
}
