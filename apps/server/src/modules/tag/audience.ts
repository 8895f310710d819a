import { tagAudienceSaveSchema, tagMessages, tagRulesSchema, type TagAudienceSave, type TagRules } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { AppError, notFound } from '../../platform/http/errors.ts';
import { getAudienceDetail, materialiseAudience, saveAudienceRow } from '../audience/index.ts';
import type { Caller } from '../perm/index.ts';
import { streamBoundSql } from '../read/index.ts';
import { compileTagAudience, compileTagAudienceCount, KEY } from './rules.ts';
import { builtinSourceId, num, readStatement } from './warehouse.ts';

/**
 * The tag-driven audience (spec 3 §2 "Audience editor (tag-driven)", §3, §4, §5): its preview
 * (how many users the rules select) and its save, both read as the caller. The metadata row and
 * the member table are the audience module's (kind 'tag'); saving recomputes the members, and
 * with them the analysis the comparison page shows (spec 3 §4: updating re-computes analysis data).
 */

const TIMEOUT_MS = 10 * 60_000;

export async function previewTagAudience(ctx: AppContext, caller: Caller, rules: TagRules): Promise<{ size: number }> {
  const [row] = await readStatement(ctx, caller, (dialect) => compileTagAudienceCount(rules, dialect), 'rules');
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
  const rules = tagRulesSchema.safeParse(typeof detail.rules === 'string' ? JSON.parse(detail.rules) : detail.rules);
  if (!rules.success) throw new AppError(500, tagMessages.groupNotFound);
  const parsed = tagAudienceSaveSchema.parse({
    groupName: detail.groupName,
    groupUse: detail.groupUse === 1 ? 1 : 0,
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
  await previewTagAudience(ctx, caller, body.rules);
  const id = await saveAudienceRow(ctx, caller, {
    id: body.id ?? null,
    kind: 'tag',
    groupName: body.groupName,
    rules: body.rules,
    groupUse: body.groupUse,
    userGroupStatus: 1,
    startAnalyseDate: body.startAnalyseDate,
    endAnalyseDate: body.endAnalyseDate,
  });
  const sourceId = await builtinSourceId(ctx);
  const rows = await streamBoundSql(ctx, caller, sourceId, (dialect) => compileTagAudience(body.rules, dialect), { timeoutMs: TIMEOUT_MS, field: 'rules' });
  const phones = (async function* () {
    for await (const row of rows) yield [row[KEY] === null || row[KEY] === undefined ? null : String(row[KEY])];
  })();
  const { size } = await materialiseAudience(ctx, id, [{ name: 'phone', title: '手机号' }], phones);
  return { id, size };
}
