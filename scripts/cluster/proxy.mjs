// A small round-robin HTTP proxy for the cluster launcher (node:http only): each request goes to
// the next live backend in turn. Bodies are piped both ways, never buffered, so uploads and
// streamed downloads (exports) pass as they come. A backend that refuses the connection is
// skipped for this request (tried once more on the next one); with none left the client gets 502.
import http from 'node:http';

/**
 * @param {{ backends: string[]; port?: number; host?: string }} options backends are base URLs (http://127.0.0.1:8081)
 * @returns {Promise<{ url: string; port: number; served: number[]; close(): Promise<void> }>}
 */
export async function startProxy({ backends, port = 0, host = '127.0.0.1' }) {
  const targets = backends.map((b) => new URL(b));
  /** Requests answered by each backend, for the smoke test and the bench. */
  const served = targets.map(() => 0);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  let next = 0;

  /** @param {http.IncomingMessage} req @param {http.ServerResponse} res @param {number} tries */
  function forward(req, res, tries) {
    const index = next++ % targets.length;
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const target = targets[index];
    const headers = { ...req.headers, 'x-forwarded-for': req.socket.remoteAddress ?? '', 'x-forwarded-host': req.headers.host ?? '' };
    const upstream = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent }, (answer) => {
      served[index] += 1;
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.headers);
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    });
    upstream.on('error', (error) => {
      // A refused connection received nothing: a request without a body goes to the next backend.
      if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ECONNREFUSED' && !hasBody && tries + 1 < targets.length) {
        forward(req, res, tries + 1);
        return;
      }
      if (!res.headersSent) {
        res.writeHead(502, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ code: 502, success: false, msg: '后端服务不可用', data: null }));
      } else res.destroy();
    });
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    if (hasBody) req.pipe(upstream);
    else upstream.end();
  }

  const server = http.createServer((req, res) => forward(req, res, 0));
  // Long exports and uploads: no proxy-side timeout beyond the backends' own.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(undefined));
  });
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    served,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve(undefined)));
      agent.destroy();
    },
  };
}
