import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../config.ts';
import { LocalFileStorage } from './storage-local.ts';
import { DeferredFileStorage } from './storage-deferred.ts';
import { checkKey, type FileStorage } from './storage-api.ts';

/**
 * One interface for the files the server writes and another process may have to read: export
 * workbooks, rendered PDFs, thumbnails, subscription and alert images (docs/storage.md). A
 * directory (default: DATA_DIR, or SHUTU_FILES_DIR, a shared mount with several processes) or
 * an S3-compatible bucket. Bodies stream both ways; nothing here holds a whole file in memory
 * except `read`, meant for images of a few hundred KB.
 *
 * Keys are relative paths with '/' ('exports/7/12.xlsx'): the same string is the file's path
 * under the directory and the object's key in the bucket (after SHUTU_S3_PREFIX), so rows that
 * record a key (export_task.file_path, ppt_pdf_task.file_path) work in both modes.
 *
 * Temp files of a request (uploads being parsed) and files an engine reads itself (DuckDB's
 * read_csv) are not stored here: they stay on local disk for the step that needs them
 * (`downloadTo` makes such a copy of a stored file).
 */

export { checkKey, type ByteRange, type FileStorage, type FileWriter, type PutOptions, type StoredFile } from './storage-api.ts';

/** A key from a relative path as older rows hold it (path.join on this OS). */
export const keyOfPath = (relative: string) => checkKey(relative.split(path.sep).join('/'));

export function openFileStorage(config: Pick<Config, 'files' | 'dataDir'>): FileStorage {
  const files = config.files ?? { kind: 'local', dir: undefined };
  if (files.kind === 's3') return new DeferredFileStorage('s3', () => import('./storage-s3.ts').then(({ S3FileStorage }) => new S3FileStorage(files)));
  return new LocalFileStorage(files.dir ?? config.dataDir);
}

const stores = new WeakMap<object, { files: Config['files']; dataDir: string; store: FileStorage }>();

/**
 * The file storage of an app context: made at first use from its config, one per config object
 * (tests that copy a config get their own), made again if the setting was replaced (a test
 * that points a running context at its bucket).
 */
export function fileStorage(ctx: { config: Pick<Config, 'files' | 'dataDir'> }): FileStorage {
  const { files, dataDir } = ctx.config;
  const open = stores.get(ctx.config);
  if (open && open.files === files && open.dataDir === dataDir) return open.store;
  if (open) void open.store.close();
  const store = openFileStorage(ctx.config);
  stores.set(ctx.config, { files, dataDir, store });
  return store;
}

/** Closes the storage of a context, if one was opened (app shutdown). */
export async function closeFileStorage(ctx: { config: object }): Promise<void> {
  const open = stores.get(ctx.config);
  stores.delete(ctx.config);
  await open?.store.close();
}

/**
 * Copies a stored file to a local path for a step that must read a file itself (an engine's
 * own CSV reader); the caller removes it.
 */
export async function downloadTo(store: FileStorage, key: string, file: string): Promise<boolean> {
  const body = await store.get(key);
  if (!body) return false;
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  await pipeline(body, fs.createWriteStream(file));
  return true;
}

/** A local temp path for such a copy (under the OS temp directory). */
export const stagingPath = (key: string) => path.join(os.tmpdir(), `shutu-staging-${randomBytes(6).toString('hex')}-${path.basename(key)}`);

/** Removes the files under `prefix` last written before `before`; how many (expiry of rendered images). */
export async function deleteOlderThan(store: FileStorage, prefix: string, before: Date): Promise<number> {
  const stale: string[] = [];
  for await (const file of store.list(prefix)) if (file.modifiedAt < before) stale.push(file.key);
  for (const key of stale) await store.delete(key);
  return stale.length;
}
