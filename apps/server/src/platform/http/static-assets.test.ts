import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import type { App } from '../../context.ts';
import { createTestServer, type TestServer } from '../../../test/harness.ts';
import { pickEncoding } from './static-assets.ts';

/**
 * The web build as `npm start` serves it (issue 26): hashed assets cached for a year and
 * immutable, sent precompressed (br / gzip as the client accepts); index.html and public files
 * revalidated; JSON answers of 1 kB or more compressed, small ones not.
 */
describe('web assets and compression', () => {
  let server: TestServer;
  let app: App;
  let webDist: string;
  const script = `export const rows = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ 省份: `省份${i}`, 金额: i * 7 })))};\n`;
  const html = `<!doctype html><html lang="zh-CN"><head><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div>${' '.repeat(2000)}</body></html>`;

  beforeAll(async () => {
    server = await createTestServer('pglite');
    webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'shutu-web-'));
    fs.mkdirSync(path.join(webDist, 'assets'));
    // As the build writes them: the file, and a .br and a .gz beside it.
    for (const [file, body] of [
      ['index.html', html],
      ['assets/index-Ab12Cd34.js', script],
    ] as const) {
      fs.writeFileSync(path.join(webDist, file), body);
      fs.writeFileSync(path.join(webDist, `${file}.br`), zlib.brotliCompressSync(body));
      fs.writeFileSync(path.join(webDist, `${file}.gz`), zlib.gzipSync(body));
    }
    fs.writeFileSync(path.join(webDist, 'zod-jitless.js'), 'globalThis.x = 1;\n');
    app = await buildApp({ ...server.ctx, config: { ...server.ctx.config, webDist } });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await server?.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    app.inject({ method: 'GET', url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

  it('sends a hashed asset for a year, immutable, brotli-compressed when accepted', async () => {
    const res = await get('/assets/index-Ab12Cd34.js', 'gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBe('br');
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    expect(String(res.headers['content-type'])).toMatch(/javascript/);
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(script);
    expect(res.rawPayload.length).toBeLessThan(Buffer.byteLength(script) / 3);
  });

  it('sends the gzip copy to a client without br, and the file itself to one that accepts neither', async () => {
    const gz = await get('/assets/index-Ab12Cd34.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(script);
    const plain = await get('/assets/index-Ab12Cd34.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('revalidates index.html on every client-side route, and public files', async () => {
    for (const url of ['/login', '/share/abcdefghij', '/newbi/preview/3']) {
      const res = await get(url, 'br');
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-encoding']).toBe('br');
      expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(html);
    }
    const publicFile = await get('/zod-jitless.js');
    expect(publicFile.headers['cache-control']).toBe('no-cache');
  });

  it('answers a missing hashed asset with 404, not the page', async () => {
    const res = await get('/assets/index-old0000.js', 'br');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, msg: '接口不存在' });
  });

  it('compresses JSON answers of 1 kB and more (gzip first, br otherwise), not small ones', async () => {
    const plain = await get('/api/docs');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    const gz = await get('/api/docs', 'gzip, deflate, br');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(String(gz.headers.vary)).toMatch(/accept-encoding/i);
    expect(Number(gz.headers['content-length'])).toBe(gz.rawPayload.length);
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    const br = await get('/api/docs', 'br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const small = await get('/api/health', 'gzip, br');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toMatchObject({ success: true, data: { status: 'ok' } });
  });

  it('reads accept-encoding with its q-values', () => {
    expect(pickEncoding('gzip, deflate, br')).toBe('gzip');
    expect(pickEncoding('br;q=1.0, gzip;q=0')).toBe('br');
    expect(pickEncoding('identity')).toBeUndefined();
    expect(pickEncoding(undefined)).toBeUndefined();
  });
});
