import {
  cubeJoinSchema,
  cubeSortSchema,
  cubeTableSchema,
  datasetFilterTreeSchema,
  type CubeModelInput,
  type DatasetField,
  type DatasetFilterTreeParsed,
  type FieldId,
  type FilterGroup,
} from '@shutu/contracts';
import { tokenize } from '@shutu/query';
import { z } from 'zod';
import type { FieldRow } from './repo.ts';

/**
 * Pure helpers over a dataset's parts: stored JSON text ⇄ values, the engine's cube model,
 * the field references of formulas, join keys and filter trees, and the rewriting of the
 * temporary ids of new fields.
 */

const tablesSchema = z.array(cubeTableSchema);
const joinsSchema = z.array(cubeJoinSchema);
const sortsSchema = z.array(cubeSortSchema);

export type StoredTable = z.output<typeof cubeTableSchema>;
export type StoredJoin = z.output<typeof cubeJoinSchema>;
export type StoredSort = z.output<typeof cubeSortSchema>;

function parseJson<T>(text: string | null, schema: z.ZodType<T>, fallback: T): T {
  if (text === null || text === '') return fallback;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : fallback;
  } catch {
    return fallback;
  }
}

export const parseTables = (text: string): StoredTable[] => parseJson(text, tablesSchema, []);
export const parseJoins = (text: string): StoredJoin[] => parseJson(text, joinsSchema, []);
export const parseSorts = (text: string): StoredSort[] => parseJson(text, sortsSchema, []);
export const parseFilterTree = (text: string | null): DatasetFilterTreeParsed | null =>
  parseJson<DatasetFilterTreeParsed | null>(text, datasetFilterTreeSchema, null);

/** The key the engine knows a field by: its id as text. */
export const keyOf = (id: FieldId): string => String(id).trim();

export function toDatasetField(row: FieldRow): DatasetField {
  return { ...row };
}

/** The engine's model of a saved dataset. */
export function storedModel(tables: readonly StoredTable[], joins: readonly StoredJoin[], fields: readonly FieldRow[]): CubeModelInput {
  return {
    tables: [...tables],
    joins: [...joins],
    fields: fields.map((f) => ({
      id: f.id,
      columnName: f.columnName,
      columnTitle: f.columnTitle,
      columnAttr: f.columnAttr,
      columnFormula: f.columnFormula,
      tableAliasName: f.tableAliasName,
      dimensionType: f.dimensionType,
      viewDataType: f.viewDataType,
      aggregationType: f.aggregationType,
    })),
  };
}

// ---------------------------------------------------------------------------------------
// References

export interface FormulaRefs {
  ids: string[];
  titles: string[];
}

/** The fields a formula names (`{id}` and `[title]`); nothing when it does not tokenize. */
export function formulaRefs(formula: string | null | undefined): FormulaRefs {
  const refs: FormulaRefs = { ids: [], titles: [] };
  if (!formula) return refs;
  try {
    for (const token of tokenize(formula)) {
      if (token.type === 'fieldId') refs.ids.push(token.value);
      else if (token.type === 'field') refs.titles.push(token.value);
    }
  } catch {
    // an invalid formula references nothing we can name
  }
  return refs;
}

/** Whether a formula names the field, by id or by title. */
export const formulaUses = (formula: string | null | undefined, field: { id: FieldId; columnTitle: string }): boolean => {
  const refs = formulaRefs(formula);
  return refs.ids.includes(keyOf(field.id)) || refs.titles.includes(field.columnTitle.trim());
};

/** `{old}` references replaced by `{new}` where `ids` maps them; the rest of the text is kept as written. */
export function rewriteFormulaIds(formula: string, ids: ReadonlyMap<string, number>): string {
  let tokens;
  try {
    tokens = tokenize(formula);
  } catch {
    return formula;
  }
  let out = formula;
  for (const token of [...tokens].reverse()) {
    if (token.type !== 'fieldId') continue;
    const next = ids.get(token.value);
    if (next === undefined) continue;
    // The token is `{value}`, written without spaces (the lexer's pattern).
    out = `${out.slice(0, token.pos)}{${next}}${out.slice(token.pos + token.value.length + 2)}`;
  }
  return out;
}

type TreeItem = DatasetFilterTreeParsed['conditions'][number];

/** Every item of a filter tree, nested groups included. */
export function treeItems(tree: DatasetFilterTreeParsed | null | undefined): TreeItem[] {
  if (!tree) return [];
  return [...tree.conditions, ...tree.filters.flatMap((g) => g.conditions)];
}

/** The field keys a filter tree reads. */
export const treeFieldKeys = (tree: DatasetFilterTreeParsed | null | undefined): string[] => [...new Set(treeItems(tree).map((i) => keyOf(i.cubeColumnId)))];

/** A copy of the tree with item fields mapped through `ids`. */
export function rewriteTreeIds(tree: DatasetFilterTreeParsed, ids: ReadonlyMap<string, number>): DatasetFilterTreeParsed {
  const item = (i: TreeItem): TreeItem => ({ ...i, cubeColumnId: ids.get(keyOf(i.cubeColumnId)) ?? i.cubeColumnId });
  return { ...tree, conditions: tree.conditions.map(item), filters: tree.filters.map((g) => ({ ...g, conditions: g.conditions.map(item) })) };
}

/** Whether the tree holds any condition. */
export const treeIsEmpty = (tree: DatasetFilterTreeParsed | null | undefined): boolean => treeItems(tree).length === 0;

/**
 * The tree the engine reads: conditions that take their values from a global parameter get
 * the value given for it, or are left out when none is given (`values` undefined: every
 * such condition is left out — the check at save). Items and groups left empty go too.
 */
export function resolveParams(tree: DatasetFilterTreeParsed, values?: Readonly<Record<string, unknown>>): FilterGroup {
  const item = (i: TreeItem): TreeItem | null => {
    const conditions = i.conditions.flatMap((c) => {
      if (!c.useParam) return [c];
      const given = values && c.paramKey ? values[c.paramKey] : undefined;
      const list = (Array.isArray(given) ? given : given === undefined || given === null || given === '' ? [] : [given]).filter(
        (v): v is string | number => typeof v === 'string' || typeof v === 'number',
      );
      return list.length > 0 ? [{ ...c, values: list }] : [];
    });
    return conditions.length > 0 ? { ...i, conditions } : null;
  };
  const keep = (items: TreeItem[]) => items.map(item).filter((i): i is TreeItem => i !== null);
  return {
    relation: tree.relation,
    conditions: keep(tree.conditions),
    filters: tree.filters.map((g) => ({ relation: g.relation, conditions: keep(g.conditions) })).filter((g) => g.conditions.length > 0),
  };
}

/** Comma text of ids ⇄ the ids. */
export const parseIdList = (text: string): number[] =>
  text
    .split(',')
    .map((s) => Number(s.trim()))
    .filter((n) => Number.isSafeInteger(n) && n > 0);
export const idListText = (ids: readonly number[]): string => ids.join(',');
