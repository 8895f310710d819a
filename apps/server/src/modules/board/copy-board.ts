import { boardMessages, BOARD_TITLE_MAX_LENGTH } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { notFound } from '../../platform/http/errors.ts';
import { invalidatePermissions, listGroupsOf, setGroupsOf, type Caller } from '../perm/index.ts';
import { requireViewableBoard } from './access.ts';
import { copiedChartValues } from './model.ts';
import { categoryExistsForShare, findCharts, insertBoard, replaceCharts } from './repo.ts';
import { requestThumbnail } from './thumbnail.ts';

/**
 * Copy (spec 1 §2.1 card icon "copy", 确定复制该报表?): anyone who may see a board may copy
 * it; the copy belongs to the copier. It is titled `<title>-副本` (the title shortened to
 * fit), stays in the same category, keeps the public status, the content, the thumbnail URL
 * (the same file) and the charts, and is granted to the same groups as the original.
 * It sorts first among unsorted boards (sort number 0, newest first). Returns its id.
 */
export async function copyBoard(ctx: AppContext, caller: Caller, id: number): Promise<number> {
  const source = await requireViewableBoard(ctx, caller, id);
  const suffix = boardMessages.copySuffix;
  const title = source.title.slice(0, BOARD_TITLE_MAX_LENGTH - suffix.length) + suffix;
  const groups = await listGroupsOf(ctx, source.kind, source.id);
  const copyId = await ctx.db.transaction().execute(async (trx) => {
    if (!(await categoryExistsForShare(trx, source.categoryId, source.kind))) throw notFound(boardMessages.categoryNotFound);
    const created = await insertBoard(trx, {
      kind: source.kind,
      title,
      categoryId: source.categoryId,
      content: source.content,
      backgroundUrl: source.backgroundUrl,
      publicStatus: source.publicStatus,
      createUserId: caller.userId,
    });
    await replaceCharts(trx, created, (await findCharts(trx, source.id)).map(copiedChartValues));
    if (groups.length > 0) await setGroupsOf(ctx, source.kind, created, groups, trx);
    return created;
  });
  if (groups.length > 0) invalidatePermissions(ctx);
  // Shows the original's image until its own render (under its new title) replaces it.
  await requestThumbnail(ctx, copyId);
  return copyId;
}
