import type { FieldId, SetOperation } from '@shutu/contracts';
import { alias, select, type Query, type SelectQuery, type SetOperator } from './ast.ts';
import type { CubePlan } from './compiler.ts';
import type { Dialect } from './dialects/types.ts';
import { queryError } from './errors.ts';
import { fieldKey } from './model.ts';
import { renderQuery, type RenderedSql } from './render.ts';

/** One audience rule: a planned cube request, its key field, and how it joins the rules before it. */
export interface SetOperand {
  plan: CubePlan;
  /** The key column (a dimension of the request), e.g. the user's phone number. */
  keyFieldId: FieldId;
  /** Ignored for the first operand. */
  op?: SetOperation;
}

export interface CompiledSetOperation extends RenderedSql {
  /** The one result column. */
  keyAlias: string;
  count: RenderedSql | null;
}

export const SET_KEY_ALIAS = 'k';
const k = () => alias(SET_KEY_ALIAS);
const NATIVE: Record<SetOperation, SetOperator> = { intersect: 'INTERSECT', union: 'UNION', except: 'EXCEPT' };

/** `SELECT DISTINCT key AS k FROM (request) WHERE key IS NOT NULL`: keys never include NULL. */
function keyQuery(operand: SetOperand, index: number): SelectQuery {
  const key = fieldKey(operand.keyFieldId);
  const column = operand.plan.fields.find((f) => f.kind === 'dimension' && fieldKey(f.fieldId) === key && f.granularity === null);
  if (!column) throw queryError('request', 'keyFieldMissing');
  // A read of the key alone grouped by it (a dataset rule's key read) already gives each key once:
  // another DISTINCT over it would be a second aggregation of the same rows.
  const q = operand.plan.query;
  const grouped =
    q.k === 'select' && !q.distinct && q.columns.length === 1 && q.columns[0]!.alias === column.alias && q.groupBy.length === 1 && q.groupBy[0] === 1;
  return select({
    distinct: !grouped,
    columns: [{ expr: alias(column.alias), alias: SET_KEY_ALIAS }],
    from: { k: 'subquery', query: operand.plan.query, alias: `o${index + 1}` },
    where: { k: 'isNull', arg: alias(column.alias), negated: true },
  });
}

/**
 * Intersection, union and difference of one key column across several requests, folded
 * left to right: ((r1 op2 r2) op3 r3) .... With the setOperations capability this is
 * INTERSECT / UNION / EXCEPT; otherwise IN, NOT IN and UNION ALL + DISTINCT, which give
 * the same rows because keys are distinct and never NULL.
 */
export function planSetOperation(operands: readonly SetOperand[]): { dialect: Dialect; query: Query } {
  const first = operands[0];
  if (!first) throw queryError('request', 'keyFieldMissing');
  const dialect = first.plan.dialect;
  if (operands.some((o) => o.plan.dialect !== dialect)) throw new Error('set operation: every request must be planned for the same dialect');
  const native = dialect.capabilities.setOperations;

  let acc: SelectQuery = keyQuery(first, 0);
  operands.slice(1).forEach((operand, i) => {
    const right = keyQuery(operand, i + 1);
    const op = operand.op ?? 'intersect';
    const as = `s${i + 1}`;
    if (native) {
      acc = select({
        columns: [{ expr: k(), alias: SET_KEY_ALIAS }],
        from: { k: 'subquery', query: { k: 'setop', op: NATIVE[op], left: acc, right }, alias: as },
      });
    } else if (op === 'union') {
      acc = select({
        distinct: true,
        columns: [{ expr: k(), alias: SET_KEY_ALIAS }],
        from: { k: 'subquery', query: { k: 'setop', op: 'UNION ALL', left: acc, right }, alias: as },
      });
    } else {
      acc = select({
        distinct: true,
        columns: [{ expr: k(), alias: SET_KEY_ALIAS }],
        from: { k: 'subquery', query: acc, alias: as },
        where: { k: 'inQuery', arg: k(), query: right, negated: op === 'except' },
      });
    }
  });
  return { dialect, query: acc };
}

export function compileSetOperation(operands: readonly SetOperand[], options: { withTotal?: boolean } = {}): CompiledSetOperation {
  const { dialect, query } = planSetOperation(operands);
  const count = options.withTotal
    ? renderQuery(select({ columns: [{ expr: { k: 'agg', fn: 'COUNT', arg: null }, alias: 'total' }], from: { k: 'subquery', query, alias: 'a' } }), dialect)
    : null;
  return { ...renderQuery(query, dialect), keyAlias: SET_KEY_ALIAS, count };
}
