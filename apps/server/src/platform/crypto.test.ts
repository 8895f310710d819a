import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DecryptError, SecretKeyError, decryptSecret, encryptSecret, resolveSecretKey, secretKeyFile } from './crypto.ts';

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-crypto-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

describe('secrets at rest', () => {
  const key = randomBytes(32);

  it('round-trips text, Chinese and empty strings included, with a fresh IV every time', () => {
    for (const text of ['p@ss w0rd', '中文密码🔐', '', 'x'.repeat(5000)]) {
      const stored = encryptSecret(key, text);
      expect(stored.startsWith('v1:')).toBe(true);
      expect(decryptSecret(key, stored)).toBe(text);
    }
    const a = encryptSecret(key, 'same');
    const b = encryptSecret(key, 'same');
    expect(a).not.toBe(b);
    expect(a).not.toContain('same');
  });

  it('detects tampering: a flipped bit, a truncated text or another format', () => {
    const stored = encryptSecret(key, 'secret-password');
    const raw = Buffer.from(stored.slice(3), 'base64');
    for (const index of [0, 12, 28, raw.length - 1]) {
      const bad = Buffer.from(raw);
      bad[index] = bad[index]! ^ 1;
      expect(() => decryptSecret(key, `v1:${bad.toString('base64')}`), `byte ${index}`).toThrow(DecryptError);
    }
    expect(() => decryptSecret(key, `v1:${raw.subarray(0, 20).toString('base64')}`)).toThrow(DecryptError);
    expect(() => decryptSecret(key, 'secret-password')).toThrow(DecryptError);
  });

  it('refuses another key and another context', () => {
    const stored = encryptSecret(key, 'secret-password', 'datasource');
    expect(() => decryptSecret(randomBytes(32), stored, 'datasource')).toThrow(DecryptError);
    expect(() => decryptSecret(key, stored, 'other')).toThrow(DecryptError);
    expect(decryptSecret(key, stored, 'datasource')).toBe('secret-password');
  });

  it('creates the key file once, mode 0600, and reads the same key back', () => {
    const dataDir = tempDir();
    const first = resolveSecretKey({ dataDir, secretKey: undefined });
    const file = secretKeyFile(dataDir);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o077).toBe(0);
    expect(first).toHaveLength(32);
    expect(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64').equals(first)).toBe(true);
    // Another process (no cache) reading the file gets the same key.
    const copyDir = tempDir();
    fs.mkdirSync(path.join(copyDir, 'keys'));
    fs.copyFileSync(file, secretKeyFile(copyDir));
    expect(resolveSecretKey({ dataDir: copyDir, secretKey: undefined }).equals(first)).toBe(true);
  });

  it('prefers SHUTU_SECRET_KEY and writes no file then; refuses a key that is not 32 bytes of base64', () => {
    const dataDir = tempDir();
    const envKey = randomBytes(32);
    expect(resolveSecretKey({ dataDir, secretKey: envKey.toString('base64') }).equals(envKey)).toBe(true);
    expect(fs.existsSync(secretKeyFile(dataDir))).toBe(false);
    expect(() => resolveSecretKey({ dataDir, secretKey: randomBytes(16).toString('base64') })).toThrow(SecretKeyError);
    expect(() => resolveSecretKey({ dataDir, secretKey: 'not base64 at all!' })).toThrow(SecretKeyError);
    const broken = tempDir();
    fs.mkdirSync(path.join(broken, 'keys'));
    fs.writeFileSync(secretKeyFile(broken), 'short');
    expect(() => resolveSecretKey({ dataDir: broken, secretKey: undefined })).toThrow(/密钥文件/);
  });
});
