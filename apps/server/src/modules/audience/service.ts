import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  audienceMessages,
  AUDIENCE_PREVIEW_ROWS,
  AUDIENCE_REFRESH_JOB,
  type audienceBodySchema,
  type audienceListQuerySchema,
  type AudienceCategory,
  type AudienceDetail,
  type AudienceImportResult,
  type AudienceListItem,
  type AudienceRefreshItem,
  type AudienceMemberColumn,
  type AudiencePreviewResult,
  type AudienceRuleParsed,
  type Page,
} from '@shutu/contracts';
import type { LoadColumn, LoadRow, Row } from '@shutu/connectors';
import { MEMBER_TOTAL_COLUMN } from '@shutu/query';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError, badRequest, conflict, forbidden, isUniqueViolation, notFound } from '../../platform/http/errors.ts';
import type { Caller } from '../perm/index.ts';
import {
  loadMemberCsv,
  loadMemberSelect,
  loadMemberTable,
  memberTableQuery,
  memberWarehouse,
  readCount,
  readRows,
  streamMemberTable,
  streamRows,
} from '../read/index.ts';
import { compileAudience } from './compute.ts';
import { discardMemberTable, reserveMemberTable, settleMemberTable } from './member-gc.ts';
import { parsePhoneFile } from './phones.ts';
import * as repo from './repo.ts';
import { oneAtATime } from './serial.ts';

/** Audiences: the rules of who may see and change them, computation, member tables (docs/audiences.md). */

/** A refresh's statement may run this long (a scheduled job, not a request). */
export const REFRESH_TIMEOUT_MS = 30 * 60_000;
const PREVIEW_TIMEOUT_MS = 60_000;

type Body = z.output<typeof audienceBodySchema>;
type ListQuery = z.output<typeof audienceListQuerySchema>;

const visible = (caller: Caller, row: { createUserId: number | null }) => caller.isAdministrator || row.createUserId === caller.userId;

async function requireAudience(ctx: AppContext, caller: Caller, id: number) {
  const row = await repo.findAudience(ctx.db, id);
  if (!row || !visible(caller, row)) throw notFound(audienceMessages.notFound);
  return row;
}

async function requireCategory(ctx: AppContext, id: number | null | undefined): Promise<void> {
  if (!id || !(await repo.findCategory(ctx.db, id)))
    throw badRequest(audienceMessages.categoryRequired, [{ field: 'classifyId', message: audienceMessages.categoryRequired }]);
}

export async function getAudienceDetail(ctx: AppContext, caller: Caller, id: number): Promise<AudienceDetail> {
  return repo.toDetail(await requireAudience(ctx, caller, id));
}

export async function listAudiences(ctx: AppContext, caller: Caller, query: ListQuery): Promise<Page<AudienceListItem>> {
  const { rows, total } = await repo.listAudiences(
    ctx.db,
    { ownerId: caller.isAdministrator ? null : caller.userId, groupName: query.groupName, classifyId: query.classifyId, kind: query.kind },
    { offset: (query.current - 1) * query.size, limit: query.size },
  );
  return { records: rows.map(repo.toListItem), total, current: query.current, size: query.size };
}

export async function listCategories(ctx: AppContext): Promise<AudienceCategory[]> {
  return repo.listCategories(ctx.db);
}

export async function addCategory(ctx: AppContext, name: string): Promise<AudienceCategory> {
  try {
    return { id: await repo.insertCategory(ctx.db, name), name };
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(audienceMessages.categoryExists);
    throw error;
  }
}

