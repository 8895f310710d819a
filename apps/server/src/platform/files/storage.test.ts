import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { parseRange } from './range.ts';
import { startTestS3Server, type TestS3Server } from './s3-test-server.ts';
import { checkKey, deleteOlderThan, downloadTo, openFileStorage, type FileStorage } from './storage.ts';

/** Bytes that differ along the file (a misplaced part or range shows). */
function* numbered(chunks: number, chunkBytes: number): Generator<Buffer> {
  for (let i = 0; i < chunks; i++) yield Buffer.alloc(chunkBytes, `${i % 10}`);
}

async function text(body: Readable | null): Promise<string> {
  if (!body) throw new Error('no body');
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function keys(store: FileStorage, prefix: string): Promise<string[]> {
  const out: string[] = [];
  for await (const file of store.list(prefix)) out.push(file.key);
  return out;
}

let s3: TestS3Server;
let dataDir: string;
const stores: Record<'local' | 's3', () => FileStorage> = {
  local: () => openFileStorage({ dataDir, files: { kind: 'local', dir: undefined } }),
  s3: () => openFileStorage({ dataDir, files: s3.config }),
};

beforeAll(async () => {
  s3 = await startTestS3Server({ prefix: 'inst-a/' });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-files-'));
});

afterAll(async () => {
  await s3.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe.each(['local', 's3'] as const)('file storage (%s)', (kind) => {
  let store: FileStorage;
  beforeAll(() => {
    store = stores[kind]();
  });
  afterAll(() => store.close());

  it('stores a stream of several parts and reads it back whole and by range', async () => {
    // 3 × 4 MiB: more than one 8 MiB part, so S3 mode goes through a multipart upload.
    const { size } = await store.put(`${kind}/big.bin`, Readable.from(numbered(3, 4 * 1024 * 1024)));
    expect(size).toBe(12 * 1024 * 1024);
    expect((await store.stat(`${kind}/big.bin`))?.size).toBe(12 * 1024 * 1024);
    expect(await text(await store.get(`${kind}/big.bin`, { start: 4 * 1024 * 1024 - 2, end: 4 * 1024 * 1024 + 1 }))).toBe('0011');
    let whole = 0;
    for await (const chunk of (await store.get(`${kind}/big.bin`))!) whole += (chunk as Buffer).length;
    expect(whole).toBe(12 * 1024 * 1024);
  });

  it('writes through a writer and shows nothing until it is done', async () => {
    const writer = store.writer(`${kind}/exports/1.csv`, { contentType: 'text/csv' });
    writer.stream.write('名称,数量\r\n');
    expect(await store.stat(`${kind}/exports/1.csv`)).toBeNull();
    writer.stream.write('广东,3\r\n');
    expect(await writer.done()).toEqual({ size: Buffer.byteLength('名称,数量\r\n广东,3\r\n') });
    expect(await text(await store.get(`${kind}/exports/1.csv`))).toBe('名称,数量\r\n广东,3\r\n');
  });

  it('an aborted writer leaves no file', async () => {
    const writer = store.writer(`${kind}/exports/2.csv`);
    writer.stream.write('half');
    await writer.abort();
    expect(await store.stat(`${kind}/exports/2.csv`)).toBeNull();
    expect(await keys(store, `${kind}/exports/`)).toEqual([`${kind}/exports/1.csv`]);
  });

  it('a failing source stores nothing', async () => {
    const failing = Readable.from(
      (async function* () {
        yield Buffer.from('start');
        throw new Error('source broke');
      })(),
    );
    await expect(store.put(`${kind}/broken.txt`, failing)).rejects.toThrow();
    expect(await store.stat(`${kind}/broken.txt`)).toBeNull();
  });

  it('answers null for a missing file, replaces, lists by prefix, deletes and copies to a local path', async () => {
    expect(await store.get(`${kind}/none.jpg`)).toBeNull();
    expect(await store.read(`${kind}/none.jpg`)).toBeNull();
    await store.delete(`${kind}/none.jpg`);
    await store.put(`${kind}/img/a.jpg`, Buffer.from('first'));
    await store.put(`${kind}/img/a.jpg`, Buffer.from('second'));
    await store.put(`${kind}/img/b.jpg`, 'bee');
    await store.put(`${kind}/imgs.txt`, 'not under img/');
    expect((await store.read(`${kind}/img/a.jpg`))?.toString()).toBe('second');
    expect(await keys(store, `${kind}/img/`)).toEqual([`${kind}/img/a.jpg`, `${kind}/img/b.jpg`]);
    const local = path.join(dataDir, 'staging', `${kind}-b.jpg`);
    expect(await downloadTo(store, `${kind}/img/b.jpg`, local)).toBe(true);
    expect(fs.readFileSync(local, 'utf8')).toBe('bee');
    expect(await deleteOlderThan(store, `${kind}/img/`, new Date(Date.now() + 60_000))).toBe(2);
    expect(await keys(store, `${kind}/img/`)).toEqual([]);
    expect(await store.stat(`${kind}/imgs.txt`)).not.toBeNull();
  });

  it('moves a finished local file in, replacing the file under its key, and the local file is gone', async () => {
    const local = path.join(dataDir, `${kind}-finished.csv`);
    fs.writeFileSync(local, '手机号\r\n13800000000\r\n');
    await store.put(`${kind}/moved/1.csv`, 'old');
    expect(await store.putFile(`${kind}/moved/1.csv`, local)).toEqual({ size: Buffer.byteLength('手机号\r\n13800000000\r\n') });
    expect(fs.existsSync(local)).toBe(false);
    expect((await store.read(`${kind}/moved/1.csv`))?.toString()).toBe('手机号\r\n13800000000\r\n');
    await expect(store.putFile(`${kind}/moved/2.csv`, path.join(dataDir, 'none.csv'))).rejects.toThrow();
    expect(await store.stat(`${kind}/moved/2.csv`)).toBeNull();
  });

  it('refuses keys that would leave the storage', async () => {
    for (const key of ['../secret', '/etc/passwd', 'a/../../b', 'a\\b', '']) expect(() => checkKey(key)).toThrow(/invalid file key/);
    await expect(store.put('../x', 'no')).rejects.toThrow(/invalid file key/);
  });
});

describe('where the files land', () => {
  it('local mode: files under the data directory at the key path', () => {
    expect(fs.readFileSync(path.join(dataDir, 'local', 'exports', '1.csv'), 'utf8')).toContain('广东');
    expect(fs.statSync(path.join(dataDir, 'local', 'big.bin')).size).toBe(12 * 1024 * 1024);
  });

  it('s3 mode: objects in the bucket under the prefix, nothing in the data directory', async () => {
    expect(s3.objectKeys()).toEqual(['inst-a/s3/big.bin', 'inst-a/s3/exports/1.csv', 'inst-a/s3/imgs.txt', 'inst-a/s3/moved/1.csv']);
    expect(fs.existsSync(path.join(dataDir, 's3'))).toBe(false);
    // Read back by a second client, as another process would.
    const other = openFileStorage({ dataDir: '/nonexistent', files: s3.config });
    const copy = path.join(dataDir, 'copy.csv');
    await pipeline((await other.get('s3/exports/1.csv'))!, fs.createWriteStream(copy));
    expect(fs.readFileSync(copy, 'utf8')).toBe('名称,数量\r\n广东,3\r\n');
    await other.close();
  });
});

describe('file storage settings', () => {
  it('defaults to the data directory, or SHUTU_FILES_DIR', () => {
    expect(loadConfig({}).files).toEqual({ kind: 'local', dir: undefined });
    expect(loadConfig({ SHUTU_FILES_DIR: '/mnt/shared/shutu' }).files).toEqual({ kind: 'local', dir: '/mnt/shared/shutu' });
  });

  it('reads the bucket settings, path style on with an endpoint, the prefix ending in /', () => {
    const env = { SHUTU_FILE_STORAGE: 's3', SHUTU_S3_BUCKET: 'bi-files', SHUTU_S3_ENDPOINT: 'http://minio:9000', SHUTU_S3_PREFIX: '/prod' };
    expect(loadConfig(env).files).toEqual({
      kind: 's3',
      bucket: 'bi-files',
      endpoint: 'http://minio:9000',
      region: 'us-east-1',
      accessKeyId: undefined,
      secretAccessKey: undefined,
      forcePathStyle: true,
      prefix: 'prod/',
    });
    expect(loadConfig({ SHUTU_FILE_STORAGE: 'S3', SHUTU_S3_BUCKET: 'b', SHUTU_S3_REGION: 'cn-north-1' }).files).toMatchObject({
      forcePathStyle: false,
      region: 'cn-north-1',
      prefix: '',
    });
    expect(loadConfig({ ...env, SHUTU_S3_PATH_STYLE: 'false' }).files).toMatchObject({ forcePathStyle: false });
  });

  it('checks at start that the bucket answers, or the directory can be written', async () => {
    const good = openFileStorage({ dataDir, files: s3.config });
    await expect(good.check()).resolves.toBeUndefined();
    await good.close();
    const missing = openFileStorage({ dataDir, files: { ...s3.config, bucket: 'no-such-bucket' } });
    await expect(missing.check()).rejects.toThrow(`无法访问 S3 存储桶 no-such-bucket（${s3.config.endpoint}）：存储桶不存在`);
    await missing.close();
    await expect(openFileStorage({ dataDir, files: { kind: 'local', dir: undefined } }).check()).resolves.toBeUndefined();
    fs.writeFileSync(path.join(dataDir, 'a-file'), '');
    await expect(openFileStorage({ dataDir, files: { kind: 'local', dir: path.join(dataDir, 'a-file', 'x') } }).check()).rejects.toThrow(
      /^文件存储目录不可写：/,
    );
  });

  it('stops the start with a Chinese message for a wrong kind or a missing bucket', () => {
    expect(() => loadConfig({ SHUTU_FILE_STORAGE: 'ftp' })).toThrow('SHUTU_FILE_STORAGE: 只能是 local 或 s3（当前：ftp）');
    expect(() => loadConfig({ SHUTU_FILE_STORAGE: 's3' })).toThrow('SHUTU_S3_BUCKET: 文件存储为 s3 时必须填写存储桶名称');
  });
});

describe('download ranges', () => {
  it('reads one byte range of the Range header against the size', () => {
    expect(parseRange(undefined, 100)).toBeNull();
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=90-500', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable');
    // Not one plain byte range: the whole file.
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(parseRange('items=0-1', 100)).toBeNull();
    expect(parseRange('bytes=9-2', 100)).toBeNull();
  });
});
