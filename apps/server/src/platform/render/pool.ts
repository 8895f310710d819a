import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';

/**
 * playwright-core is loaded with the first browser, not at the server's start: it is ≈ 90 MiB of
 * the process's resident memory (36 MiB of V8 heap) that a server which never renders does not need.
 */
const playwright = () => import('playwright-core');
import { BOARD_STATE_ATTRIBUTE, formatMessage } from '@shutu/contracts';
import { AppError } from '../http/errors.ts';
import { renderMessages } from './messages.ts';

/** Also the e2e browser's flags (e2e/harness.ts): no sandbox (containers), nothing phoning home, no GPU. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  '--hide-scrollbars',
  '--mute-audio',
];

export const DEFAULT_RENDER_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_PAGES = 2;
/** An idle browser holds a few hundred MB; it is closed after this long without a page and relaunched on demand. */
export const DEFAULT_IDLE_CLOSE_MS = 5 * 60_000;
/** How long Chromium may take to start before a render fails (a loaded CI box starts it in seconds). */
const LAUNCH_TIMEOUT_MS = 30_000;

export type RenderFailure = 'unavailable' | 'timeout' | 'refused' | 'failed';

/** A render that did not produce an image; the message is for people (Chinese). */
export class RenderError extends AppError {
  constructor(
    readonly reason: RenderFailure,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(reason === 'refused' ? 403 : reason === 'unavailable' ? 503 : reason === 'timeout' ? 504 : 500, message);
    this.name = 'RenderError';
    if (options.cause !== undefined) this.cause = options.cause;
  }
}

/** What to open and how big the window is. */
export interface RenderTarget {
  url: string;
  /** Viewport in CSS pixels. */
  width: number;
  height: number;
  /** Navigation and waiting for the page's state together (default 60 s). */
  timeoutMs?: number;
  /** Image pixels per CSS pixel: below 1 shrinks (thumbnails), above 1 sharpens (print). */
  deviceScaleFactor?: number;
}

export interface RenderOptions extends RenderTarget {
  format: 'png' | 'jpeg';
  /** JPEG quality 0–100 (default 100: the spec's "full quality"); ignored for PNG. */
  quality?: number;
  /** The whole scrollable page rather than the viewport. */
  fullPage?: boolean;
}

export interface RenderPoolOptions {
  executablePath: string;
  /** Pages rendering at once (default 2); more callers wait their turn. */
  maxPages?: number;
  idleCloseMs?: number;
}

export interface RenderPoolStats {
  /** Browsers launched so far (1 while it keeps running; more after a crash or idle close). */
  launches: number;
  active: number;
  /** The most pages that rendered at once. */
  peakActive: number;
  waiting: number;
}

