import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fastifyHelmet from '@fastify/helmet';

/**
 * Security headers on every response (docs/decisions.md "Security headers"), by @fastify/helmet:
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

export async function installSecurityHeaders(app: FastifyInstance, options: SecurityHeaderOptions): Promise<void> {
  // The frame-ancestors sources an embeddable page adds, set before helmet writes the header.
  const extraAncestors = new WeakMap<ServerResponse, string>();

  app.addHook('onRequest', async (request, reply) => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || !isEmbeddablePage(request.url)) return;
    extraAncestors.set(reply.raw, (await options.embedOrigins()).join(' '));
  });

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
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
        frameAncestors: ["'self'", (_req, res) => extraAncestors.get(res as ServerResponse) ?? ''],
      },
    },
    strictTransportSecurity: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xFrameOptions: { action: 'sameorigin' },
  });

  app.addHook('onRequest', async (_request, reply) => {
    if (!extraAncestors.has(reply.raw)) return;
    reply.raw.removeHeader('x-frame-options');
    reply.raw.setHeader('referrer-policy', 'no-referrer');
  });
}
