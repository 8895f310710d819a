import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ByteRange, FileStorage, FileWriter, PutOptions, StoredFile } from './storage-api.ts';

/**
 * A storage whose implementation is loaded on first use: the S3 one pulls in the AWS SDK (≈ 45 MiB
 * of the process's resident memory), which a server on a local directory never needs, so
 * storage.ts imports it only when the bucket is configured. Every call waits for the load;
 * `writer`, which answers at once, buffers its stream until the real writer is there.
 */
export class DeferredFileStorage implements FileStorage {
  private readonly real: Promise<FileStorage>;

  constructor(
    readonly kind: FileStorage['kind'],
    load: () => Promise<FileStorage>,
  ) {
    this.real = load();
    this.real.catch(() => undefined); // reported by the first call (check() at start)
  }

  async put(key: string, body: Readable | Buffer | string, options?: PutOptions) {
    return (await this.real).put(key, body, options);
  }

  async putFile(key: string, file: string, options?: PutOptions) {
    return (await this.real).putFile(key, file, options);
  }

  writer(key: string, options?: PutOptions): FileWriter {
    const stream = new PassThrough();
    const inner = this.real.then((real) => real.writer(key, options));
    const piped = inner.then((writer) => pipeline(stream, writer.stream));
    piped.catch((error: unknown) => stream.destroy(error as Error));
    return {
      stream,
      async done() {
        if (!stream.writableEnded) stream.end();
        await piped;
        return (await inner).done();
      },
      async abort() {
        stream.destroy();
        await (await inner.catch(() => null))?.abort();
      },
    };
  }

  async get(key: string, range?: ByteRange) {
    return (await this.real).get(key, range);
  }

  async read(key: string) {
    return (await this.real).read(key);
  }

  async stat(key: string) {
    return (await this.real).stat(key);
  }

  async delete(key: string) {
    return (await this.real).delete(key);
  }

  async *list(prefix: string): AsyncIterable<StoredFile> {
    yield* (await this.real).list(prefix);
  }

  async check() {
    return (await this.real).check();
  }

  async close() {
    return (await this.real.catch(() => null))?.close();
  }
}
