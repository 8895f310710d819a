import fs from 'node:fs';
import { PassThrough, Readable, Transform, type TransformCallback } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { FileStorageConfig } from '../config.ts';
import { checkKey, type ByteRange, type FileStorage, type FileWriter, type PutOptions, type StoredFile } from './storage-api.ts';

/**
 * Files as objects of an S3-compatible bucket (storage.ts). Writes go through lib-storage's
 * Upload: a stream is cut into 8 MiB parts, at most 2 in flight (multipart above one part), so
 * memory stays bounded whatever the size; an object appears only when the upload completes,
 * and a failed or aborted upload is aborted on the server (no orphan parts left behind).
 * Reads are GetObject bodies handed on as streams.
 *
 * The SDK's default integrity checksums (CRC32 headers, aws-chunked bodies) are only sent when
 * an operation requires them: many S3-compatible servers reject the newer headers.
 */

type S3Config = Extract<FileStorageConfig, { kind: 's3' }>;

const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;

const notFound = (error: unknown) =>
  error instanceof S3ServiceException && (error.$metadata.httpStatusCode === 404 || error.name === 'NoSuchKey' || error.name === 'NotFound');

/** Counts the bytes passing through. */
class ByteCounter extends Transform {
  bytes = 0;
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    done(null, chunk);
  }
}

export class S3FileStorage implements FileStorage {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  readonly bucket: string;
  private readonly prefix: string;
  private readonly endpoint: string | undefined;

  constructor(config: S3Config) {
    this.bucket = config.bucket;
    this.prefix = config.prefix;
    this.endpoint = config.endpoint;
    this.client = new S3Client({
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      ...(config.accessKeyId && config.secretAccessKey ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } } : {}),
    });
  }

  /** The object key of a file key (after the configured prefix). */
  objectKey(key: string): string {
    return `${this.prefix}${checkKey(key)}`;
  }

  private upload(key: string, body: Readable | Buffer | string, options?: PutOptions): Upload {
    return new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: this.objectKey(key), Body: body, ...(options?.contentType ? { ContentType: options.contentType } : {}) },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
    });
  }

  async put(key: string, body: Readable | Buffer | string, options?: PutOptions): Promise<{ size: number }> {
    if (typeof body === 'string' || Buffer.isBuffer(body)) {
      await this.upload(key, body, options).done();
      return { size: Buffer.byteLength(body) };
    }
    const counter = new ByteCounter();
    const upload = this.upload(key, body.pipe(counter), options);
    body.once('error', (error) => counter.destroy(error));
    await upload.done();
    return { size: counter.bytes };
  }

  async putFile(key: string, file: string, options?: PutOptions): Promise<{ size: number }> {
    const stored = await this.put(key, fs.createReadStream(file), options);
    await fs.promises.rm(file, { force: true });
    return stored;
  }

  writer(key: string, options?: PutOptions): FileWriter {
    const stream = new PassThrough();
    const counter = new ByteCounter();
    stream.once('error', (error) => counter.destroy(error));
    const upload = this.upload(key, stream.pipe(counter), options);
    const finished = upload.done();
    // A failed upload stops reading: fail the writer's next write rather than leave it waiting for 'drain'.
    finished.catch((error: unknown) => stream.destroy(error as Error));
    return {
      stream,
      async done() {
        if (!stream.writableEnded) stream.end();
        await finished;
        return { size: counter.bytes };
      },
      async abort() {
        await upload.abort().catch(() => undefined);
        stream.destroy();
        counter.destroy();
        await finished.catch(() => undefined);
      },
    };
  }

  async get(key: string, range?: ByteRange): Promise<Readable | null> {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key), ...(range ? { Range: `bytes=${range.start}-${range.end ?? ''}` } : {}) }),
      );
      return answer.Body as Readable;
    } catch (error) {
      if (notFound(error)) return null;
      throw error;
    }
  }

  async read(key: string): Promise<Buffer | null> {
    const body = await this.get(key);
    if (!body) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async stat(key: string): Promise<StoredFile | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return { key, size: head.ContentLength ?? 0, modifiedAt: head.LastModified ?? new Date(0) };
    } catch (error) {
      if (notFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  async *list(prefix: string): AsyncIterable<StoredFile> {
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: `${this.prefix}${prefix}`, ContinuationToken: token }));
      for (const object of page.Contents ?? []) {
        if (!object.Key) continue;
        yield { key: object.Key.slice(this.prefix.length), size: object.Size ?? 0, modifiedAt: object.LastModified ?? new Date(0) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      const status = error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
      const why = status === 404 ? '存储桶不存在' : status === 403 ? '无权访问（请检查访问密钥）' : (error as Error).message || (error as Error).name;
      throw new Error(`无法访问 S3 存储桶 ${this.bucket}（${this.endpoint ?? 'AWS'}）：${why}`, { cause: error });
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
