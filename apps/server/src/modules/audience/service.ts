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
  type AudienceMemberColumn,
  type AudiencePreviewResult,
  type AudienceRuleParsed,
  type Page,
} from '@shutu/contracts';
import type { LoadColumn, LoadRow } from '@shutu/connectors';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { AppError, badRequest, conflict, forbidden, isUniqueViolation, notFound } from '../../platform/http/errors.ts';
import type { Caller } from '../perm/index.ts';
import {
  dropMemberTable,
  loadMemberCsv,
  loadMemberTable,
  memberTableQuery,
  memberWarehouse,
  readCount,
  readRows,
  streamMemberTable,
  streamRows,
} from '../read/index.ts';
import { compileAudience } from './compute.ts';
import { parsePhoneFile } from './phones.ts';
import * as repo from './repo.ts';

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

/** Preview (groupPreview): the first rows of the member statement as it stands, and the size. */
export async function previewAudience(ctx: AppContext, caller: Caller, rules: AudienceRuleParsed[]): Promise<AudiencePreviewResult> {
  const started = performance.now();
  const { read, compiled, columns } = await compileAudience(ctx, caller, rules, null, 'preview');
  const abort = new AbortController();
  try {
    const [rows, total] = await Promise.all([
      readRows(read.driver, compiled, AUDIENCE_PREVIEW_ROWS, { timeoutMs: PREVIEW_TIMEOUT_MS, signal: abort.signal }),
      readCount(read.driver, compiled.count, { timeoutMs: PREVIEW_TIMEOUT_MS, signal: abort.signal }),
    ]);
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

/** 刷新: a dataset audience is computed again now (as a job). */
export async function requestRefresh(ctx: AppContext, caller: Caller, id: number): Promise<void> {
  const row = await requireAudience(ctx, caller, id);
  if (row.kind !== 'dataset') throw badRequest(audienceMessages.notReady);
  if (row.status === 'running') throw conflict(audienceMessages.refreshRunning);
  await repo.updateAudience(ctx.db, id, { status: 'running', error: null });
  await enqueueRefresh(ctx, id, new Date());
}

/**
 * Computes a dataset audience as its owner and switches its member table. The statement runs on
 * the datasets' source through the read module; its rows are bulk-loaded into a new warehouse table.
 */
export async function computeAudience(ctx: AppContext, id: number): Promise<{ size: number; durationMs: number }> {
  const row = await repo.findAudience(ctx.db, id);
  if (!row) throw notFound(audienceMessages.notFound);
  if (row.kind !== 'dataset') throw badRequest(audienceMessages.notReady);
  const ownerRow = row.createUserId
    ? await ctx.db.selectFrom('sysUser').select(['id', 'isAdministrator', 'status']).where('id', '=', row.createUserId).executeTakeFirst()
    : undefined;
  const owner: Caller = ownerRow ? { userId: ownerRow.id, isAdministrator: ownerRow.isAdministrator } : { userId: -1, isAdministrator: false };
  await repo.updateAudience(ctx.db, id, { status: 'running' });
  return recordMaterialise(ctx, id, async () => {
    const rules = repo.toDetail(row).defineRule;
    const { read, compiled, columns } = await compileAudience(ctx, owner, rules, id, 'save');
    const stream = streamRows(read.driver, compiled, { timeoutMs: REFRESH_TIMEOUT_MS });
    async function* rows(): AsyncGenerator<LoadRow> {
      for await (const r of stream) yield [id, ...compiled.columns.map((c) => (r[c] === null || r[c] === undefined ? null : String(r[c])))];
    }
    return { columns, rows: rows(), datasourceId: read.cube.datasourceId };
  });
}

const loadColumns = (columns: readonly AudienceMemberColumn[]): LoadColumn[] => [
  { name: 'audience_id', type: 'INTEGER' },
  ...columns.map((c) => ({ name: c.name, type: 'STRING' as const, comment: c.title })),
];

/** Loads members, switches the audience to them and drops the table they replace; failures are recorded on the audience. */
async function recordMaterialise(
  ctx: AppContext,
  id: number,
  produce: () => Promise<{ columns: AudienceMemberColumn[]; rows: AsyncIterable<LoadRow> | Iterable<LoadRow>; datasourceId?: number | null }>,
): Promise<{ size: number; durationMs: number }> {
  const started = performance.now();
  try {
    const { columns, rows, datasourceId } = await produce();
    if (columns[0]?.name !== 'phone') throw new Error('member columns must start with phone');
    const loaded = await loadMemberTable(ctx, id, loadColumns(columns), rows);
    const durationMs = Math.round(performance.now() - started);
    const switched = await repo.switchMembers(ctx.db, id, { memberTable: loaded.table, memberColumns: columns, size: loaded.rows, durationMs, datasourceId });
    // Deleted meanwhile: its new table goes too.
    if (!switched) await dropMemberTable(ctx, loaded.table);
    else if (switched.previous && switched.previous !== loaded.table) await dropMemberTable(ctx, switched.previous).catch(() => undefined);
    return { size: loaded.rows, durationMs };
  } catch (error) {
    const message = error instanceof AppError || (error as { message?: unknown }).message ? String((error as Error).message).slice(0, 1000) : '计算失败';
    await repo.updateAudience(ctx.db, id, { status: 'failed', error: message, durationMs: Math.round(performance.now() - started) });
    throw error;
  }
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
    const loaded = await loadMemberCsv(ctx, audienceId, loadColumns(columns), { path: file, delimiter: ',', skipLines: 1, fields: 2 });
    if (loaded) {
      if (loaded.rows !== phones.length) {
        await dropMemberTable(ctx, loaded.table);
        throw new AppError(500, '导入失败');
      }
      const durationMs = Math.round(performance.now() - started);
      await repo.switchMembers(ctx.db, audienceId, { memberTable: loaded.table, memberColumns: columns, size: loaded.rows, durationMs });
      return { size: loaded.rows, durationMs };
    }
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
  const table = await repo.deleteAudience(ctx.db, id);
  if (table) await dropMemberTable(ctx, table).catch(() => undefined);
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
  const parsed = await parsePhoneFile(file.path, file.extension);
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
