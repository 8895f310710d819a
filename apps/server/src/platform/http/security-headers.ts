import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Security headers on every response (docs/decisions.md "Security headers"), by helmet:
 *
 * - Content-Security-Policy: scripts only from this server (Vite's hashed bundles; no inline
 *   script, no eval); styles from this server and inline (antd's CSS-in-JS inserts <style>
 *   elements, ECharts' tooltips and the app write style attributes); images also from data:,
 *   blob: (ECharts' 保存为图片, canvas exports) and any http(s) address (avatars, image widgets
 *   and backgrounds may name external pictures); fonts from here and data:; connections and
 *   workers to this server only; no plugins; forms and <base> to this server only.
 * - frame-ancestors 'self' everywhere, plus the administrator's 嵌入设置 origins on the
 *   embeddable pages (EMBEDDABLE_PAGE: /openview/{id}, share links /share/{code}).
 * - X-Frame-Options SAMEORIGIN everywhere but the embeddable pages: it cannot name a list of
 *   origins, and a browser that knows frame-ancestors ignores it anyway.
 * - Referrer-Policy strict-origin-when-cross-origin; no-referrer on the embeddable pages, whose
 *   address carries a token (?token=) or a share code.
 * - X-Content-Type-Options nosniff, and helmet's other defaults (COOP/CORP same-origin,
 *   Origin-Agent-Cluster, X-DNS-Prefetch-Control off, …). No Strict-Transport-Security: the
 *   server speaks HTTP, TLS ends at the operator's proxy, which owns HSTS. No
 *   upgrade-insecure-requests either: it would break plain-HTTP intranet installs.
 *
 * Helmet's middleware is built twice at start-up (every page and answer; the embeddable pages),
 * not per request: @fastify/helmet built it again for every request (its directives parsed,
 * its middleware list assembled), ≈ 18 % of the server's JavaScript time on a cached chart
 * answer under load (issue 26, bench/viewers). The fixed policy is then one string.
 */

/** Pages another site may frame when an administrator allows its origin. */
export const EMBEDDABLE_PAGE = /^\/(?:openview|share)\/[^/?#]/;

export function isEmbeddablePage(url: string): boolean {
  return EMBEDDABLE_PAGE.test(url);
}

export interface SecurityHeaderOptions {
  /** The origins allowed to frame the embeddable pages (cached by the caller: asked on every such page). */
  embedOrigins(): Promise<readonly string[]>;
}

const DIRECTIVES = {
  defaultSrc: ["'self'"],
  baseUri: ["'self'"],
  objectSrc: ["'none'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:', 'https:', 'http:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  workerSrc: ["'self'", 'blob:'],
  formAction: ["'self'"],
  frameAncestors: ["'self'"],
};

/** Every response but the embeddable pages: a fixed policy, SAMEORIGIN framing. */
const everyResponse = helmet({
  strictTransportSecurity: false,
  contentSecurityPolicy: { useDefaults: false, directives: DIRECTIVES },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  xFrameOptions: { action: 'sameorigin' },
});

export async function installSecurityHeaders(app: FastifyInstance, options: SecurityHeaderOptions): Promise<void> {
  // The frame-ancestors sources an embeddable page adds, read by its policy below.
  const extraAncestors = new WeakMap<ServerResponse, string>();
  const embeddablePage = helmet({
    strictTransportSecurity: false,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { ...DIRECTIVES, frameAncestors: ["'self'", (_req, res) => extraAncestors.get(res as ServerResponse) ?? ''] },
    },
    // Its address carries a token (?token=) or a share code.
    referrerPolicy: { policy: 'no-referrer' },
    // X-Frame-Options cannot name a list of origins: frame-ancestors alone decides there.
    xFrameOptions: false,
  });
  // Helmet calls it with an error only when a directive function returns an invalid value.
  type Next = (error?: unknown) => void;

  app.addHook('onRequest', (request, reply, done) => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || !isEmbeddablePage(request.url)) {
      everyResponse(request.raw, reply.raw, done as Next);
      return;
    }
    options.embedOrigins().then(
      (origins) => {
        extraAncestors.set(reply.raw, origins.join(' '));
        embeddablePage(request.raw, reply.raw, done as Next);
      },
      (error: unknown) => done(error as Error),
    );
  });
}
