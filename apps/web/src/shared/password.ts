import SparkMD5 from 'spark-md5';

/** The browser never sends a password in clear: every password field goes out as its MD5 hex. */
export function md5Hex(password: string): string {
  return SparkMD5.hash(password);
}

/** Returns a copy of `values` with the named password fields replaced by their MD5 hex. */
export function hashPasswordFields<T extends object, K extends keyof T>(values: T, keys: readonly K[]): T {
  const out = { ...values };
  for (const key of keys) {
    const value = out[key];
    if (typeof value === 'string') out[key] = md5Hex(value) as T[K];
  }
  return out;
}
