import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { FileStorageConfig } from '../config.ts';

/**
 * A local S3-protocol server for tests (s3rver: objects as files in a temp directory), with
 * one bucket. `config` is the file-storage setting that points the server at it; `objectFile`
 * tells where an object really landed, so a test can check the bucket rather than our own
 * client's answer.
 */
export interface TestS3Server {
  config: Extract<FileStorageConfig, { kind: 's3' }>;
  /** The bucket's objects (keys as the bucket holds them, prefix included). */
  objectKeys(): string[];
  stop(): Promise<void>;
}

const BUCKET = 'shutu-test';

export async function startTestS3Server(options: { prefix?: string } = {}): Promise<TestS3Server> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-s3-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: BUCKET, configs: [] }] });
  const { port } = await server.run();
  const bucketDir = path.join(directory, BUCKET);
  return {
    config: {
      kind: 's3',
      bucket: BUCKET,
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      // s3rver's fixed credentials
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
      prefix: options.prefix ?? '',
    },
    objectKeys() {
      // s3rver keeps an object as `<key>._S3rver_object` beside its metadata files.
      const keys: string[] = [];
      const walk = (dir: string, prefix: string) => {
        for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
          if (entry.isDirectory()) walk(path.join(dir, entry.name), `${prefix}${entry.name}/`);
          else if (entry.name.endsWith('._S3rver_object')) keys.push(`${prefix}${entry.name.slice(0, -'._S3rver_object'.length)}`);
        }
      };
      if (fs.existsSync(bucketDir)) walk(bucketDir, '');
      return keys.sort();
    },
    async stop() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
