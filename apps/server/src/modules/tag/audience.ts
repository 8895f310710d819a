import { tagAudienceSaveSchema, tagMessages, tagRulesSchema, type TagAudienceSave, type TagRules } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { AppError, fieldError, notFound } from '../../platform/http/errors.ts';
import {
  audienceMemberSql,
  getAudienceDetail,
  materialiseAudienceSelect,
  recordComputation,
  registerAudienceComputer,
  saveAudienceRow,
} from '../audience/index.ts';
import { assertTablesUsable } from '../datasource/index.ts';
import type { Dialect } from '@shutu/query';
import type { Caller } from '../perm/index.ts';
import { checkBoundSql, streamBoundSql } from '../read/index.ts';
import { compileTagAudience, compileTagAudienceCount, KEY, RULE_TABLES } from './rules.ts';
import { builtinSourceId, num, readStatement } from './warehouse.ts';

/**
 * The tag-driven audience (spec 3 §2 "Audience editor (tag-driven)", §3, §4, §5): its preview
 * (how many users the rules select) and its save, both read as the caller. The metadata row and
 * the member table are the audience module's (kind 'tag'); saving recomputes the members, and
 * with them the analysis the comparison page shows (spec 3 §4: updating re-computes analysis data).
 */

const TIMEOUT_MS = 10 * 60_000;

/** Who reads the rules' statement, and within which imported audience's members (spec 3 §3 importId). */
interface Scope {
  reader: Caller;
  withinTable?: string;
}

async function scopeOf(ctx: AppContext, caller: Caller, rules: TagRules, importId: number | null | undefined): Promise<Scope> {
  if (!importId) return { reader: caller };
  const imported = await getAudienceDetail(ctx, caller, importId);
  if (imported.kind !== 'import') throw fieldError('importId', tagMessages.importKind);
  const members = await audienceMemberSql(ctx, caller, importId);
  if (!caller.isAdministrator) {
    const tables = [...new Set(rules.ruledetails.map((r) => RULE_TABLES[r.type]))];
    await assertTablesUsable(
      ctx,
      caller,
      members.datasourceId,
      tables.map((name) => ({ schema: null, name, quoted: false })),
    );
  }
  // The member table has no grants of its own: it is reached only through its audience, whose
  // visibility was checked above, as were the grants of the tables the rules read.
  return { reader: { userId: caller.userId, isAdministrator: true }, withinTable: members.table };
}

export async function previewTagAudience(ctx: AppContext, caller: Caller, rules: TagRules, importId?: number | null): Promise<{ size: number }> {
  const scope = await scopeOf(ctx, caller, rules, importId);
  const [row] = await readStatement(ctx, scope.reader, (dialect) => compileTagAudienceCount(rules, dialect, scope.withinTable), 'rules');
  return { size: num(row?.n) };
}

export interface TagAudienceView extends TagAudienceSave {
  id: number;
  size: number;
  status: string;
}

/** A saved tag-driven audience as the editor reloads it; 人群不存在 for an unknown id or another kind. */
export async function loadTagAudience(ctx: AppContext, caller: Caller, id: number): Promise<TagAudienceView> {
  const detail = await getAudienceDetail(ctx, caller, id);
  if (detail.kind !== 'tag') throw notFound(tagMessages.groupNotFound);
  const raw = (typeof detail.rules === 'string' ? JSON.parse(detail.rules) : detail.rules) as { importId?: unknown } | null;
  const rules = tagRulesSchema.safeParse(raw);
  if (!rules.success) throw new AppError(500, tagMessages.groupNotFound);
  const parsed = tagAudienceSaveSchema.parse({
    groupName: detail.groupName,
    groupUse: detail.groupUse === 1 ? 1 : 0,
    importId: typeof raw?.importId === 'number' ? raw.importId : null,
    defaultShow: detail.defaultShow === 1,
    requestFreq: [0, 1, 2, 3].includes(detail.requestFreq) ? detail.requestFreq : 0,
    isOnline: detail.isOnline === 2 ? 2 : 1,
    rules: rules.data,
    startAnalyseDate: detail.startAnalyseDate ?? rules.data.daterange[1],
    endAnalyseDate: detail.endAnalyseDate ?? rules.data.daterange[1],
  });
  return { ...parsed, id, size: detail.size ?? 0, status: detail.status };
}

/**
 * Saves (adds, or with `id` updates) and computes the audience: the rules are compiled and
 * checked before anything is written, so bad rules leave nothing half-saved.
 */
export async function saveTagAudience(ctx: AppContext, caller: Caller, body: TagAudienceSave): Promise<{ id: number; size: number }> {
  if (body.id) {
    const existing = await getAudienceDetail(ctx, caller, body.id);
    if (existing.kind !== 'tag') throw notFound(tagMessages.groupNotFound);
  }
  // Compile and check (rules, grants of the tables) first: a refusal writes nothing.
  await previewTagAudience(ctx, caller, body.rules, body.importId);
  const id = await saveAudienceRow(ctx, caller, {
    id: body.id ?? null,
    kind: 'tag',
    groupName: body.groupName,
    // The imported group it is restricted to is kept beside the rules (the row has no column for it).
    rules: { ...body.rules, importId: body.importId },
    groupUse: body.groupUse,
    requestFreq: body.requestFreq,
    defaultShow: body.defaultShow,
    isOnline: body.isOnline,
    userGroupStatus: 1,
    startAnalyseDate: body.startAnalyseDate,
    endAnalyseDate: body.endAnalyseDate,
  });
  const { size } = await recordComputation(ctx, id, () => computeTagMembers(ctx, caller, id, body.rules, body.importId));
  return { id, size };
}

/**
 * The members of the rules as `reader` sees them, into the audience's new member table: the
 * statement is checked by the read module (guard, table grants) and run by the warehouse itself
 * (INSERT … SELECT), or streamed where the engine cannot.
 */
async function computeTagMembers(ctx: AppContext, reader: Caller, id: number, rules: TagRules, importId: number | null | undefined) {
  const sourceId = await builtinSourceId(ctx);
  const scope = await scopeOf(ctx, reader, rules, importId);
  const bind = (dialect: Dialect) => {
    const rendered = compileTagAudience(rules, dialect, scope.withinTable);
    return { sql: rendered.sql, params: rendered.params };
  };
  const statement = await checkBoundSql(ctx, scope.reader, sourceId, bind, 'rules');
  return materialiseAudienceSelect(ctx, id, [{ name: 'phone', title: '手机号' }], { ...statement, columns: [KEY] }, async () => {
    const rows = await streamBoundSql(ctx, scope.reader, sourceId, bind, { timeoutMs: TIMEOUT_MS, field: 'rules' });
    return (async function* () {
      for await (const row of rows) yield [row[KEY] === null || row[KEY] === undefined ? null : String(row[KEY])];
    })();
  });
}

/** A scheduled refresh (or 刷新) of a tag-driven audience: its saved rules again, as its owner. */
export async function refreshTagAudience(ctx: AppContext, id: number, owner: Caller): Promise<{ size: number; durationMs: number }> {
  const saved = await loadTagAudience(ctx, owner, id);
  return computeTagMembers(ctx, owner, id, saved.rules, saved.importId);
}

// The audience module's jobs refresh tag-driven audiences on their schedule through this.
registerAudienceComputer('tag', refreshTagAudience);