/** Saves a dataset-driven audience: the rules are compiled first (every check), then stored; a refresh is queued. */
export async function saveAudience(ctx: AppContext, caller: Caller, body: Body): Promise<number> {
  await requireCategory(ctx, body.classifyId);
  const existing = body.id ? await requireAudience(ctx, caller, body.id) : null;
  if (existing && !visible(caller, existing)) throw forbidden(audienceMessages.notOwner);
  if (existing && existing.kind !== 'dataset') throw notFound(audienceMessages.notFound);
  const owner: Caller =
    existing && existing.createUserId !== null && existing.createUserId !== caller.userId ? { userId: existing.createUserId, isAdministrator: false } : caller;
  const compiled = await compileAudience(ctx, owner, body.defineRule, existing?.id ?? null, 'save');
  const values = {
    groupName: body.groupName,
    classifyId: body.classifyId,
    requestFreq: body.requestFreq,
    remark: body.remark,
    defineRule: JSON.stringify(body.defineRule),
    datasourceId: compiled.datasourceId,
  };
  let id: number;
  if (existing) {
    id = existing.id;
    await repo.updateAudience(ctx.db, id, values);
  } else {
    id = await repo.insertAudience(ctx.db, { ...values, kind: 'dataset', createUserId: caller.userId });
  }
  if (ctx.jobs) await enqueueRefresh(ctx, id, new Date());
  return id;
}

/**
 * Preview (groupPreview): the first rows of the member statement as it stands, and the size — one
 * execution (the total as a window count beside the first rows) where the engine has window
 * functions; otherwise the rows and a count in parallel.
 */
export async function previewAudience(ctx: AppContext, caller: Caller, rules: AudienceRuleParsed[]): Promise<AudiencePreviewResult> {
  const started = performance.now();
  const { read, compiled, columns } = await compileAudience(ctx, caller, rules, null, 'preview');
  const abort = new AbortController();
  const options = { timeoutMs: PREVIEW_TIMEOUT_MS, signal: abort.signal };
  try {
    let rows: Row[];
    let total: number;
    if (compiled.preview) {
      rows = await readRows(read.driver, compiled.preview, AUDIENCE_PREVIEW_ROWS, options);
      total = rows.length === 0 ? 0 : Number(rows[0]![MEMBER_TOTAL_COLUMN]);
      for (const row of rows) delete row[MEMBER_TOTAL_COLUMN];
    } else {
      [rows, total] = await Promise.all([readRows(read.driver, compiled, AUDIENCE_PREVIEW_ROWS, options), readCount(read.driver, compiled.count, options)]);
    }
    return {
      dataList: rows,
      fieldDict: columns.map((c) => ({ alias: c.name, title: c.title, viewDataType: 'STRING' as const })),
      total,
      elapsedMs: Math.round(performance.now() - started),
    };
  } catch (error) {
    abort.abort();
    throw error;
  }
}

export async function enqueueRefresh(ctx: AppContext, audienceId: number, slot: Date): Promise<void> {
  if (!ctx.jobs) throw new AppError(503, audienceMessages.jobsOff);
  const data = { audienceId, slot: slot.toISOString() };
  await ctx.jobs.send(AUDIENCE_REFRESH_JOB, data, { singletonKey: `${audienceId}:${data.slot}` });
}

/** 刷新: a dataset or tag-driven audience is computed again now (as a job). */
export async function requestRefresh(ctx: AppContext, caller: Caller, id: number): Promise<void> {
  const row = await requireAudience(ctx, caller, id);
  if (row.kind === 'import') throw badRequest(audienceMessages.notReady);
  if (row.status === 'running') throw conflict(audienceMessages.refreshRunning);
  await repo.updateAudience(ctx.db, id, { status: 'running', error: null });
  await enqueueRefresh(ctx, id, new Date());
}

/** How an audience of another kind is computed again as its owner (the tag module registers 'tag'). */
export type AudienceComputer = (ctx: AppContext, id: number, owner: Caller) => Promise<{ size: number; durationMs: number }>;
const computers = new Map<'tag', AudienceComputer>();

export function registerAudienceComputer(kind: 'tag', compute: AudienceComputer): void {
  computers.set(kind, compute);
}

