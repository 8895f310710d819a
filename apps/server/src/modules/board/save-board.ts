import {
  boardMessages,
  boardSaveMessages,
  formatMessage,
  STATIC_CHART_TYPES,
  type BoardKind,
  type BoardSaveParsed,
  type ChartSaveParsed,
} from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { fieldError, notFound } from '../../platform/http/errors.ts';
import { requireViewable, keyOf, listFields } from '../dataset/index.ts';
import { checkGrantableGroups, invalidatePermissions, setGroupsOf, PUBLIC_STATUS, type Caller } from '../perm/index.ts';
import { requireEditableBoard } from './access.ts';
import { assertNoHiddenColumns, fieldKeysReadBy } from './hidden-columns.ts';
import { chartValues } from './model.ts';
import { categoryExistsForShare, findBoardForUpdate, findCategory, insertBoard, replaceCharts, updateBoard } from './repo.ts';
import { requestThumbnail } from './thumbnail.ts';

/**
 * Editor save (spec 1 §7 "Reports"): adds a board, or with `id` updates it, its charts
 * replaced by the saved ones in one transaction. Checked before anything is written:
 * the category (of the board's kind), chart keys unique, every data chart bound to a
 * dataset the caller may read and naming only that dataset's fields, none of them hidden
 * from the caller (hidden-columns.ts), links and layout
 * entries naming charts of the board, and on add the groups (the caller's own unless
 * administrator). Returns the board's id.
 */
export async function saveBoard(ctx: AppContext, caller: Caller, body: BoardSaveParsed): Promise<number> {
  const id = body.id ?? null;
  const existing = id === null ? null : await requireEditableBoard(ctx, caller, id);
  const kind: BoardKind = existing?.kind ?? body.kind;
  await requireCategoryOfKind(ctx, body.categoryId, kind);
  await checkCharts(ctx, caller, body.charts);
  const keys = new Set(body.charts.map((c) => c.key));
  const orphan = body.content.layout.find((item) => !keys.has(item.i));
  if (orphan) throw fieldError('content.layout', formatMessage(boardSaveMessages.layoutChartUnknown, { key: orphan.i }));

  const publicStatus = body.publicStatus ?? PUBLIC_STATUS.public;
  const groups = existing || publicStatus === PUBLIC_STATUS.public ? [] : await checkGrantableGroups(ctx, caller, body.dataPermIdList);
  const charts = body.charts.map(chartValues);
  const content = JSON.stringify(body.content);

  const boardId = await ctx.db.transaction().execute(async (trx) => {
    if (existing && !(await findBoardForUpdate(trx, existing.id))) throw notFound(boardMessages.boardNotFound);
    if (!(await categoryExistsForShare(trx, body.categoryId, kind))) throw fieldError('categoryId', boardMessages.categoryNotFound);
    if (existing) {
      await updateBoard(trx, existing.id, { title: body.title, categoryId: body.categoryId, content });
      await replaceCharts(trx, existing.id, charts);
      return existing.id;
    }
    const created = await insertBoard(trx, { kind, title: body.title, categoryId: body.categoryId, content, publicStatus, createUserId: caller.userId });
    await replaceCharts(trx, created, charts);
    if (groups.length > 0) await setGroupsOf(ctx, kind, created, groups, trx);
    return created;
  });
  if (groups.length > 0) invalidatePermissions(ctx);
  await requestThumbnail(ctx, boardId);
  return boardId;
}

/** The category must exist and be of the board's kind (400 分类不存在). */
export async function requireCategoryOfKind(ctx: AppContext, categoryId: number, kind: BoardKind): Promise<void> {
  const category = await findCategory(ctx.db, categoryId);
  if (!category || category.kind !== kind) throw fieldError('categoryId', boardMessages.categoryNotFound);
}

const chartLabel = (chart: ChartSaveParsed) => chart.title || chart.key;

/** Keys unique; data charts on a readable dataset with at least one field, every field and link known. */
async function checkCharts(ctx: AppContext, caller: Caller, charts: readonly ChartSaveParsed[]): Promise<void> {
  const keys = new Set<string>();
  for (const chart of charts) {
    if (keys.has(chart.key)) throw fieldError('charts', formatMessage(boardMessages.chartKeyDuplicate, { key: chart.key }));
    keys.add(chart.key);
  }
  const fieldsOf = new Map<number, Promise<Set<string>>>();
  const datasetFields = (cubeId: number) => {
    let fields = fieldsOf.get(cubeId);
    if (!fields) {
      fields = requireViewable(ctx, caller, cubeId).then(async () => new Set((await listFields(ctx.db, cubeId)).map((f) => keyOf(f.id))));
      fieldsOf.set(cubeId, fields);
    }
    return fields;
  };
  for (const chart of charts) {
    const title = chartLabel(chart);
    for (const link of chart.ext.filterList) {
      if (!keys.has(link.linkFrom)) throw fieldError('charts', formatMessage(boardSaveMessages.chartLinkUnknown, { title, key: link.linkFrom }));
    }
    if (STATIC_CHART_TYPES.includes(chart.name)) continue;
    const config = chart.dataconfig;
    if (!config) throw fieldError('charts', formatMessage(boardMessages.chartNoDataset, { title }));
    if (config.rowParamList.length + config.columnParamList.length + config.indexParamList.length === 0) {
      throw fieldError('charts', formatMessage(boardMessages.chartNeedsFields, { title }));
    }
    const known = await datasetFields(config.cubeId);
    const unknown = fieldKeysReadBy(chart).find((key) => !known.has(key));
    if (unknown !== undefined) throw fieldError('charts', formatMessage(boardMessages.chartFieldUnknown, { title, id: unknown }));
  }
  // A filter's mapped fields (board-wide filters) must be fields of the dataset they name; a
  // mapping of a dataset no chart of the board reads any more is never applied and not checked.
  const boardCubes = new Set(charts.flatMap((c) => (c.dataconfig ? [c.dataconfig.cubeId] : [])));
  for (const chart of charts) {
    for (const [cubeId, fieldId] of Object.entries(chart.ext.autoLinkFields ?? {})) {
      if (!boardCubes.has(Number(cubeId))) continue;
      if (!(await datasetFields(Number(cubeId))).has(keyOf(fieldId))) {
        throw fieldError('charts', formatMessage(boardMessages.chartFieldUnknown, { title: chartLabel(chart), id: fieldId }));
      }
    }
  }
  await assertNoHiddenColumns(ctx, caller, charts);
}
