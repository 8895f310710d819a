import { BOARD_STATE_ATTRIBUTE, WATERMARK_STYLE } from '@shutu/contracts';
import type { Page } from 'playwright-core';
import type { RenderPool } from '../../platform/render/renderer.ts';

/**
 * One PDF out of page images, made by Chromium itself (no PDF library): a small HTML document
 * with one print page per image — each page exactly the size of its image (a named CSS @page
 * per size), the image filling it — and, when asked, the watermark tiled over every page as
 * real text (45°, grey, 40 px; spec 1 §9), so Chinese stays selectable text in the PDF.
 *
 * The document and its images are served to the page by request interception on a made-up
 * origin: nothing is written to disk and no image is inlined as a huge data URL.
 */

export interface PdfPageImage {
  /** JPEG bytes. */
  image: Buffer;
  /** CSS pixels of the page (the render's viewport). */
  width: number;
  height: number;
  /** The dashboard's title: carried as invisible text on its page, so the PDF can be searched by it. */
  title?: string;
}

export interface PdfDocumentOptions {
  /** The document title (the slideshow's name): the PDF's Title. */
  title: string;
  /** Watermark text, or null for none. */
  watermark: string | null;
}

/** The origin the assembly document is served from (intercepted; never reaches the network). */
const ASSEMBLY_ORIGIN = 'http://ppt-pdf.invalid';
/** Distance between two watermark texts along a row and between rows (CSS px). */
export const WATERMARK_GAP = { x: 320, y: 240 } as const;
/** A page as long as this many CSS pixels is split by Chromium; PDF viewers cap pages at 200 in (14,400 pt = 19,200 px). */
const MAX_PAGE_PX = 19_000;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Watermark positions for a page: a grid larger than the page so the rotated rows cover its corners. */
export function watermarkPositions(width: number, height: number): { left: number; top: number }[] {
  const positions: { left: number; top: number }[] = [];
  for (let row = 0, top = -WATERMARK_GAP.y / 2; top < height + WATERMARK_GAP.y; row++, top += WATERMARK_GAP.y) {
    // Every other row shifted by half a gap: a staggered pattern, no column of texts.
    const offset = row % 2 === 0 ? -WATERMARK_GAP.x / 2 : 0;
    for (let left = offset; left < width + WATERMARK_GAP.x; left += WATERMARK_GAP.x) positions.push({ left, top });
  }
  return positions;
}

/** The assembly document: page i shows `/page-{i}.jpg`. */
export function pdfDocumentHtml(pages: Omit<PdfPageImage, 'image'>[], { title, watermark }: PdfDocumentOptions): string {
  const sizes = pages.map((p) => ({ width: Math.max(1, Math.round(p.width)), height: Math.max(1, Math.min(MAX_PAGE_PX, Math.round(p.height))) }));
  const pageRules = sizes
    .map((s, i) => `@page p${i} { size: ${s.width}px ${s.height}px; margin: 0; }\n.sheet-${i} { page: p${i}; width: ${s.width}px; height: ${s.height}px; }`)
    .join('\n');
  const mark = watermark ? escapeHtml(watermark) : null;
  const sheets = sizes
    .map((s, i) => {
      const marks = mark
        ? `<div class="marks">${watermarkPositions(s.width, s.height)
            .map((p) => `<span style="left:${p.left}px;top:${p.top}px">${mark}</span>`)
            .join('')}</div>`
        : '';
      const label = pages[i]!.title ? `<span class="label">${escapeHtml(pages[i]!.title!)}</span>` : '';
      return `<section class="sheet sheet-${i}"><img src="/page-${i}.jpg" alt="">${label}${marks}</section>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="zh-CN" ${BOARD_STATE_ATTRIBUTE}="ready">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>
  html, body { margin: 0; padding: 0; }
  ${pageRules}
  .sheet { position: relative; overflow: hidden; break-after: page; }
  .sheet:last-child { break-after: auto; }
  .sheet > img { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: fill; }
  /* Contained: the rotated texts running past the page edge must not widen the document (print would shrink it). */
  /* The page's title as text under the picture: invisible, but found by search and text extraction. */
  .label { position: absolute; left: 0; top: 0; font: 16px 'Noto Sans CJK SC', sans-serif; color: transparent; white-space: nowrap; }
  .marks { position: absolute; inset: 0; contain: strict; overflow: hidden; pointer-events: none; }
  .marks > span {
    position: absolute; white-space: nowrap; line-height: 1;
    font: ${WATERMARK_STYLE.fontSize}px 'Noto Sans CJK SC', 'Noto Sans SC', sans-serif;
    color: ${WATERMARK_STYLE.color};
    transform: rotate(-${WATERMARK_STYLE.angle}deg); transform-origin: 0 0;
  }
</style></head>
<body>
${sheets}
</body></html>`;
}

/** Serves the document and its images to the page and prints it: one PDF, a page per image. */
async function printDocument(page: Page, pages: PdfPageImage[], html: string): Promise<Buffer> {
  await page.route(`${ASSEMBLY_ORIGIN}/**`, (route) => {
    const match = /\/page-(\d+)\.jpg$/.exec(new URL(route.request().url()).pathname);
    const image = match ? pages[Number(match[1])]?.image : undefined;
    if (image) return route.fulfill({ status: 200, contentType: 'image/jpeg', body: image });
    return route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html });
  });
  await page.goto(`${ASSEMBLY_ORIGIN}/document.html`, { waitUntil: 'load' });
  // Every image decoded and the CJK font loaded before printing.
  // (A string: the server is compiled without the DOM library.)
  await page.evaluate(
    `Promise.all(Array.from(document.images, (img) => img.decode().catch(() => undefined))).then(() => document.fonts.ready).then(() => true)`,
  );
  return page.pdf({ printBackground: true, preferCSSPageSize: true });
}

/**
 * The PDF of the rendered pages, watermarked when `watermark` is a non-empty text. Runs in a
 * page of the shared render pool (its concurrency limit and browser), opened on a blank ready
 * page and then pointed at the assembly document.
 */
export async function assemblePdf(renderer: RenderPool, pages: PdfPageImage[], options: PdfDocumentOptions): Promise<Buffer> {
  if (pages.length === 0) throw new Error('no pages to assemble');
  const html = pdfDocumentHtml(pages, { title: options.title, watermark: options.watermark?.trim() || null });
  const blank = `data:text/html,<html ${BOARD_STATE_ATTRIBUTE}="ready"></html>`;
  return renderer.withReadyPage({ url: blank, width: 800, height: 600 }, (page) => printDocument(page, pages, html));
}
