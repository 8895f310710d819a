import { CUBE_PREVIEW_TIMEOUT_MS, type CubeQueryRequestParsed } from '@shutu/contracts';
import { groupPlans, type CompiledQuery, type CubePlan, type GroupedStatement } from '@shutu/query';
import type { AppContext } from '../../context.ts';
import { cachedRead, type SharedRows } from './cache.ts';
import { planWithPermissions, previewLimit } from './compile.ts';
import { readPage, type OpenRead } from './open.ts';
import { readRows } from './run.ts';

/**
 * Several reads at once (a board's charts, issue 26): the reads of one data source whose
 * permission-applied plans read the same rows (same tables, joins and WHERE — the subject's
 * row filters, the links and the dataset's global filter are all in it) are answered by one
 * grouped statement (packages/query grouped.ts), its rows split back per read. The rest run as
 * readPage does, one statement each. Each read keeps its own plan, so its columns, its
 * excluded columns (refused when compiling, as for a single read) and its field dictionary are
 * its subject's; the grouped statement is shared through the read cache like any answer.
 */

export interface PageRead {
  read: OpenRead;
  request: CubeQueryRequestParsed;
}

export type PageAnswer = Awaited<ReturnType<typeof readPage>>;

/** One promise per read, in input order: a read's failure (a refusal, an engine error) rejects its own promise only. */
export function readPages(ctx: AppContext, reads: readonly PageRead[], options: { distinctOnly?: boolean } = {}): Promise<PageAnswer>[] {
  const answers: (Promise<PageAnswer> | null)[] = reads.map(() => null);
  /** Per data source, the reads that planned, with their plans. */
  const bySource = new Map<number, { index: number; plan: CubePlan }[]>();
  reads.forEach(({ read, request }, index) => {
    let plan: CubePlan;
    try {
      // The row limit readPage reads with (compilePreview), in the statement itself.
      plan = planWithPermissions(
        read.dialect,
        read.model,
        { ...request, limit: previewLimit(request.limit) },
        read.permissions,
        read.params,
        read.now,
        read.timeZoneOffsetMinutes,
        read.derivedTables,
      );
    } catch (error) {
      answers[index] = Promise.reject(error);
      return;
    }
    const source = read.cube.datasourceId;
    bySource.set(source, [...(bySource.get(source) ?? []), { index, plan }]);
  });
  for (const [source, planned] of bySource) {
    const { groups, alone } = groupPlans(
      planned.map((p) => p.plan),
      options,
    );
    for (const at of alone) {
      const index = planned[at]!.index;
      answers[index] = readPage(ctx, reads[index]!.read, reads[index]!.request);
    }
    for (const group of groups) {
      const indexes = group.members.map((at) => planned[at]!.index);
      const rows = runGrouped(ctx, source, reads[indexes[0]!]!.read, group);
      indexes.forEach((index, m) => {
        const fields: CompiledQuery['fields'] = planned[group.members[m]!]!.plan.fields;
        answers[index] = rows.then(({ value, shared, split }) => ({
          answer: { value: { dataList: split[m]!, total: null, elapsedMs: value.elapsedMs }, shared },
          fields,
        }));
      });
    }
  }
  return answers.map((a) => a!);
}

/** The grouped statement's rows, through the read cache (keyed by its text and bound values as any read), split per member. */
async function runGrouped(ctx: AppContext, source: number, read: OpenRead, group: GroupedStatement) {
  const { value, shared } = await cachedRead(
    ctx,
    { id: source, driver: read.driver },
    { sql: group.sql, params: group.params, count: null },
    async (): Promise<SharedRows> => {
      const started = performance.now();
      // Every member's rows are limited in the statement; the whole answer is read. The statement
      // does the work of all its members, so it gets their time together: with one member's 30 s
      // it timed out at 10M orders on a busy box, and every chart then asked again alone.
      const timeoutMs = CUBE_PREVIEW_TIMEOUT_MS * group.members.length;
      const dataList = await readRows(read.driver, group, Number.POSITIVE_INFINITY, { timeoutMs });
      return { dataList, total: null, elapsedMs: Math.round(performance.now() - started) };
    },
  );
  return { value, shared, split: group.split(value.dataList) };
}
