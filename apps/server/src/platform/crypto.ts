import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config.ts';

/**
 * Secrets at rest (data-source passwords): AES-256-GCM with a key kept outside the metadata
 * store, so a copy of the database alone reveals nothing. The key is SHUTU_SECRET_KEY (base64
 * of 32 bytes) or else dataDir/keys/secret.key, created with mode 0600 on first start. Every
 * process that reads the same store (serve, worker) needs the same key.
 */
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Format tag of a stored secret: `v1:` + base64(iv | tag | ciphertext). */
const PREFIX = 'v1:';

export class SecretKeyError extends Error {
  override name = 'SecretKeyError';
}

/** A secret that cannot be decrypted: tampered with, truncated, or encrypted with another key. */
export class DecryptError extends Error {
  override name = 'DecryptError';
}

function decodeKey(text: string, where: string): Buffer {
  const trimmed = text.trim();
  // Node's decoder skips characters that are not base64; check the alphabet first.
  const key = /^[A-Za-z0-9+/]+={0,2}$/.test(trimmed) ? Buffer.from(trimmed, 'base64') : Buffer.alloc(0);
  if (key.length !== KEY_BYTES) {
    throw new SecretKeyError(`${where} 须为 base64 编码的 ${KEY_BYTES} 字节密钥`);
  }
  return key;
}

export function secretKeyFile(dataDir: string): string {
  return path.join(dataDir, 'keys', 'secret.key');
}

/** Reads the key file, creating it (directory 0700, file 0600) with a random key when missing. */
function keyFromFile(file: string): Buffer {
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    try {
      // 'wx': two processes starting together cannot both write a key; the loser reads the winner's.
      fs.writeFileSync(file, `${randomBytes(KEY_BYTES).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return decodeKey(fs.readFileSync(file, 'utf8'), `密钥文件 ${file}`);
}

const cache = new Map<string, Buffer>();

/** The key for this configuration: SHUTU_SECRET_KEY, else the key file (created on first use). */
export function resolveSecretKey(config: Pick<Config, 'dataDir' | 'secretKey'>): Buffer {
  const id = config.secretKey ? `env:${config.secretKey}` : `file:${secretKeyFile(config.dataDir)}`;
  let key = cache.get(id);
  if (!key) {
    key = config.secretKey ? decodeKey(config.secretKey, 'SHUTU_SECRET_KEY') : keyFromFile(secretKeyFile(config.dataDir));
    cache.set(id, key);
  }
  return key;
}

/**
 * Encrypts `plaintext`. `context` is bound as additional data: a ciphertext made for one
 * purpose does not decrypt for another.
 */
export function encryptSecret(key: Buffer, plaintext: string, context = 'shutu'): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

/** Decrypts what `encryptSecret` made; throws DecryptError when the text was altered or the key differs. */
export function decryptSecret(key: Buffer, stored: string, context = 'shutu'): string {
  if (!stored.startsWith(PREFIX)) throw new DecryptError('unknown secret format');
  const raw = Buffer.from(stored.slice(PREFIX.length), 'base64');
  if (raw.length < IV_BYTES + TAG_BYTES) throw new DecryptError('secret too short');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch (error) {
    throw new DecryptError('secret does not decrypt with this key', { cause: error });
  }
}
