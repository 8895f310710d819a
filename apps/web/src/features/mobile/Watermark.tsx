import { WATERMARK_STYLE } from '@shutu/contracts/ppt-constants';

/** One tile of the pattern (CSS px), smaller than the slideshow's: a phone is narrow. */
const TILE = { width: 240, height: 200 } as const;
const FONT_SIZE = Math.round(WATERMARK_STYLE.fontSize / 2);

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

export function watermarkTile(text: string): string {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${TILE.width}" height="${TILE.height}">` +
    `<text x="50%" y="50%" text-anchor="middle" dominant-baseline="middle" fill="${WATERMARK_STYLE.color}" font-size="${FONT_SIZE}" ` +
    `font-family="'Noto Sans CJK SC','PingFang SC','Microsoft YaHei',sans-serif" transform="rotate(-${WATERMARK_STYLE.angle} ${TILE.width / 2} ${TILE.height / 2})">${escapeXml(text)}</text></svg>`;
  return `url("data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}")`;
}

/** The app's watermark (name + text) tiled at 45° in grey over the dashboard; touches pass through. */
export function Watermark({ text }: { text: string }) {
  return <div className="m-watermark" data-testid="m-watermark" data-text={text} aria-hidden style={{ backgroundImage: watermarkTile(text) }} />;
}
