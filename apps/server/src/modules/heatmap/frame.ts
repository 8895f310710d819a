import { formatMessage, trackMessages, type HeatmapFrame } from '@shutu/contracts';

/**
 * Can the heat-map page frame a website (docs/heatmap.md "Screenshot fallback")? The server asks
 * the page itself and reads its answer the way a browser would: a CSP frame-ancestors directive
 * (every policy sent must allow the product's origin; when present, browsers ignore
 * X-Frame-Options), else X-Frame-Options DENY / SAMEORIGIN. Then the product's own policy: its
 * CSP lets it frame only its own origin (default-src 'self'), so any other origin is shown as a
 * screenshot too — the reason says which it was.
 */

const CHECK_TIMEOUT_MS = 10_000;

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

/** One CSP source expression against the framing origin (host sources, schemes, *, 'self', 'none'). */
function sourceAllows(source: string, site: URL, product: URL): boolean {
  const s = source.toLowerCase();
  if (s === "'self'") return site.origin === product.origin;
  if (s === '*') return product.protocol === 'http:' || product.protocol === 'https:';
  if (/^[a-z][a-z0-9+.-]*:$/.test(s)) return product.protocol === s;
  const m = /^(?:([a-z][a-z0-9+.-]*):\/\/)?(\*\.)?([^/:]+)(?::(\d+|\*))?(?:\/.*)?$/.exec(s);
  if (!m) return false;
  const [, scheme, wildcard, host, port] = m;
  if (scheme && scheme !== product.protocol.slice(0, -1)) return false;
  const productHost = product.hostname.toLowerCase();
  if (wildcard ? !productHost.endsWith(`.${host}`) : productHost !== host) return false;
  const productPort = product.port || (product.protocol === 'https:' ? '443' : '80');
  const wanted = port ?? (scheme === 'https' || (!scheme && product.protocol === 'https:') ? '443' : '80');
  return port === '*' || productPort === wanted;
}

/** Which header of the site refuses the product's origin, if any ('X-Frame-Options: DENY', …). */
export function refusingHeader(headers: Headers, siteUrl: string, productOrigin: string): string | null {
  const site = new URL(siteUrl);
  const product = new URL(productOrigin);
  const csp = headers.get('content-security-policy');
  if (csp) {
    // Several headers arrive joined by commas: each policy is enforced on its own.
    const ancestors = csp
      .split(',')
      .map((policy) => policy.split(';').map((d) => d.trim().split(/\s+/)))
      .map((directives) => directives.find((d) => d[0]?.toLowerCase() === 'frame-ancestors'))
      .filter((d): d is string[] => d !== undefined);
    if (ancestors.length > 0) {
      const allowed = ancestors.every((d) => d.slice(1).some((source) => sourceAllows(source, site, product)));
      return allowed ? null : 'Content-Security-Policy: frame-ancestors';
    }
  }
  const xfo = headers.get('x-frame-options')?.split(',')[0]?.trim().toUpperCase();
  if (xfo === 'DENY') return 'X-Frame-Options: DENY';
  if (xfo === 'SAMEORIGIN' && site.origin !== product.origin) return 'X-Frame-Options: SAMEORIGIN';
  return null;
}

/**
 * Frame or screenshot for a page shown at `viewUrl` (relative: the product's own demo website).
 * `productOrigin` is the origin the analyst's browser has the product at.
 */
export async function frameDecision(viewUrl: string, productOrigin: string, fetchPage: typeof fetch = fetch): Promise<HeatmapFrame> {
  if (viewUrl.startsWith('/') || sameOrigin(viewUrl, productOrigin)) return { mode: 'frame', reason: null };
  let response: Response;
  try {
    response = await fetchPage(viewUrl, { redirect: 'follow', signal: AbortSignal.timeout(CHECK_TIMEOUT_MS), headers: { accept: 'text/html' } });
    await response.body?.cancel();
  } catch (error) {
    const detail = error instanceof Error && error.name === 'TimeoutError' ? '连接超时' : '无法连接';
    return { mode: 'screenshot', reason: formatMessage(trackMessages.frameUnreachable, { detail }) };
  }
  const header = refusingHeader(response.headers, response.url || viewUrl, productOrigin);
  if (header) return { mode: 'screenshot', reason: formatMessage(trackMessages.frameDenied, { header }) };
  return { mode: 'screenshot', reason: trackMessages.frameOtherOrigin };
}