/** Computes an audience again as its owner, whatever its kind (a job: schedule, save, 刷新). Imported groups have nothing to compute. */
export async function refreshAudience(ctx: AppContext, id: number): Promise<{ size: number; durationMs: number }> {
  const row = await repo.findAudience(ctx.db, id);
  if (!row) throw notFound(audienceMessages.notFound);
  if (row.kind === 'dataset') return computeAudience(ctx, id);
  const compute = row.kind === 'tag' ? computers.get('tag') : undefined;
  if (!compute) throw badRequest(audienceMessages.notReady);
  return compute(ctx, id, await ownerOf(ctx, row.createUserId));
}

/** Runs a computation recorded in the refresh history (audience_refresh) at this instant (a save computed in the request). */
export async function recordComputation(
  ctx: AppContext,
  id: number,
  compute: () => Promise<{ size: number; durationMs: number }>,
): Promise<{ size: number; durationMs: number }> {
  const claim = await repo.claimRefresh(ctx.db, id, new Date(), null);
  const started = performance.now();
  try {
    const result = await compute();
    if (claim !== null) await repo.finishRefresh(ctx.db, claim, { status: 'done', size: result.size, durationMs: result.durationMs });
    return result;
  } catch (error) {
    if (claim !== null)
      await repo.finishRefresh(ctx.db, claim, {
        status: 'failed',
        durationMs: Math.round(performance.now() - started),
        error: String((error as Error).message ?? error).slice(0, 1000),
      });
    throw error;
  }
}

/** The refresh history of an audience the caller may see, newest first. */
export async function listRefreshes(ctx: AppContext, caller: Caller, id: number): Promise<AudienceRefreshItem[]> {
  await requireAudience(ctx, caller, id);
  return repo.listRefreshes(ctx.db, id, 50);
}

/** 使用中 / 已停用: a stopped audience is not refreshed by its schedule (its members stay readable). */
export async function setOnline(ctx: AppContext, caller: Caller, id: number, isOnline: 1 | 2): Promise<void> {
  await requireAudience(ctx, caller, id);
  await repo.updateAudience(ctx.db, id, { isOnline });
}

/**
 * Computes a dataset audience as its owner and switches its member table. The statement runs on
 * the datasets' source through the read module. On the built-in warehouse the engine fills the new
 * member table itself (INSERT … SELECT); from another source the rows are streamed into a bulk load.
 */
export async function computeAudience(ctx: AppContext, id: number): Promise<{ size: number; durationMs: number }> {
  const row = await repo.findAudience(ctx.db, id);
  if (!row) throw notFound(audienceMessages.notFound);
  if (row.kind !== 'dataset') throw badRequest(audienceMessages.notReady);
  const owner = await ownerOf(ctx, row.createUserId);
  await repo.updateAudience(ctx.db, id, { status: 'running' });
  return recordMaterialise(ctx, id, async (table) => {
    const rules = repo.toDetail(row).defineRule;
    const { read, compiled, columns } = await compileAudience(ctx, owner, rules, id, 'save');
    const warehouse = await memberWarehouse(ctx);
    if (read.cube.datasourceId === warehouse.datasourceId) {
      const loaded = await loadMemberSelect(ctx, table, id, loadColumns(columns), compiled, { signal: AbortSignal.timeout(REFRESH_TIMEOUT_MS) });
      if (loaded) return { columns, loaded, datasourceId: read.cube.datasourceId };
    }
    const stream = streamRows(read.driver, compiled, { timeoutMs: REFRESH_TIMEOUT_MS });
    async function* rows(): AsyncGenerator<LoadRow> {
      for await (const r of stream) yield [id, ...compiled.columns.map((c) => (r[c] === null || r[c] === undefined ? null : String(r[c])))];
    }
    return { columns, rows: rows(), datasourceId: read.cube.datasourceId };
  });
}

