import { ConnectorError, stagingTableName, type Driver, type LoadColumn, type LoadRow } from '@shutu/connectors';
import { checkFileTableForm, formatMessage, sourceNotWritableMessage, zhCN, type FileColumn, type FileStructure, type FileTable } from '@shutu/contracts';
import type { AppContext } from '../../context.ts';
import { ownerOf } from '../../platform/files/owner.ts';
import type { Upload } from '../../platform/files/upload.ts';
import { AppError, badRequest, conflict, forbidden, isUniqueViolation } from '../../platform/http/errors.ts';
import { getDataSourceDriver } from '../datasource/registry.ts';
import { writableSources, type Caller } from '../perm/index.ts';
import { assertSourceUsable, tableCheckerFor } from '../datasource/index.ts';
import { describeColumns, fileWidth, previewRows, rowConverter, SAMPLE_ROWS } from './columns.ts';
import { openTableFile, type DataRow, type TableFile } from './readers.ts';
import { engineLoad } from './engine-load.ts';
import { publishLoad, reclaimName, type RecoveryLog } from './recovery.ts';
import {
  abandonFileTable,
  deleteFileTableRow,
  findFileTable,
  HEARTBEAT_MS,
  listFileTables,
  markFileTablePublishing,
  renewFileTableHeartbeat,
  reserveFileTable,
} from './repo.ts';

/**
 * File tables (spec 2 §5 "File table", §7 "File tables"): the structure call reads a sample
 * of the uploaded file and proposes a column list; the confirm call creates the table in the
 * chosen data source and streams every row into it through the driver's bulk load — into a
 * private staging table, renamed to its name in one step at the end (recovery.ts: what a crash
 * leaves is settled at the next start).
 */

/** What a load logs: its start (info) and progress (debug, every PROGRESS_ROWS rows). */
export interface LoadLog extends RecoveryLog {
  debug(obj: object, msg: string): void;
}

const PROGRESS_ROWS = 100_000;

const quietLog: LoadLog = { info: () => undefined, warn: () => undefined, debug: () => undefined };

/**
 * The first `n` data rows, and an iterator over all data rows that starts with them (the
 * file is read once; the rest of the batch the sample ended in is not lost).
 */
async function splitSample(file: TableFile, n: number): Promise<{ sample: DataRow[]; complete: boolean; all: () => AsyncGenerator<DataRow[]> }> {
  const iterator = file.batches[Symbol.asyncIterator]();
  const head: DataRow[][] = [];
  let count = 0;
  let complete = false;
  while (count < n) {
    const next = await iterator.next();
    if (next.done) {
      complete = true;
      break;
    }
    head.push(next.value);
    count += next.value.length;
  }
  const sample = head.flat().slice(0, n);
  const all = async function* () {
    yield* head.splice(0);
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  };
  return { sample, complete: complete && count <= n, all };
}

export async function detectStructure(ctx: AppContext, upload: Upload): Promise<Omit<FileStructure, 'fileToken'>> {
  const { file } = upload;
  // A workbook is parsed only as far as the sample reaches (header, blank rows: some slack).
  const table = await openTableFile(file, { spreadsheetMaxBytes: ctx.config.spreadsheetMaxBytes, sheetRows: SAMPLE_ROWS + 100 });
  try {
    const { sample } = await splitSample(table, SAMPLE_ROWS);
    const columns = describeColumns(table.header, sample);
    return {
      fileName: file.fileName,
      fileType: table.fileType,
      encoding: table.encoding,
      columns,
      previewRows: previewRows(columns, sample),
      sampledRows: sample.length,
    };
  } finally {
    table.close();
  }
}

/** A failure of a load: the file's own 400 (a bad value) when that is what stopped it. */
function loadError(error: unknown): unknown {
  if (error instanceof ConnectorError && error.cause instanceof AppError) return error.cause;
  return error;
}

/** Reading a file's structure is a step of uploading it: only for users who may upload into some source (the grant's write permission). */
export async function assertMayUpload(ctx: AppContext, caller: Caller): Promise<void> {
  const writable = await writableSources(ctx, caller);
  if (!writable.all && writable.ids.size === 0) throw forbidden();
}

/** A failed load's leftovers: its staging table and reservation; left to recovery when the source cannot be reached. */
async function discardLoad(ctx: AppContext, driver: Driver, id: number, stagingName: string, ownerKey: string): Promise<void> {
  try {
    await driver.dropTable(stagingName);
    await deleteFileTableRow(ctx.db, id, ownerKey);
  } catch {
    await abandonFileTable(ctx.db, id, ownerKey).catch(() => undefined);
  }
}

/** The row path: every row parsed and converted here, then through the driver's bulk load. */
async function loadRows(
  driver: Driver,
  stagingName: string,
  columns: readonly FileColumn[],
  loadColumns: LoadColumn[],
  comment: string,
  sample: DataRow[],
  all: () => AsyncGenerator<DataRow[]>,
  progress: (rows: number) => void,
): Promise<number> {
  const convert = rowConverter(columns);
  sample.length = 0;
  const rows = async function* (): AsyncGenerator<LoadRow> {
    let n = 0;
    for await (const batch of all()) {
      for (const row of batch) yield convert(row);
      const before = n;
      n += batch.length;
      if (Math.floor(n / PROGRESS_ROWS) > Math.floor(before / PROGRESS_ROWS)) progress(n);
    }
  };
  return (await driver.bulkLoad(stagingName, loadColumns, rows(), { comment })).rows;
}

