import { BOARD_STATE_ATTRIBUTE, formatMessage } from '@shutu/contracts';
import { RenderError, type RenderPool } from './pool.ts';
import { renderMessages } from './messages.ts';

/**
 * A screenshot of any web page (not one of the product's boards) with the shared render pool:
 * the pool opens a blank page that is ready at once (it waits for BOARD_STATE_ATTRIBUTE, which
 * other sites do not set), then the page goes to the site in the same fresh context, waits for it
 * to load and its network to settle (bounded), and the whole page is taken up to `maxHeight`.
 * Used by the click heat map for sites that refuse to be framed (docs/heatmap.md).
 */

const READY_BLANK = `data:text/html,${encodeURIComponent(`<!doctype html><html ${BOARD_STATE_ATTRIBUTE}="ready"></html>`)}`;
/** How long to wait for a page's late requests (pictures, fonts) after its load event. */
const SETTLE_MS = 3000;

export interface SiteShotOptions {
  url: string;
  /** Viewport width in CSS px: the width the heat map shows the page at. */
  width: number;
  /** Viewport height (the page is taken whole below it). */
  height?: number;
  maxHeight?: number;
  timeoutMs?: number;
}

export function screenshotSite(pool: RenderPool, options: SiteShotOptions): Promise<Buffer> {
  const timeout = options.timeoutMs ?? 30_000;
  return pool.withReadyPage({ url: READY_BLANK, width: options.width, height: options.height ?? 900, timeoutMs: timeout }, async (page) => {
    const response = await page.goto(options.url, { waitUntil: 'load', timeout });
    if (response && response.status() >= 400) {
      throw new RenderError('failed', formatMessage(renderMessages.httpError, { status: response.status() }));
    }
    await page.waitForLoadState('networkidle', { timeout: SETTLE_MS }).catch(() => undefined);
    const height = await page.evaluate('Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0)');
    const clipHeight = Math.max(1, Math.min(Number(height) || 1, options.maxHeight ?? 10_000));
    return page.screenshot({ type: 'png', fullPage: true, clip: { x: 0, y: 0, width: options.width, height: clipHeight }, animations: 'disabled' });
  });
}
