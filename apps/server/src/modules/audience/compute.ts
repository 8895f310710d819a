import { audienceMessages, cubeQueryRequestSchema, type AudienceMemberColumn, type AudienceRuleParsed, type FieldId } from '@shutu/contracts';
import { compileMembers, type CompiledMembers, type MemberOperand } from '@shutu/query';
import type { AppContext } from '../../context.ts';
import { badRequest, notFound } from '../../platform/http/errors.ts';
import type { Caller } from '../perm/index.ts';
import { memberWarehouse, openRead, planRead, refusing, type OpenRead } from '../read/index.ts';
import { findAudience } from './repo.ts';

/**
 * One audience's member statement (docs/audiences.md "Computation"): every dataset rule is
 * opened by the read module for the audience's OWNER (their row filters, filter sets and hidden
 * columns: an audience never holds a row its owner could not see), planned as a key plan (key +
 * where + having) and, with output fields, an output plan; @shutu/query folds them with
 * INTERSECT / UNION / EXCEPT or the engine's equivalent into one statement for the source.
 */

export interface CompiledAudience {
  /** The first dataset's read: its driver runs the statement (every dataset is on its source). */
  read: OpenRead;
  datasourceId: number;
  compiled: CompiledMembers;
  columns: AudienceMemberColumn[];
}

const fmt = (template: string, values: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? '');
const sameField = (a: FieldId, b: FieldId) => String(a) === String(b);

/** The rules as the editor sends them: every message of spec 3 §5 "Audience save" before any read. */
export function checkRules(rules: readonly AudienceRuleParsed[], mode: 'save' | 'preview'): void {
  if (rules.length === 0) throw badRequest(audienceMessages.rulesRequired);
  if (!rules.some((r) => r.cubeId)) throw badRequest(audienceMessages.rulesRequired);
  const seen = new Set<string>();
  for (const rule of rules) {
    const key = rule.cubeId ? `c${rule.cubeId}` : rule.audienceId ? `a${rule.audienceId}` : null;
    if (!key) throw badRequest(audienceMessages.rulesRequired);
    if (seen.has(key)) throw badRequest(audienceMessages.cubeUsedTwice);
    seen.add(key);
    if (rule.cubeId && (rule.phoneField === null || rule.phoneField === undefined || rule.phoneField === ''))
      throw badRequest(
        mode === 'preview' ? audienceMessages.previewKeyRequired : fmt(audienceMessages.keyFieldRequired, { cube: rule.cubeName || String(rule.cubeId) }),
      );
    if (rule.columns.length > 5) throw badRequest(audienceMessages.tooManyOutputs);
  }
}

export async function compileAudience(
  ctx: AppContext,
  owner: Caller,
  rules: readonly AudienceRuleParsed[],
  selfId: number | null,
  mode: 'save' | 'preview',
): Promise<CompiledAudience> {
  checkRules(rules, mode);
  const operands: MemberOperand[] = [];
  const columns: AudienceMemberColumn[] = [];
  let first: OpenRead | null = null;
  let keyTitle: string | null = null;
  const warehouse = await memberWarehouse(ctx);

  for (const rule of rules) {
    const op = rule.connectType === 'or' ? 'union' : rule.connectType === 'del' ? 'except' : 'intersect';
    if (rule.audienceId) {
      if (rule.audienceId === selfId) throw badRequest(audienceMessages.audienceRuleSelf);
      const other = await findAudience(ctx.db, rule.audienceId);
      if (!other || (!owner.isAdministrator && other.createUserId !== owner.userId)) throw notFound(audienceMessages.notFound);
      if (other.status !== 'done' || !other.memberTable) throw badRequest(audienceMessages.audienceRuleKind);
      operands.push({ kind: 'table', op, table: { schema: null, name: other.memberTable }, keyColumn: 'phone' });
      continue;
    }
    const opened = await openRead(ctx, { viewer: owner }, rule.cubeId!, undefined);
    const cubeName = opened.cube.cubeName;
    if (first && opened.cube.datasourceId !== first.cube.datasourceId) throw badRequest(audienceMessages.mixedSources);
    // One dialect object for the whole statement (a driver may hand out a new one per call).
    const read: OpenRead = first ? { ...opened, dialect: first.dialect } : opened;
    first ??= read;
    const known = (id: FieldId) => read.fields.some((f) => sameField(f.id, id));
    for (const id of [rule.phoneField!, ...rule.columns]) if (!known(id)) throw badRequest(fmt(audienceMessages.fieldNotInCube, { cube: cubeName }));
    const keyPlan = planRead(
      read,
      refusing(() => cubeQueryRequestSchema.parse({ dimensions: [{ fieldId: rule.phoneField }], where: rule.filter ?? null, having: rule.having ?? null })),
    );
    const outputPlan =
      rule.columns.length > 0 && (operands.length === 0 || op !== 'except')
        ? planRead(
            read,
            refusing(() =>
              cubeQueryRequestSchema.parse({ dimensions: [rule.phoneField, ...rule.columns].map((fieldId) => ({ fieldId })), where: rule.filter ?? null }),
            ),
          )
        : null;
    keyTitle ??= read.fields.find((f) => sameField(f.id, rule.phoneField!))?.columnTitle ?? null;
    if (outputPlan) for (const f of outputPlan.fields.slice(1)) columns.push({ name: `c${columns.length + 1}`, title: `${f.title}` });
    operands.push({ kind: 'plan', op, keyPlan, keyFieldId: rule.phoneField!, outputPlan });
  }
  const read = first!;
  if (operands.some((o) => o.kind === 'table') && read.cube.datasourceId !== warehouse.datasourceId) throw badRequest(audienceMessages.importNeedsWarehouse);
  const compiled = refusing(() => compileMembers(read.dialect, operands));
  return { read, datasourceId: read.cube.datasourceId, compiled, columns: [{ name: 'phone', title: keyTitle ?? '手机号' }, ...columns] };
}
