import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BOARD_STATE_ATTRIBUTE } from '@shutu/contracts';

/**
 * Test support: a tiny web server on 127.0.0.1 standing in for the web app, so renderer
 * tests need neither the built web app nor engineer-facing pages. Each page sets
 * `data-board-state` the way the real preview does: 'loading' first, then its final state
 * after `delay` milliseconds (from the query), or never.
 */
export interface TestPages {
  url: string;
  /** Requests seen, by path (without the query). */
  hits: Map<string, number>;
  /** The full URLs requested, in order. */
  requested: string[];
  close(): Promise<void>;
}

const page = (body: string, finalState: string | null, delayMs: number) => `<!doctype html>
<html lang="zh-CN" ${BOARD_STATE_ATTRIBUTE}="loading">
<head><meta charset="utf-8"><title>测试页</title>
<style>
  html, body { margin: 0; height: 100%; }
  body { font-family: 'Noto Sans CJK SC', sans-serif; background: #0b1f3a; color: #fff; }
  h1 { margin: 0; padding: 40px; font-size: 48px; }
  .bar { position: absolute; left: 0; bottom: 0; width: 50%; height: 30%; background: #f5a623; }
</style></head>
<body><h1>${body}</h1><div class="bar"></div>
<script>
  ${finalState === null ? '' : `setTimeout(() => document.documentElement.setAttribute('${BOARD_STATE_ATTRIBUTE}', '${finalState}'), ${delayMs});`}
</script></body></html>`;

/**
 * Routes: /ready, /never, /refused, /error, /missing (404), and /openview/:id (ready; the
 * thumbnail job's target). `?delay=ms` delays the final state (default 50).
 */
export async function startTestPages(): Promise<TestPages> {
  const hits = new Map<string, number>();
  const requested: string[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    requested.push(url.pathname + url.search);
    const delay = Number(url.searchParams.get('delay') ?? 50);
    const send = (status: number, html: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html);
    };
    if (url.pathname === '/ready') return send(200, page('销售数据大屏：华东地区', 'ready', delay));
    if (url.pathname === '/never') return send(200, page('一直加载中', null, 0));
    if (url.pathname === '/refused') return send(200, page('没有此大屏权限', 'refused', delay));
    if (url.pathname === '/error') return send(200, page('加载失败', 'error', delay));
    const board = /^\/openview\/(\d+)$/.exec(url.pathname);
    if (board) return send(200, page(`大屏 ${board[1]} 的缩略图`, 'ready', delay));
    return send(404, '<!doctype html><title>404</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    requested,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Width and height of a PNG (IHDR) or baseline/progressive JPEG (SOF marker). */
export function imageSize(image: Buffer): { format: 'png' | 'jpeg'; width: number; height: number } {
  if (image.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return { format: 'png', width: image.readUInt32BE(16), height: image.readUInt32BE(20) };
  }
  if (image[0] === 0xff && image[1] === 0xd8) {
    let offset = 2;
    while (offset + 9 < image.length) {
      if (image[offset] !== 0xff) throw new Error('not a JPEG marker');
      const marker = image[offset + 1]!;
      const length = image.readUInt16BE(offset + 2);
      // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC).
      if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
        return { format: 'jpeg', height: image.readUInt16BE(offset + 5), width: image.readUInt16BE(offset + 7) };
      }
      offset += 2 + length;
    }
  }
  throw new Error('neither PNG nor JPEG');
}
