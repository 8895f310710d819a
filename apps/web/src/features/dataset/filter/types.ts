import type { CubePermFilter, FieldId, ViewDataType } from '@shutu/contracts';

/** A filter tree as the editor holds it (spec 2 §3 "Dataset permission filter": filterList + filterRelation, two levels). */
export type FilterTree = CubePermFilter['filterJson'];
export type FilterItem = FilterTree['conditions'][number];
export type FilterCondition = FilterItem['conditions'][number];
export type FilterLeafGroup = FilterTree['filters'][number];

/** A field a condition may filter on. */
export interface FilterField {
  id: FieldId;
  title: string;
  viewDataType: ViewDataType;
}

/** A global parameter a global-filter condition may take its values from. */
export interface FilterParam {
  paramKey: string;
  paramName: string;
  paramColumnType: ViewDataType;
}

export interface FilterTreeEditorProps {
  value: FilterTree;
  onChange: (tree: FilterTree) => void;
  fields: readonly FilterField[];
  /**
   * Given (global filter only): each condition can switch to "use a global parameter"
   * (useParam) and choose its paramKey. Absent: no parameter controls (permission filters).
   */
  params?: readonly FilterParam[];
  disabled?: boolean;
  /** Prefix for data-testid attributes, so two editors on one page stay distinct. */
  testIdPrefix?: string;
}

export const EMPTY_TREE: FilterTree = { relation: 'AND', conditions: [], filters: [] };
