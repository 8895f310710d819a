import { cmp, type Expr, type FromItem, type JoinClause } from './ast.ts';
import { queryError } from './errors.ts';
import type { FieldResolver } from './fields.ts';
import { columnKey, type ModelJoin } from './model.ts';

interface KeySide {
  expr: Expr;
  type: string;
  name: string;
}

/** One side of a join key: a column of `alias`, or a formula over tables in `allowed`. */
function keySide(resolver: FieldResolver, side: { text: string; formula: boolean }, alias: string, allowed: ReadonlySet<string>): KeySide {
  const { model } = resolver;
  if (!side.formula) {
    const field = model.byColumn.get(columnKey(alias, side.text));
    if (!field) throw queryError('join', 'joinKeyUnknown', { name: side.text });
    return { expr: resolver.lower(field).expr, type: field.viewDataType, name: field.title };
  }
  const lowered = resolver.formula(side.text);
  if (lowered.aggregate) throw queryError('join', 'joinKeyTable', { name: side.text });
  for (const key of lowered.deps) {
    const dep = model.byKey.get(key);
    if (dep?.attr === 'NORMAL' && !allowed.has(dep.tableAlias!)) throw queryError('join', 'joinKeyTable', { name: side.text });
  }
  return { expr: lowered.expr, type: lowered.type, name: side.text };
}

/**
 * The ON condition of every join, in tree order. A key pair whose two sides have different
 * data types is refused with the editor's warning (spec 2 §5 "Dataset").
 */
export function joinConditions(resolver: FieldResolver): { join: ModelJoin; on: Expr }[] {
  const { model } = resolver;
  const inTree = new Set([model.root.alias]);
  return model.joins.map((join) => {
    const before = new Set(inTree);
    const onlyTarget = new Set([join.target]);
    const conditions = join.keys.map((key) => {
      const source = keySide(resolver, key.source, join.source, before);
      const target = keySide(resolver, key.target, join.target, onlyTarget);
      if (source.type !== 'ANY' && target.type !== 'ANY' && source.type !== target.type) {
        throw queryError('join', 'joinKeyTypeMismatch', { source: source.name, target: target.name });
      }
      return cmp('=', source.expr, target.expr);
    });
    inTree.add(join.target);
    return { join, on: conditions.length === 1 ? conditions[0]! : { k: 'and', items: conditions } };
  });
}

/** A lookup of saved views by name, ignoring case (view names are unique per source ignoring case). */
function viewLookup(derivedTables: ReadonlyMap<string, string> | undefined): (name: string) => string | undefined {
  if (!derivedTables || derivedTables.size === 0) return () => undefined;
  const byName = new Map([...derivedTables].map(([name, sql]) => [name.toLowerCase(), sql]));
  return (name) => byName.get(name.toLowerCase());
}

/** FROM and JOIN clauses of the whole cube; a table that is a saved SQL view is a derived table. */
export function cubeFrom(resolver: FieldResolver, derivedTables?: ReadonlyMap<string, string>): { from: FromItem; joins: JoinClause[] } {
  const { model, dialect } = resolver;
  if (dialect && !dialect.capabilities.multipleJoins && model.joins.length > 1) throw queryError('model', 'joinsNotSupported');
  const viewSql = viewLookup(derivedTables);
  const ref = (alias: string): FromItem => {
    const t = model.tables.get(alias)!;
    const sql = t.schema ? undefined : viewSql(t.name);
    if (sql !== undefined) return { k: 'derived', sql, alias: t.alias };
    return { k: 'table', schema: t.schema, name: t.name, alias: t.alias };
  };
  const joins = joinConditions(resolver).map(({ join, on }) => ({ type: join.type, table: ref(join.target), on }));
  return { from: ref(model.root.alias), joins };
}

/** Join check for the dataset editor (at confirm and at save): throws the warning, if any. */
export function checkJoins(resolver: FieldResolver): void {
  joinConditions(resolver);
}