export async function createFileTable(ctx: AppContext, caller: Caller, upload: Upload, log: LoadLog = quietLog): Promise<FileTable> {
  const form = checkFileTableForm(upload.fields);
  if (!form.ok) throw badRequest(form.errors[0]!.message, form.errors);
  const { tableName, tableComment, dsId, columns } = form.value;
  const userId = caller.userId;
  const source = await assertSourceUsable(ctx, caller, dsId);
  // Uploading writes a table into the source: the grant's write permission (issue 28).
  const writable = await writableSources(ctx, caller);
  if (!writable.all && !writable.ids.has(dsId)) throw forbidden(formatMessage(sourceNotWritableMessage, { name: source.dsDb }));
  const driver = await getDataSourceDriver(ctx, dsId);

  const table = await openTableFile(upload.file, { spreadsheetMaxBytes: ctx.config.spreadsheetMaxBytes });
  try {
    const { sample, complete, all } = await splitSample(table, SAMPLE_ROWS);
    const width = fileWidth(table.header, sample);
    if (width !== columns.length) throw badRequest(formatMessage(zhCN.fileColumnsCount, { actual: columns.length, expected: width }));

    const owner = ownerOf(ctx);
    // A reservation of this name whose process died is settled first (its name is free again).
    await reclaimName(ctx, dsId, tableName, log);
    // Refused before any row is read: a table the source already has.
    if (await driver.tableExists(tableName)) throw conflict(formatMessage(zhCN.fileTableExists, { name: tableName }));
    const stagingName = stagingTableName();
    let id: number;
    try {
      id = await reserveFileTable(ctx.db, {
        datasourceId: dsId,
        tableName,
        tableComment,
        fileName: upload.file.fileName,
        columns,
        createUserId: userId,
        stagingName,
        ownerInstance: owner.key,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(formatMessage(zhCN.fileTableExists, { name: tableName }));
      throw error;
    }
    const heartbeat = setInterval(() => void renewFileTableHeartbeat(ctx.db, id, owner.key).catch(() => undefined), HEARTBEAT_MS);
    heartbeat.unref();
    try {
      const about = { id, datasourceId: dsId, table: tableName, staging: stagingName };
      log.info(about, 'file table load started');
      let loaded: number;
      try {
        const loadColumns: LoadColumn[] = columns.map((c) => ({ name: c.columnName, type: c.columnType, comment: c.comment }));
        const fields = Math.max(table.header.length, width, ...sample.map((r) => r.values.length));
        const byEngine = await engineLoad(
          driver,
          upload.file,
          table,
          { name: stagingName, columns: loadColumns, comment: tableComment, fields },
          { rows: sample.length, complete },
        );
        if (byEngine !== null) log.debug({ ...about, rows: byEngine }, 'file table loaded by the engine');
        loaded =
          byEngine ??
          (await loadRows(driver, stagingName, columns, loadColumns, tableComment, sample, all, (rows) =>
            log.debug({ ...about, rows }, 'file table load progress'),
          ));
      } catch (error) {
        await discardLoad(ctx, driver, id, stagingName, owner.key);
        throw loadError(error);
      }
      // Every row is in: from here a crash is settled by finishing the rename (recovery.ts).
      if (!(await markFileTablePublishing(ctx.db, id, owner.key, loaded))) {
        // Recovery took the reservation over (this process was thought dead) and drops the staging table too.
        await driver.dropTable(stagingName).catch(() => undefined);
        throw conflict(zhCN.fileTableLoadInterrupted);
      }
      try {
        await publishLoad(ctx, driver, { id, tableName, stagingName });
      } catch (error) {
        // Unsettled (the source went away mid-rename): the next recovery finishes it.
        if (!(error instanceof AppError)) await abandonFileTable(ctx.db, id, owner.key).catch(() => undefined);
        throw error;
      }
      log.info({ ...about, rows: loaded }, 'file table loaded');
    } finally {
      clearInterval(heartbeat);
    }
    return (await findFileTable(ctx.db, id))!;
  } finally {
    table.close();
  }
}

/** The source's file tables the caller may use: all for administrators, else their own and granted ones. */
export async function fileTablesOf(ctx: AppContext, caller: Caller, dsId: number): Promise<FileTable[]> {
  await assertSourceUsable(ctx, caller, dsId);
  const tables = await listFileTables(ctx.db, dsId);
  const checker = await tableCheckerFor(ctx, caller, dsId);
  if (checker.all) return tables;
  const kept: FileTable[] = [];
  for (const t of tables) if (await checker.allows({ schema: null, name: t.tableName, quoted: true })) kept.push(t);
  return kept;
}