/** The audience's owner as a reader (a deleted owner reads nothing an anonymous member could not). */
export async function ownerOf(ctx: AppContext, userId: number | null): Promise<Caller> {
  const ownerRow = userId ? await ctx.db.selectFrom('sysUser').select(['id', 'isAdministrator']).where('id', '=', userId).executeTakeFirst() : undefined;
  return ownerRow ? { userId: ownerRow.id, isAdministrator: ownerRow.isAdministrator } : { userId: -1, isAdministrator: false };
}

const loadColumns = (columns: readonly AudienceMemberColumn[]): LoadColumn[] => [
  { name: 'audience_id', type: 'INTEGER' },
  ...columns.map((c) => ({ name: c.name, type: 'STRING' as const, comment: c.title })),
];

/** What a computation produced into its reserved table `table`: the engine filled it (`loaded`), or rows to load. */
type Produced = { columns: AudienceMemberColumn[]; datasourceId?: number | null } & (
  { rows: AsyncIterable<LoadRow> | Iterable<LoadRow>; loaded?: undefined } | { loaded: { table: string; rows: number }; rows?: undefined }
);

/**
 * Loads members into a reserved table (or takes it as the engine filled it), switches the audience to
 * them — the replaced table is retired, not dropped, so a reader of it finishes (member-gc.ts) —
 * and records failures on the audience.
 */
async function recordMaterialise(ctx: AppContext, id: number, produce: (table: string) => Promise<Produced>): Promise<{ size: number; durationMs: number }> {
  return oneAtATime(ctx, id, async () => {
    const startedAt = new Date();
    const started = performance.now();
    let table: string | null = null;
    try {
      table = await reserveMemberTable(ctx.db, id);
      const produced = await produce(table);
      const { columns, datasourceId } = produced;
      if (columns[0]?.name !== 'phone') throw new Error('member columns must start with phone');
      const loaded = produced.loaded ?? (await loadMemberTable(ctx, table, loadColumns(columns), produced.rows));
      const durationMs = Math.round(performance.now() - started);
      const values = { memberTable: loaded.table, memberColumns: columns, size: loaded.rows, durationMs, datasourceId };
      const switched = await repo.switchMembers(ctx.db, id, values, startedAt);
      // Deleted meanwhile, or superseded by a later computation: nobody ever read this table.
      if (!switched || switched.superseded) await discardMemberTable(ctx, loaded.table);
      return { size: loaded.rows, durationMs };
    } catch (error) {
      // A half-loaded table is dropped now; if that fails too, the sweep drops it once it is stale.
      if (table) await discardMemberTable(ctx, table).catch(() => undefined);
      const message = error instanceof AppError || (error as { message?: unknown }).message ? String((error as Error).message).slice(0, 1000) : '计算失败';
      await repo.failAudience(ctx.db, id, startedAt, { error: message, durationMs: Math.round(performance.now() - started) });
      throw error;
    }
  });
}

/** For other kinds (tag-driven, docs/tags.md): members from rows the caller produced — [phone, c1, …] each. */
export async function materialiseAudience(
  ctx: AppContext,
  audienceId: number,
  columns: AudienceMemberColumn[],
  rows: AsyncIterable<readonly (string | null)[]> | Iterable<readonly (string | null)[]>,
): Promise<{ size: number; durationMs: number }> {
  await repo.updateAudience(ctx.db, audienceId, { status: 'running' });
  return recordMaterialise(ctx, audienceId, async () => {
    async function* withId(): AsyncGenerator<LoadRow> {
      for await (const r of rows) yield [audienceId, ...r];
    }
    return { columns, rows: withId() };
  });
}

/**
 * For other kinds (tag-driven): members from a statement over the built-in warehouse that the caller
 * has checked (its columns: phone first, as `columns`). The engine fills the member table itself
 * (INSERT … SELECT); where it cannot, `rows` streams them ([phone, c1, …] each).
 */