/** Chromium is installed where the configuration says. */
export function isRendererAvailable(executablePath: string): boolean {
  try {
    fs.accessSync(executablePath, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A counting semaphore: at most `limit` holders, the rest wait in order. */
class Slots {
  active = 0;
  peak = 0;
  private readonly waiters: Array<() => void> = [];
  constructor(private readonly limit: number) {}

  get waiting(): number {
    return this.waiters.length;
  }

  async acquire(): Promise<void> {
    if (this.active < this.limit) {
      this.active++;
      this.peak = Math.max(this.peak, this.active);
      return;
    }
    // The releasing holder hands its slot over: `active` stays as it is.
    await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.active--;
  }
}

const READY_SELECTOR = `html[${BOARD_STATE_ATTRIBUTE}]:not([${BOARD_STATE_ATTRIBUTE}="loading"])`;

/**
 * One headless Chromium shared by every render of the process: launched on first use,
 * relaunched when it crashed or was closed for idleness, at most `maxPages` pages at once.
 * Each render gets a fresh browser context (no cookies or storage shared between renders)
 * and waits until the page sets `data-board-state` (contracts BOARD_STATE_ATTRIBUTE) on
 * <html> to something other than 'loading'.
 */
export class RenderPool {
  private browser: Browser | undefined;
  private launching: Promise<Browser> | undefined;
  private readonly slots: Slots;
  private launches = 0;
  private closed = false;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: RenderPoolOptions) {
    this.slots = new Slots(options.maxPages ?? DEFAULT_MAX_PAGES);
  }

  isAvailable(): boolean {
    return isRendererAvailable(this.options.executablePath);
  }

  stats(): RenderPoolStats {
    return { launches: this.launches, active: this.slots.active, peakActive: this.slots.peak, waiting: this.slots.waiting };
  }

  /** The running browser, if any (diagnostics and tests). */
  currentBrowser(): Browser | undefined {
    return this.browser?.isConnected() ? this.browser : undefined;
  }

  /** Screenshot of a page once it is ready. */
  renderPage(options: RenderOptions): Promise<Buffer> {
    return this.withReadyPage(options, (page) =>
      page.screenshot({
        type: options.format,
        ...(options.format === 'jpeg' ? { quality: options.quality ?? 100 } : {}),
        fullPage: options.fullPage ?? false,
        animations: 'disabled',
      }),
    );
  }

  /**
   * Opens `target.url` in a fresh context, waits until it is ready and hands the page to
   * `use` (a screenshot, `page.pdf()`, several clips…); the context is closed afterwards.
   * Errors: RenderError unavailable / timeout (渲染超时) / refused / failed.
   */
  async withReadyPage<T>(target: RenderTarget, use: (page: Page) => Promise<T>): Promise<T> {
    if (this.closed) throw new RenderError('failed', renderMessages.closed);
    if (!this.isAvailable()) throw new RenderError('unavailable', renderMessages.unavailable);
    await this.slots.acquire();
    clearTimeout(this.idleTimer);
    try {
      const browser = await this.ensureBrowser();
      const context = await browser.newContext({
        viewport: { width: Math.round(target.width), height: Math.round(target.height) },
        deviceScaleFactor: target.deviceScaleFactor ?? 1,
        locale: 'zh-CN',
      });
      try {
        const page = await context.newPage();
        await openAndWait(page, target.url, target.timeoutMs ?? DEFAULT_RENDER_TIMEOUT_MS);
        return await use(page);
      } finally {
        await context.close().catch(() => undefined);
      }
    } catch (error) {
      if (error instanceof RenderError) throw error;
      if (error instanceof (await playwright()).errors.TimeoutError) throw new RenderError('timeout', renderMessages.timeout, { cause: error });
      throw new RenderError('failed', renderMessages.pageError, { cause: error });
    } finally {
      this.slots.release();
      this.scheduleIdleClose();
    }
  }

  /** Closes the browser; renders asked for afterwards fail. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    await this.launching?.catch(() => undefined);
    const browser = this.browser;
    this.browser = undefined;
    await browser?.close().catch(() => undefined);
  }

  private ensureBrowser(): Promise<Browser> {
    if (this.browser?.isConnected()) return Promise.resolve(this.browser);
    this.launching ??= this.launch().finally(() => (this.launching = undefined));
    return this.launching;
  }

  private async launch(): Promise<Browser> {
    let browser: Browser;
    try {
      const { chromium } = await playwright();
      // A launch that hangs fails the render after LAUNCH_TIMEOUT_MS (Playwright's own default is 3 minutes).
      browser = await chromium.launch({ executablePath: this.options.executablePath, headless: true, args: CHROMIUM_ARGS, timeout: LAUNCH_TIMEOUT_MS });
    } catch (error) {
      throw new RenderError('unavailable', renderMessages.launchFailed, { cause: error });
    }
    this.launches++;
    if (this.closed) {
      await browser.close().catch(() => undefined);
      throw new RenderError('failed', renderMessages.closed);
    }
    browser.on('disconnected', () => {
      if (this.browser === browser) this.browser = undefined;
    });
    this.browser = browser;
    return browser;
  }

  private scheduleIdleClose(): void {
    if (this.slots.active > 0 || this.closed) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.slots.active > 0) return;
      const browser = this.browser;
      this.browser = undefined;
      void browser?.close().catch(() => undefined);
    }, this.options.idleCloseMs ?? DEFAULT_IDLE_CLOSE_MS);
    // An idle timer alone must not keep the process alive.
    this.idleTimer.unref();
  }
}

/** Navigates and waits for the board state; 'refused' and 'error' become errors. */
async function openAndWait(page: Page, url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const remaining = () => Math.max(1, deadline - Date.now());
  const response = await page.goto(url, { waitUntil: 'domcontentloaded', timeout: remaining() });
  if (response && response.status() >= 400) {
    throw new RenderError('failed', formatMessage(renderMessages.httpError, { status: response.status() }));
  }
  // A selector wait survives client-side navigations, unlike an evaluate.
  await page.waitForSelector(READY_SELECTOR, { state: 'attached', timeout: remaining() });
  const state = await page.locator('html').getAttribute(BOARD_STATE_ATTRIBUTE, { timeout: remaining() });
  if (state === 'refused') throw new RenderError('refused', renderMessages.refused);
  if (state !== 'ready') throw new RenderError('failed', renderMessages.pageError);
}
