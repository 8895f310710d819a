import { cmp, type Expr, type JoinClause, type TableRef } from './ast.ts';
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

/** FROM and JOIN clauses of the whole cube. */
export function cubeFrom(resolver: FieldResolver): { from: TableRef; joins: JoinClause[] } {
  const { model, dialect } = resolver;
  if (dialect && !dialect.capabilities.multipleJoins && model.joins.length > 1) throw queryError('model', 'joinsNotSupported');
  const ref = (alias: string): TableRef => {
    const t = model.tables.get(alias)!;
    return { k: 'table', schema: t.schema, name: t.name, alias: t.alias };
  };
  const joins = joinConditions(resolver).map(({ join, on }) => ({ type: join.type, table: ref(join.target), on }));
  return { from: ref(model.root.alias), joins };
}

/** Join check for the dataset editor (at confirm and at save): throws the warning, if any. */
export function checkJoins(resolver: FieldResolver): void {
  joinConditions(resolver);
}
