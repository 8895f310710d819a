import type { Readable, Writable } from 'node:stream';

/**
 * The file storage interface and its key rule (storage.ts says what is stored and why);
 * apart from the factories so the implementations need not import them.
 */

export interface StoredFile {
  key: string;
  size: number;
  modifiedAt: Date;
}

/** A byte range, both ends included (HTTP's Range). */
export interface ByteRange {
  start: number;
  end?: number;
}

/** A file being written from a stream: readers see nothing until `done()` resolves, then the whole file. */
export interface FileWriter {
  stream: Writable;
  /** Ends the stream and waits until the file is stored; its size in bytes. */
  done(): Promise<{ size: number }>;
  /** Gives the write up: nothing is stored (a half-written upload is aborted). */
  abort(): Promise<void>;
}

export interface PutOptions {
  contentType?: string;
}

export interface FileStorage {
  readonly kind: 'local' | 's3';
  /** Stores `body` under `key`, replacing any file there (atomically: a reader sees the old file or the new one). */
  put(key: string, body: Readable | Buffer | string, options?: PutOptions): Promise<{ size: number }>;
  /**
   * Moves a finished local file into the storage under `key` (atomically, as put): the file is
   * gone afterwards. A directory on the same file system takes it by a rename — no byte copied
   * (a 700 MiB order export took 1.5 s to copy); otherwise it is copied, or uploaded, then removed.
   */
  putFile(key: string, file: string, options?: PutOptions): Promise<{ size: number }>;
  /** A stream to write `key` through (a workbook writer, a CSV writer): see FileWriter. */
  writer(key: string, options?: PutOptions): FileWriter;
  /** The file as a stream (a range of it when asked), or null when there is none. */
  get(key: string, range?: ByteRange): Promise<Readable | null>;
  /** A small file whole (an image to attach); null when there is none. */
  read(key: string): Promise<Buffer | null>;
  stat(key: string): Promise<StoredFile | null>;
  /** Removes the file; a missing file is no error. */
  delete(key: string): Promise<void>;
  /** Every file whose key starts with `prefix` ('thumbnails/'), in pages, never all at once. */
  list(prefix: string): AsyncIterable<StoredFile>;
  /**
   * At start: the directory can be written, or the bucket answers with these credentials;
   * else an Error with a Chinese message naming what failed (the start stops).
   */
  check(): Promise<void>;
  /** Releases connections (S3 client); the store is not used after. */
  close(): Promise<void>;
}

const KEY = /^[A-Za-z0-9_\-.]+(\/[A-Za-z0-9_\-.]+)*$/;

/** Refuses keys that could leave the storage root ('..', absolute paths, odd characters): keys are made by the server, never by a user. */
export function checkKey(key: string): string {
  if (!KEY.test(key) || key.split('/').some((part) => part === '.' || part === '..')) throw new Error(`invalid file key: ${JSON.stringify(key)}`);
  return key;
}
