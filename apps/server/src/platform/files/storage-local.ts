import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, type Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { checkKey, type ByteRange, type FileStorage, type FileWriter, type StoredFile } from './storage-api.ts';

/**
 * Files in a directory (storage.ts). A file is written to `<key>.<random>.tmp` beside its place
 * and renamed over it when complete, so a reader never sees half a file; temp files are not
 * listed, and those a crash left are removed by the expiry sweeps that list their folder.
 */

const TEMP = /\.[0-9a-f]{12}\.tmp$/;

const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR';

/** Counts the bytes passing through. */
class ByteCounter extends Transform {
  bytes = 0;
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    done(null, chunk);
  }
}

export class LocalFileStorage implements FileStorage {
  readonly kind = 'local' as const;

  constructor(readonly root: string) {}

  /** The file of a key (checked: never outside the root). */
  pathOf(key: string): string {
    return path.join(this.root, ...checkKey(key).split('/'));
  }

  private async tempOf(key: string): Promise<{ file: string; temp: string }> {
    const file = this.pathOf(key);
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    return { file, temp: `${file}.${randomBytes(6).toString('hex')}.tmp` };
  }

  async put(key: string, body: Readable | Buffer | string): Promise<{ size: number }> {
    const { file, temp } = await this.tempOf(key);
    try {
      if (typeof body === 'string' || Buffer.isBuffer(body)) await fs.promises.writeFile(temp, body, { flag: 'wx' });
      else await pipeline(body, fs.createWriteStream(temp, { flags: 'wx' }));
      const { size } = await fs.promises.stat(temp);
      await fs.promises.rename(temp, file);
      return { size };
    } catch (error) {
      await fs.promises.rm(temp, { force: true });
      throw error;
    }
  }

  async putFile(key: string, file: string): Promise<{ size: number }> {
    const target = this.pathOf(key);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    const { size } = await fs.promises.stat(file);
    try {
      await fs.promises.rename(file, target);
    } catch (error) {
      // Another file system (EXDEV): copied beside its place, renamed over it, then removed here.
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      await this.put(key, fs.createReadStream(file));
      await fs.promises.rm(file, { force: true });
    }
    return { size };
  }

  writer(key: string): FileWriter {
    const stream = new PassThrough();
    const counter = new ByteCounter();
    const written = this.tempOf(key).then(async ({ file, temp }) => {
      try {
        await pipeline(stream, counter, fs.createWriteStream(temp, { flags: 'wx' }));
        return { file, temp };
      } catch (error) {
        await fs.promises.rm(temp, { force: true });
        throw error;
      }
    });
    // A failure is reported by done() or swallowed by abort(); never an unhandled rejection.
    written.catch(() => undefined);
    return {
      stream,
      async done() {
        if (!stream.writableEnded) stream.end();
        const { file, temp } = await written;
        await fs.promises.rename(temp, file);
        return { size: counter.bytes };
      },
      async abort() {
        stream.destroy();
        await written.catch(() => undefined);
      },
    };
  }

  async get(key: string, range?: ByteRange): Promise<Readable | null> {
    try {
      const handle = await fs.promises.open(this.pathOf(key), 'r');
      return handle.createReadStream(range ? { start: range.start, ...(range.end !== undefined ? { end: range.end } : {}) } : {});
    } catch (error) {
      if (missing(error)) return null;
      throw error;
    }
  }

  async read(key: string): Promise<Buffer | null> {
    try {
      return await fs.promises.readFile(this.pathOf(key));
    } catch (error) {
      if (missing(error)) return null;
      throw error;
    }
  }

  async stat(key: string): Promise<StoredFile | null> {
    try {
      const stat = await fs.promises.stat(this.pathOf(key));
      return stat.isFile() ? { key, size: stat.size, modifiedAt: stat.mtime } : null;
    } catch (error) {
      if (missing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.promises.rm(this.pathOf(key), { force: true });
  }

  /**
   * Walks the folder the prefix names (the part up to its last '/') and below. Temp files are
   * left out, except those older than a day: a crash left them, and listing them lets the
   * expiry sweeps remove them.
   */
  async *list(prefix: string): AsyncIterable<StoredFile> {
    const cut = prefix.lastIndexOf('/');
    const folder = cut < 0 ? '' : prefix.slice(0, cut);
    if (folder) checkKey(folder);
    const start = folder ? path.join(this.root, ...folder.split('/')) : this.root;
    const dayAgo = Date.now() - 86_400_000;
    const walk = async function* (dir: string, keyDir: string): AsyncIterable<StoredFile> {
      const entries = await fs.promises.readdir(dir, { withFileTypes: true }).catch((error: unknown) => {
        if (missing(error)) return [];
        throw error;
      });
      for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
        const key = keyDir ? `${keyDir}/${entry.name}` : entry.name;
        if (!key.startsWith(prefix) && !prefix.startsWith(`${key}/`)) continue;
        if (entry.isDirectory()) {
          yield* walk(path.join(dir, entry.name), key);
          continue;
        }
        if (!entry.isFile()) continue;
        const stat = await fs.promises.stat(path.join(dir, entry.name)).catch(() => null);
        if (!stat) continue;
        if (TEMP.test(entry.name) && stat.mtimeMs > dayAgo) continue;
        yield { key, size: stat.size, modifiedAt: stat.mtime };
      }
    };
    yield* walk(start, folder);
  }

  async check(): Promise<void> {
    try {
      await fs.promises.mkdir(this.root, { recursive: true });
      await fs.promises.access(this.root, fs.constants.W_OK);
    } catch (error) {
      throw new Error(`文件存储目录不可写：${this.root}（${(error as Error).message}）`, { cause: error });
    }
  }

  async close(): Promise<void> {}
}
