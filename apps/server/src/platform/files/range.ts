import type { ByteRange } from './storage-api.ts';

/**
 * The HTTP `Range` header of a download (RFC 9110 §14), one range of bytes: `bytes=0-99`,
 * `bytes=100-` (to the end), `bytes=-100` (the last 100). Null when there is none or it is not a
 * single byte range (the whole file is sent, as the RFC allows); 'unsatisfiable' when it starts
 * past the end (answered 416, its Content-Range naming the size).
 */
export function parseRange(header: string | undefined, size: number): Required<ByteRange> | 'unsatisfiable' | null {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const last = Number(m[2]);
    if (last === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - last), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size) return 'unsatisfiable';
  if (end < start) return null;
  return { start, end };
}
