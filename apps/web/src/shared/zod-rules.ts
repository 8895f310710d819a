import type { FormRule } from 'antd';

/**
 * antd Form rules read from a contract's zod schema, so a form states no limit of its own: the
 * schema the server parses with says what is required (and in which words), how long a text may
 * be, which pattern it follows and which numbers are allowed.
 *
 * Reads zod 4's internals (`_zod.def`): wrappers (`optional`, `nullable`, `default`, `pipe`, …)
 * make a field optional or are looked through; checks are `min_length`, `max_length`,
 * `length_equals`, `string_format` (`regex`, `email`), `greater_than`, `less_than`, and an
 * `overwrite` that trims (`.trim()`). Refinements (`.refine`) are functions and cannot be read:
 * a form keeps its own rule for those. A check without its own message gets antd's (localised).
 */

/** The part of a zod 4 schema this adapter reads; structural, so the web app needs no zod import. */
interface ZodLike {
  _zod: { def: ZodDef };
}
interface ZodDef {
  type: string;
  innerType?: ZodLike;
  in?: ZodLike;
  out?: ZodLike;
  checks?: readonly ZodCheckLike[];
  error?: ErrorFn;
}
interface ZodCheckLike {
  _zod: {
    def: {
      check: string;
      error?: ErrorFn;
      minimum?: number;
      maximum?: number;
      length?: number;
      value?: number | bigint;
      inclusive?: boolean;
      format?: string;
      pattern?: RegExp;
      tx?: (value: unknown) => unknown;
    };
  };
}
type ErrorFn = (issue: never) => unknown;

/** A zod object schema: `z.object({...})`, also after `.superRefine` or `.extend`. */
export interface ZodObjectLike {
  shape: Record<string, unknown>;
}

/** Which rules to return; passwords, for one, are checked as typed, not as the hash the contract parses. */
export type ZodRuleKind = 'required' | 'length' | 'pattern' | 'range';

export interface ZodRuleOptions {
  only?: readonly ZodRuleKind[];
}

/** Wrappers that allow a missing value. */
const OPTIONAL = new Set(['optional', 'nullable', 'default', 'prefault', 'catch']);
/** Wrappers looked through without changing whether the value is needed. */
const TRANSPARENT = new Set(['readonly', 'nonoptional']);

/** The check's own message, when it has one (`.max(50, '…')`, `z.string({ error: '…' })`). */
function messageOf(error: ErrorFn | undefined): string | undefined {
  if (!error) return undefined;
  try {
    const out = (error as (issue: unknown) => unknown)({ code: 'custom', input: undefined, path: [] });
    if (typeof out === 'string') return out;
    if (out && typeof out === 'object' && typeof (out as { message?: unknown }).message === 'string') return (out as { message: string }).message;
  } catch {
    // An error map that needs a real issue says nothing we can show in advance.
  }
  return undefined;
}

interface FieldFacts {
  base: ZodDef;
  optional: boolean;
  checks: ZodCheckLike[];
}

/** Looks through wrappers and pipes to the base schema, collecting checks on the way. */
function factsOf(schema: ZodLike): FieldFacts {
  let current: ZodLike | undefined = schema;
  let optional = false;
  const checks: ZodCheckLike[] = [];
  for (let depth = 0; current && depth < 20; depth += 1) {
    const def: ZodDef = current._zod.def;
    checks.push(...(def.checks ?? []));
    if (OPTIONAL.has(def.type)) {
      optional = true;
      current = def.innerType;
    } else if (def.type === 'nonoptional') {
      optional = false;
      current = def.innerType;
    } else if (TRANSPARENT.has(def.type)) {
      current = def.innerType;
    } else if (def.type === 'pipe') {
      // z.preprocess(fn, schema) is a pipe from a transform: the schema that checks is its out.
      current = def.in?._zod.def.type === 'transform' ? def.out : def.in;
    } else {
      return { base: def, optional, checks };
    }
  }
  throw new Error('zodRules: no base schema found');
}

const trim = (value: unknown) => (typeof value === 'string' ? value.trim() : value);

/** The rules of `schema.shape[field]`, in the order required, length, pattern, range. */
export function zodRules(schema: ZodObjectLike, field: string, options: ZodRuleOptions = {}): FormRule[] {
  const fieldSchema = schema.shape[field] as ZodLike | undefined;
  if (!fieldSchema?._zod) throw new Error(`zodRules: the schema has no field ${field}`);
  const { base, optional, checks } = factsOf(fieldSchema);
  const want = (kind: ZodRuleKind) => !options.only || options.only.includes(kind);
  const defs = checks.map((c) => c._zod.def);
  const isString = base.type === 'string';
  const trims = isString && defs.some((d) => d.check === 'overwrite' && d.tx?.(' x ') === 'x');
  // What the server measures: the trimmed text when the schema trims.
  const measure = trims ? { transform: trim } : {};
  const integer = defs.some((d) => d.check === 'number_format' && (d.format === 'safeint' || d.format === 'int32' || d.format === 'uint32'));
  const rules: FormRule[] = [];

  const minLength = defs.find((d) => d.check === 'min_length');
  if (want('required') && !optional) {
    const message = (isString ? messageOf(minLength?.error) : undefined) ?? messageOf(base.error);
    rules.push({ required: true, ...(trims ? { whitespace: true } : {}), ...(message ? { message } : {}) });
  }
  for (const d of defs) {
    const message = messageOf(d.error);
    const withMessage = message ? { message } : {};
    if (want('length') && d.check === 'min_length' && d.minimum !== undefined && (d.minimum > 1 || optional)) {
      rules.push({ min: d.minimum, ...measure, ...withMessage });
    } else if (want('length') && d.check === 'max_length' && d.maximum !== undefined) {
      rules.push({ max: d.maximum, ...measure, ...withMessage });
    } else if (want('length') && d.check === 'length_equals' && d.length !== undefined) {
      rules.push({ len: d.length, ...measure, ...withMessage });
    } else if (want('pattern') && d.check === 'string_format' && d.format === 'email') {
      rules.push({ type: 'email', ...measure, ...withMessage });
    } else if (want('pattern') && d.check === 'string_format' && d.pattern) {
      rules.push({ pattern: d.pattern, ...measure, ...withMessage });
    } else if (want('range') && (d.check === 'greater_than' || d.check === 'less_than') && d.value !== undefined) {
      const above = d.check === 'greater_than';
      let bound = Number(d.value);
      if (!d.inclusive && integer) bound += above ? 1 : -1; // positive() on an integer: at least 1
      if (d.inclusive || integer) {
        rules.push({ type: 'number', ...(above ? { min: bound } : { max: bound }), ...withMessage });
      } else {
        const text = message ?? (above ? `须大于${bound}` : `须小于${bound}`);
        rules.push({
          validator: (_rule, value: unknown) =>
            typeof value !== 'number' || (above ? value > bound : value < bound) ? Promise.resolve() : Promise.reject(new Error(text)),
        });
      }
    }
  }
  return rules;
}
