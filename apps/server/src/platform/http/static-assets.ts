import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';

/**
 * The web app's files and the compression of JSON answers (issue 26, docs/web-performance.md).
 *
 * - Files under `assets/` carry a content hash in their name (Vite), so they never change:
 *   cached for a year, `immutable` (no revalidation on reload). Everything else (index.html, the
 *   files of `public/`) is `no-cache`: revalidated each time, so a new build is seen at once.
 * - The build writes a brotli (.br) and a gzip (.gz) copy of each text file of 1 kB or more
 *   (apps/web/vite.config.ts); @fastify/static sends the one the client accepts with
 *   `content-encoding` and `vary: accept-encoding`. No compression work per request.
 * - JSON answers of 1 kB or more are compressed when the client accepts it: gzip first (on a
 *   5.5 kB chart answer about as small as brotli at quality 1 and cheaper), brotli at quality 1
 *   otherwise. Small answers (the cached chart answers under load are mostly small, and a 200-byte
 *   envelope gains nothing) and streams (file downloads, exports) are left as they are. Bodies of
 *   64 kB or more are compressed on libuv's thread pool, not on the event loop.
 */

export const HASHED_ASSET_CACHE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';
/** JSON bodies below this many bytes are sent as they are. */
export const JSON_COMPRESS_THRESHOLD = 1024;
const OFF_THREAD_BYTES = 64 * 1024;

const gzipAsync = promisify(zlib.gzip);
const brotliAsync = promisify(zlib.brotliCompress);
const BROTLI_OPTIONS = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } };
// Level 1: each answer is compressed on the event loop once per request; on a 24 kB preview answer
// 0.31 ms instead of 0.49 ms at level 6, 15 % larger (5.0 kB instead of 4.4 kB) — issue 26.
const GZIP_OPTIONS = { level: 1 };

/** Serves the built web app from `root`; hashed assets for a year, the rest revalidated. */
export async function serveWebAssets(app: FastifyInstance, root: string): Promise<void> {
  const assets = `${path.join(root, 'assets')}${path.sep}`;
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    preCompressed: true,
    // send's own `public, max-age=0` replaced by ours.
    cacheControl: false,
    setHeaders(res, filePath) {
      res.setHeader('cache-control', filePath.startsWith(assets) ? HASHED_ASSET_CACHE : REVALIDATE);
      // The same address answers br, gzip or plain by the request's accept-encoding: caches must key on it.
      res.setHeader('vary', 'Accept-Encoding');
    },
  });
}

/** A request for a hashed asset that is not there (an old build's chunk): a 404, never index.html. */
export function isAssetPath(url: string): boolean {
  return url.startsWith('/assets/');
}

type Encoding = 'gzip' | 'br';

/** gzip when accepted (q > 0), else br, else none. */
export function pickEncoding(acceptEncoding: string | string[] | undefined): Encoding | undefined {
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : (acceptEncoding ?? '');
  const accepted = new Set<string>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && (q === undefined || Number(q.slice(2)) > 0)) accepted.add(name);
  }
  if (accepted.has('gzip')) return 'gzip';
  if (accepted.has('br')) return 'br';
  return undefined;
}

function addVary(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  const current = Array.isArray(vary) ? vary.join(', ') : vary === undefined ? '' : String(vary);
  if (!/(^|,)\s*accept-encoding\s*(,|$)/i.test(current)) reply.header('vary', current ? `${current}, Accept-Encoding` : 'Accept-Encoding');
}

/** Compresses JSON answers of JSON_COMPRESS_THRESHOLD bytes or more for clients that accept gzip or br. */
export function installJsonCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const type = reply.getHeader('content-type');
    if (typeof type !== 'string' || !type.startsWith('application/json') || reply.hasHeader('content-encoding')) return payload;
    const size = Buffer.byteLength(payload);
    if (size < JSON_COMPRESS_THRESHOLD) return payload;
    addVary(reply);
    const encoding = pickEncoding(request.headers['accept-encoding']);
    if (!encoding) return payload;
    const body =
      size >= OFF_THREAD_BYTES
        ? await (encoding === 'gzip' ? gzipAsync(payload, GZIP_OPTIONS) : brotliAsync(payload, BROTLI_OPTIONS))
        : encoding === 'gzip'
          ? zlib.gzipSync(payload, GZIP_OPTIONS)
          : zlib.brotliCompressSync(payload, BROTLI_OPTIONS);
    reply.header('content-encoding', encoding);
    reply.header('content-length', body.length);
    return body;
  });
}
