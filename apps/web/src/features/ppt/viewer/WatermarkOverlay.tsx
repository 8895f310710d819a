import { WATERMARK_STYLE } from '@shutu/contracts';

/** One tile of the watermark pattern (CSS px): the text once, turned 45°, repeated over the whole area. */
const TILE = { width: 320, height: 240 } as const;

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

/** The tile as an SVG data URL (exported for the test: the text must be in it). */
export function watermarkTile(text: string): string {
  const { angle, color, fontSize } = WATERMARK_STYLE;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${TILE.width}" height="${TILE.height}">` +
    `<text x="50%" y="50%" text-anchor="middle" dominant-baseline="middle" fill="${color}" font-size="${fontSize}" ` +
    `font-family="'Noto Sans CJK SC','PingFang SC','Microsoft YaHei',sans-serif" transform="rotate(-${angle} ${TILE.width / 2} ${TILE.height / 2})">${escapeXml(text)}</text></svg>`;
  return `url("data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}")`;
}

/** watermark=1 (spec 1 §2.10, §9): the text tiled at 45°, grey, 40 px over the dashboards; clicks pass through. */
export function WatermarkOverlay({ text }: { text: string }) {
  return <div className="pptv-watermark" data-testid="ppt-watermark" data-text={text} aria-hidden style={{ backgroundImage: watermarkTile(text) }} />;
}
