import type { TagRules } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import type { Caller } from '../perm/index.ts';
import { compileTagAudienceCount } from './rules.ts';
import { num, readStatement } from './warehouse.ts';

/**
 * The tag-driven audience (spec 3 §2 "Audience editor (tag-driven)", §3, §4, §5): its preview
 * (how many users the rules select) read as the caller, and its save through the audience module.
 */

export async function previewTagAudience(ctx: AppContext, caller: Caller, rules: TagRules): Promise<{ size: number }> {
  const [row] = await readStatement(ctx, caller, (dialect) => compileTagAudienceCount(rules, dialect), 'rules');
  return { size: num(row?.n) };
}