export async function materialiseAudienceSelect(
  ctx: AppContext,
  audienceId: number,
  columns: AudienceMemberColumn[],
  statement: { sql: string; params: readonly (string | number | boolean | null)[]; columns: readonly string[] },
  rows: () => Promise<AsyncIterable<readonly (string | null)[]>>,
): Promise<{ size: number; durationMs: number }> {
  await repo.updateAudience(ctx.db, audienceId, { status: 'running' });
  return recordMaterialise(ctx, audienceId, async (table) => {
    const rendered = { sql: statement.sql, params: [...statement.params], columns: statement.columns };
    const loaded = await loadMemberSelect(ctx, table, audienceId, loadColumns(columns), rendered, { signal: AbortSignal.timeout(REFRESH_TIMEOUT_MS) });
    if (loaded) return { columns, loaded };
    const source = await rows();
    async function* withId(): AsyncGenerator<LoadRow> {
      for await (const r of source) yield [audienceId, ...r];
    }
    return { columns, rows: withId() };
  });
}

/**
 * Imported phones as members (phones.ts). The distinct numbers are written to a temp CSV that the
 * warehouse loads itself (loadMemberCsv: 1M lines in well under a second); an engine that cannot
 * read a local file gets them through the row path.
 */
export async function materialisePhones(ctx: AppContext, audienceId: number, phones: Float64Array): Promise<{ size: number; durationMs: number }> {
  const columns: AudienceMemberColumn[] = [{ name: 'phone', title: '手机号' }];
  const started = performance.now();
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'shutu-audience-'));
  try {
    const file = path.join(dir, 'members.csv');
    const out = fs.createWriteStream(file);
    out.write('audience_id,phone\n');
    const prefix = `${audienceId},`;
    for (let i = 0; i < phones.length; i += 10_000) {
      let chunk = '';
      for (let j = i; j < Math.min(i + 10_000, phones.length); j++) chunk += `${prefix}${phones[j]}\n`;
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
    await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
    const table = await reserveMemberTable(ctx.db, audienceId);
    const loaded = await loadMemberCsv(ctx, table, loadColumns(columns), { path: file, delimiter: ',', skipLines: 1, fields: 2 }).catch(
      async (error: unknown) => {
        await discardMemberTable(ctx, table).catch(() => undefined);
        throw error;
      },
    );
    if (loaded) {
      if (loaded.rows !== phones.length) {
        await discardMemberTable(ctx, loaded.table);
        throw new AppError(500, '导入失败');
      }
      const durationMs = Math.round(performance.now() - started);
      const switched = await repo.switchMembers(ctx.db, audienceId, { memberTable: loaded.table, memberColumns: columns, size: loaded.rows, durationMs });
      if (!switched || switched.superseded) await discardMemberTable(ctx, loaded.table);
      return { size: loaded.rows, durationMs };
    }
    await settleMemberTable(ctx.db, table); // the engine could not load the file: the row path reserves its own
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
  return recordMaterialise(ctx, audienceId, async () => {
    function* rows(): Generator<LoadRow> {
      for (let i = 0; i < phones.length; i++) yield [audienceId, String(phones[i])];
    }
    return { columns, rows: rows() };
  });
}

/** The metadata row of an audience of another kind (tag-driven); the caller computes its members. */
export async function saveAudienceRow(
  ctx: AppContext,
  caller: Caller,
  input: {
    id?: number | null;
    kind: 'tag' | 'import';
    groupName: string;
    classifyId?: number | null;
    requestFreq?: 0 | 1 | 2 | 3;
    remark?: string;
    rules?: unknown;
    groupUse?: 0 | 1;
    userGroupStatus?: 0 | 1;
    startAnalyseDate?: string | null;
    endAnalyseDate?: string | null;
    defaultShow?: boolean;
    isOnline?: 1 | 2;
  },
): Promise<number> {
  const groupName = input.groupName.trim();
  if (!groupName) throw badRequest(audienceMessages.importNameRequired);
  if (input.classifyId) await requireCategory(ctx, input.classifyId);
  const values = {
    groupName,
    classifyId: input.classifyId ?? null,
    requestFreq: input.requestFreq ?? 0,
    remark: input.remark ?? '',
    rules: JSON.stringify(input.rules ?? {}),
    groupUse: input.groupUse ?? 0,
    userGroupStatus: input.userGroupStatus ?? 0,
    startAnalyseDate: input.startAnalyseDate ?? null,
    endAnalyseDate: input.endAnalyseDate ?? null,
    defaultShow: input.defaultShow ? 1 : 0,
    isOnline: input.isOnline ?? 1,
  };
  if (input.id) {
    const existing = await requireAudience(ctx, caller, input.id);
    if (existing.kind !== input.kind) throw notFound(audienceMessages.notFound);
    await repo.updateAudience(ctx.db, existing.id, values);
    return existing.id;
  }
  return repo.insertAudience(ctx.db, { ...values, kind: input.kind, defineRule: '[]', createUserId: caller.userId });
}

export async function removeAudience(ctx: AppContext, caller: Caller, id: number): Promise<void> {
  await requireAudience(ctx, caller, id);
  await repo.deleteAudience(ctx.db, id);
}

/** An audience's members as SQL over the built-in warehouse (statistics, comparison; docs/tags.md). */
export async function audienceMemberSql(ctx: AppContext, caller: Caller, id: number) {
  const row = await requireAudience(ctx, caller, id);
  if (!row.memberTable) throw badRequest(audienceMessages.notReady);
  const { datasourceId, dialect } = await memberWarehouse(ctx);
  const columns = repo.memberColumnsOf(row);
  const query = memberTableQuery(
    dialect,
    row.memberTable,
    columns.map((c) => c.name),
  );
  return { datasourceId, table: row.memberTable, sql: query.sql, columns };
}

/** Members for the CSV export: the audience's columns and a stream of its rows. */
export async function exportMembers(ctx: AppContext, caller: Caller, id: number) {
  const row = await requireAudience(ctx, caller, id);
  if (!row.memberTable) throw badRequest(audienceMessages.notReady);
  const columns = repo.memberColumnsOf(row);
  const rows = await streamMemberTable(
    ctx,
    row.memberTable,
    columns.map((c) => c.name),
    { timeoutMs: REFRESH_TIMEOUT_MS },
  );
  return { name: row.groupName, columns, rows };
}

/** 新建导入人群: the phones of a file become a new audience's members; counts of valid, invalid and duplicate lines. */
export async function importAudience(
  ctx: AppContext,
  caller: Caller,
  file: { path: string; extension: string },
  form: { name: string; userGroupStatus: 0 | 1; startAnalyseDate: string | null; endAnalyseDate: string | null; classifyId: number | null },
): Promise<AudienceImportResult> {
  const started = performance.now();
  const parsed = await parsePhoneFile(file.path, file.extension, ctx.config.spreadsheetMaxBytes);
  if (parsed.valid === 0) throw badRequest(audienceMessages.importEmpty);
  const id = await saveAudienceRow(ctx, caller, {
    kind: 'import',
    groupName: form.name,
    classifyId: form.classifyId,
    userGroupStatus: form.userGroupStatus,
    startAnalyseDate: form.startAnalyseDate,
    endAnalyseDate: form.endAnalyseDate,
  });
  await repo.updateAudience(ctx.db, id, { importValid: parsed.valid, importInvalid: parsed.invalid, importDuplicate: parsed.duplicate, status: 'running' });
  try {
    await materialisePhones(ctx, id, parsed.phones);
  } catch (error) {
    // Nothing half-written: the audience goes with its failed load.
    await repo.deleteAudience(ctx.db, id);
    throw error;
  }
  return { id, valid: parsed.valid, invalid: parsed.invalid, duplicate: parsed.duplicate, durationMs: Math.round(performance.now() - started) };
}
