import type { AggregationType, CubeModelInput, FieldId } from '@shutu/contracts';
import { col, type Expr, type SqlType } from './ast.ts';
import { getDialect } from './dialects/index.ts';
import type { Dialect, QueryDialect } from './dialects/types.ts';
import { formulaError, QueryError, queryError } from './errors.ts';
import { compileFormula, formulaHasAggregation as syntacticAggregation, type FormulaParams, type FormulaScope, type Lowered } from './formula/compile.ts';
import { buildModel, fieldKey, type CubeModel, type ModelField } from './model.ts';

/**
 * Turns fields into expressions: a physical field is its quoted column, a computed field
 * its parsed formula with references inlined. Memoised per resolver (one per request and
 * dialect); reference cycles are refused.
 */
export class FieldResolver {
  private readonly memo = new Map<string, Lowered>();
  private readonly visiting = new Set<string>();

  constructor(
    readonly model: CubeModel,
    readonly dialect: Dialect | null,
    /** Global parameter values the formulas' `${key}` references read (none: NULL). */
    readonly params: FormulaParams = {},
  ) {}

  lower(field: ModelField): Lowered {
    const cached = this.memo.get(field.key);
    if (cached) return cached;
    let lowered: Lowered;
    if (field.attr === 'NORMAL') {
      lowered = { expr: col(field.tableAlias!, field.columnName!), type: field.viewDataType, aggregate: false, deps: new Set([field.key]) };
    } else {
      if (this.visiting.has(field.key)) throw queryError('formula', 'formulaCycle', { name: field.title });
      this.visiting.add(field.key);
      try {
        const inner = compileFormula(field.formula!, this.scope());
        lowered = { ...inner, deps: new Set([...inner.deps, field.key]) };
      } catch (e) {
        if (e instanceof QueryError && e.kind === 'formula' && e.field === null && e.position !== null) {
          throw new QueryError('formula', `计算字段【${field.title}】${e.message}`, e.position, field.title);
        }
        throw e;
      } finally {
        this.visiting.delete(field.key);
      }
    }
    this.memo.set(field.key, lowered);
    return lowered;
  }

  /** A formula that is not a field of its own (a join key, the formula being edited). */
  formula(text: string): Lowered {
    return compileFormula(text, this.scope());
  }

  private scope(): FormulaScope {
    return {
      dialect: this.dialect,
      params: this.params,
      field: (by, key, pos) => {
        const field = by === 'title' ? this.model.byTitle.get(key) : this.model.byKey.get(key);
        if (!field) throw formulaError(pos, `字段${by === 'title' ? `[${key}]` : `{${key}}`}不存在`);
        return { field, lowered: this.lower(field) };
      },
    };
  }
}

/**
 * Whether a formula aggregates (spec 2 §7 "check whether a formula has aggregation").
 * Without a model only the formula's own functions count; with one, referenced computed
 * fields that aggregate count too. Throws a positioned QueryError for a malformed formula.
 */
export function formulaHasAggregation(formula: string, model?: CubeModel | CubeModelInput): boolean {
  if (!model) return syntacticAggregation(formula);
  const resolver = new FieldResolver(buildModel(model), null);
  return resolver.formula(formula).aggregate;
}

/** Checks a computed-field formula against the model (and the dialect's functions, if given). */
export function checkFormula(formula: string, model: CubeModel | CubeModelInput, dialect: Dialect | QueryDialect | null = null): Lowered {
  return new FieldResolver(buildModel(model), dialect === null ? null : getDialect(dialect)).formula(formula);
}

export function lowerField(resolver: FieldResolver, id: FieldId): { field: ModelField; lowered: Lowered } {
  const field = resolver.model.byKey.get(fieldKey(id));
  if (!field) throw queryError('request', 'fieldUnknown', { name: String(id).slice(0, 64) });
  return { field, lowered: resolver.lower(field) };
}

/**
 * A field as a measure: a formula that aggregates is used as it is; anything else gets
 * `aggregation` (default: the field's aggregationType). SUM and AVG need numbers.
 */
export function measureExpr(
  field: ModelField,
  lowered: Lowered,
  aggregation: AggregationType | null,
): { expr: Expr; type: SqlType; aggregation: AggregationType | null } {
  const type: SqlType = field.attr === 'VIRTUAL' ? field.viewDataType : lowered.type;
  if (lowered.aggregate) return { expr: lowered.expr, type, aggregation: null };
  const fn = aggregation ?? field.aggregationType;
  if ((fn === 'SUM' || fn === 'AVG') && type !== 'NUMBER') throw queryError('request', 'aggregateNeedsNumber', { name: field.title });
  return { expr: { k: 'agg', fn, arg: lowered.expr }, type: fn === 'MAX' || fn === 'MIN' ? type : 'NUMBER', aggregation: fn };
}
