import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Owner } from './owner.ts';
import { KEPT_UPLOAD_MS, isKeptUploadName, uploadDir, type Upload, type UploadedFile } from './upload.ts';

/**
 * A file a first call received, kept for a second call that names it by a token instead of
 * sending it again (the file table's structure call, then its confirm call: docs/filetable.md
 * "The file is sent once"). The file stays in DATA_DIR/uploads under its owner's key, so the
 * sweep rules of upload.ts apply, and goes after KEPT_UPLOAD_MS or when used. Its token is 128
 * random bits, bound to the user it was received from; a user keeps at most MAX_KEPT_PER_USER.
 */

const MAX_KEPT_PER_USER = 3;
const TOKEN_PATTERN = /^[0-9a-f]{32}$/;

interface KeptMeta {
  userId: number;
  fileName: string;
  extension: string;
  size: number;
  utf8: boolean;
  loneCr?: boolean;
}

const metaPath = (file: string) => `${file}.meta`;

/** The kept files of a user in the directory, newest first (their names carry the user's id and the time). */
async function keptOf(dir: string, userId: number): Promise<string[]> {
  const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
  const mine = names.filter((n) => isKeptUploadName(n) && !n.endsWith('.meta') && n.includes(`-kept-${userId}-`));
  const withTime = await Promise.all(mine.map(async (n) => ({ n, at: (await fs.promises.stat(path.join(dir, n)).catch(() => null))?.mtimeMs ?? 0 })));
  return withTime.sort((a, b) => b.at - a.at).map((x) => x.n);
}

async function removeKept(file: string): Promise<void> {
  await Promise.all([fs.promises.rm(file, { force: true }), fs.promises.rm(metaPath(file), { force: true })]);
}

/**
 * Keeps the upload's file for `userId` (moved, not copied) and returns its token; the
 * upload's own dispose then has nothing left to remove. Older kept files of the user past
 * MAX_KEPT_PER_USER are removed.
 */
export async function keepUpload(upload: Upload, dataDir: string, owner: Owner, userId: number): Promise<string> {
  const dir = uploadDir(dataDir);
  const token = randomBytes(16).toString('hex');
  const { file } = upload;
  const kept = path.join(dir, `${owner.key}-${Date.now().toString(36)}-kept-${userId}-${token}.${file.extension}`);
  const meta: KeptMeta = { userId, fileName: file.fileName, extension: file.extension, size: file.size, utf8: file.utf8, loneCr: file.loneCr };
  await fs.promises.writeFile(metaPath(kept), JSON.stringify(meta), { flag: 'wx' });
  try {
    await fs.promises.rename(file.path, kept);
  } catch (error) {
    await fs.promises.rm(metaPath(kept), { force: true });
    throw error;
  }
  const older = (await keptOf(dir, userId)).slice(MAX_KEPT_PER_USER);
  await Promise.all(older.map((n) => removeKept(path.join(dir, n))));
  return token;
}

/**
 * The file kept under `token` for `userId`, or null when there is none (never kept, used,
 * expired, another user's, a malformed token). Its dispose removes it.
 */
export async function findKeptUpload(dataDir: string, token: string, userId: number): Promise<Upload | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const dir = uploadDir(dataDir);
  const name = (await keptOf(dir, userId)).find((n) => n.includes(`-kept-${userId}-${token}.`));
  if (!name) return null;
  const file = path.join(dir, name);
  const [stat, metaText] = await Promise.all([fs.promises.stat(file).catch(() => null), fs.promises.readFile(metaPath(file), 'utf8').catch(() => null)]);
  if (!stat || !metaText || Date.now() - stat.mtimeMs > KEPT_UPLOAD_MS) return null;
  const meta = JSON.parse(metaText) as KeptMeta;
  if (meta.userId !== userId || meta.size !== stat.size) return null;
  const uploaded: UploadedFile = { path: file, fileName: meta.fileName, extension: meta.extension, size: meta.size, utf8: meta.utf8, loneCr: meta.loneCr };
  return { file: uploaded, fields: {}, dispose: () => removeKept(file) };
}
