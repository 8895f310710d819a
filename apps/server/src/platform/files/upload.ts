import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { isUtf8 } from 'node:buffer';
import path from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { formatFileSize, formatMessage, zhCN } from '@shutu/contracts';
import type { App } from '../../context.ts';
import { AppError, badRequest } from '../http/errors.ts';
import { ownerGoneHere, type Owner } from './owner.ts';

/**
 * Multipart uploads streamed to a temp file under DATA_DIR/uploads: never held whole in
 * memory, size-capped while they arrive (413 past the cap), removed by `dispose()`. A file's
 * name starts with its owner's key (owner.ts), so files a killed process left can be told
 * from files a live one is still reading (`sweepUploads`).
 */

/** Registers @fastify/multipart once (it is not encapsulated: one content-type parser for the app). */
export async function installMultipart(app: App): Promise<void> {
  if (app.hasRequestDecorator('parts')) return;
  await app.register(fastifyMultipart, { throwFileSizeLimit: true });
}

export interface UploadedFile {
  /** Temp file on disk. */
  path: string;
  /** The name the browser sent (directory parts removed). */
  fileName: string;
  /** Lower-case extension without the dot. */
  extension: string;
  size: number;
  /** Every byte sequence of the file is valid UTF-8 (checked while it was written). */
  utf8: boolean;
  /** A CR not followed by LF is in the file (seen while it was written); absent when not known. */
  loneCr?: boolean;
}

export interface Upload {
  file: UploadedFile;
  /** The text fields of the form (the last one wins when a name repeats). */
  fields: Record<string, string>;
  dispose(): Promise<void>;
}

export interface UploadOptions {
  dataDir: string;
  maxBytes: number;
  /** Allowed extensions (lower case); any other is refused before it is stored. */
  extensions: readonly string[];
  /** Message for a refused extension. */
  extensionMessage: string;
  /** Largest text field (default 1 MiB). */
  maxFieldBytes?: number;
  /** The app's owner (owner.ts `ownerOf(ctx)`): named in the temp file's name. */
  owner: Owner;
}

/**
 * Looks for a CR not followed by a LF across the chunks of a byte stream (the engine's CSV load
 * needs none: engine-load.ts). Only CRs are looked at, so a LF file is scanned at memchr speed.
 */
export class LoneCrScan {
  found = false;
  private pendingCr = false;

  push(chunk: Buffer): void {
    if (this.found || chunk.length === 0) return;
    if (this.pendingCr && chunk[0] !== 10) this.found = true;
    this.pendingCr = false;
    for (let i = chunk.indexOf(13); i >= 0 && !this.found; i = chunk.indexOf(13, i + 1)) {
      if (i + 1 === chunk.length) this.pendingCr = true;
      else if (chunk[i + 1] !== 10) this.found = true;
    }
  }

  /** The end of the bytes (a CR last stands alone); whether a lone CR was found. */
  end(): boolean {
    if (this.pendingCr) this.found = true;
    return this.found;
  }
}

/**
 * Checks UTF-8 validity of a byte stream chunk by chunk (a character split across chunks is
 * carried over), and looks for a lone CR (the engine's CSV load needs none: engine-load.ts),
 * passing the bytes on unchanged: the file is read once, while it arrives.
 */
export class Utf8Check extends Transform {
  valid = true;
  bytes = 0;
  private carry: Buffer = Buffer.alloc(0);
  private readonly crs = new LoneCrScan();

  /** A CR not followed by LF was seen (final once the stream has ended). */
  get loneCr(): boolean {
    return this.crs.found;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.valid) this.check(chunk);
    this.crs.push(chunk);
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    if (this.carry.length > 0) this.valid = false;
    this.crs.end();
    done();
  }

  private check(chunk: Buffer): void {
    let start = 0;
    if (this.carry.length > 0) {
      // Only the split character is put together (copying every chunk after it cost a copy of the file).
      const lead = this.carry[0]!;
      const take = (lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2) - this.carry.length;
      if (chunk.length < take) {
        this.carry = Buffer.concat([this.carry, chunk]);
        return;
      }
      if (!isUtf8(Buffer.concat([this.carry, chunk.subarray(0, take)]))) this.valid = false;
      this.carry = Buffer.alloc(0);
      start = take;
    }
    const rest = chunk.subarray(start);
    const cut = completeLength(rest);
    if (cut < rest.length) this.carry = Buffer.from(rest.subarray(cut));
    if (!isUtf8(rest.subarray(0, cut))) this.valid = false;
  }
}

/** Length of `bytes` without a trailing, possibly incomplete, multi-byte sequence. */
export function completeLength(bytes: Buffer): number {
  const end = bytes.length;
  for (let back = 1; back <= Math.min(3, end); back++) {
    const b = bytes[end - back]!;
    if ((b & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? end - back : end;
  }
  return end;
}

const baseName = (name: string) => name.split(/[\\/]/).pop()!.trim();

export const uploadDir = (dataDir: string) => path.join(dataDir, 'uploads');

/** Temp files older than this are left from a crash (a request removes its own): swept away whoever wrote them. */
const STALE_UPLOAD_MS = 24 * 3_600_000;

/** How long a structure call's file is kept for its confirm call (kept-upload.ts). */
export const KEPT_UPLOAD_MS = 3_600_000;

/** A file kept for a later call (kept-upload.ts names them so). */
export const isKeptUploadName = (name: string) => name.includes('-kept-');
const lastSweep = new Map<string, number>();

/** The owner key a temp file's name starts with; null for other names (files from before owners were named). */
export function uploadOwnerKey(name: string): string | null {
  return /^([0-9a-f]{8}-\d{1,10}-[0-9a-f]{8})-/.exec(name)?.[1] ?? null;
}

/**
 * Removes temp files no live request owns; returns how many. A file goes when
 * - `exclusive` (this process alone uses the data directory: the embedded store lives there and
 *   only one process opens it) and another owner wrote it — at start-up that is every file;
 * - its owner ran on this host and its process is gone (owner.ts `ownerGoneHere`);
 * - it is older than a day (owners on other hosts sharing the directory, unnamed files).
 * A live process's file younger than a day is never touched.
 */
export async function sweepUploads(dataDir: string, self: Owner, options: { exclusive?: boolean } = {}): Promise<number> {
  const dir = uploadDir(dataDir);
  const now = Date.now();
  let removed = 0;
  for (const name of await fs.promises.readdir(dir).catch(() => [] as string[])) {
    const file = path.join(dir, name);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (!stat?.isFile()) continue;
    const owner = uploadOwnerKey(name);
    const age = now - stat.mtimeMs;
    const orphan =
      (options.exclusive === true && owner !== self.key) ||
      ownerGoneHere(owner, self) ||
      age > STALE_UPLOAD_MS ||
      (isKeptUploadName(name) && age > KEPT_UPLOAD_MS);
    if (!orphan) continue;
    await fs.promises.rm(file, { force: true });
    removed++;
  }
  return removed;
}

/** `sweepUploads` while uploads arrive, at most once an hour per directory. */
async function sweepNow(dataDir: string, self: Owner): Promise<void> {
  const now = Date.now();
  if (now - (lastSweep.get(dataDir) ?? 0) < 3_600_000) return;
  lastSweep.set(dataDir, now);
  await sweepUploads(dataDir, self);
}

/**
 * What the temp file's stream holds before the parser waits: the parts' 64 KiB chunks then go to
 * disk many at a time (one writev) instead of one write each. A 78 MiB upload was received in
 * 330 instead of 660 ms (bench/upload, issue 26).
 */
const WRITE_BUFFER_BYTES = 4 * 1024 * 1024;

const tooLarge = (maxBytes: number) => new AppError(413, formatMessage(zhCN.fileTooLarge, { size: formatFileSize(maxBytes) }));

/** A multipart form whose file part may be missing (a form that names a kept file instead). */
export interface UploadForm {
  file: UploadedFile | null;
  fields: Record<string, string>;
  dispose(): Promise<void>;
}

/**
 * Reads a multipart request: its one file part (the form calls it `file`) goes to a temp file,
 * text fields are collected. Everything written is removed again on failure.
 */
export async function receiveUpload(request: FastifyRequest, options: UploadOptions): Promise<Upload> {
  const form = await receiveForm(request, options);
  if (!form.file) {
    await form.dispose();
    throw badRequest(zhCN.fileRequired);
  }
  return { ...form, file: form.file };
}

/** `receiveUpload` that also accepts a form without a file part. */
export async function receiveForm(request: FastifyRequest, options: UploadOptions): Promise<UploadForm> {
  if (!request.isMultipart()) throw badRequest(zhCN.fileRequired);
  const dir = uploadDir(options.dataDir);
  await fs.promises.mkdir(dir, { recursive: true });
  await sweepNow(options.dataDir, options.owner);
  const written: string[] = [];
  const dispose = async () => {
    await Promise.all(written.map((p) => fs.promises.rm(p, { force: true })));
  };
  const fields: Record<string, string> = {};
  let file: UploadedFile | undefined;
  try {
    const parts = request.parts({ limits: { fileSize: options.maxBytes, files: 1, fields: 20, parts: 25, fieldSize: options.maxFieldBytes ?? 1024 * 1024 } });
    for await (const part of parts) {
      if (part.type === 'field') {
        if (part.valueTruncated) throw badRequest(formatMessage(zhCN.fileFieldTooLarge, { name: part.fieldname.slice(0, 50) }));
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
        continue;
      }
      const fileName = baseName(part.filename ?? '');
      const extension = path.extname(fileName).slice(1).toLowerCase();
      if (file || !options.extensions.includes(extension)) {
        part.file.resume(); // let the rest of the body drain while we answer
        throw badRequest(file ? zhCN.fileRequired : options.extensionMessage);
      }
      const target = path.join(dir, `${options.owner.key}-${Date.now().toString(36)}-${randomBytes(6).toString('hex')}.${extension}`);
      written.push(target);
      const check = new Utf8Check();
      await pipeline(part.file, check, fs.createWriteStream(target, { flags: 'wx', highWaterMark: WRITE_BUFFER_BYTES }));
      if (part.file.truncated) throw tooLarge(options.maxBytes);
      file = { path: target, fileName, extension, size: check.bytes, utf8: check.valid, loneCr: check.loneCr };
    }
  } catch (error) {
    await dispose();
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(options.maxBytes);
    if ((error as { code?: string }).code === 'FST_FILES_LIMIT') throw badRequest(zhCN.fileRequired);
    throw error;
  }
  return { file: file ?? null, fields, dispose };
}
