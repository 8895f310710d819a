/**
 * Tracker batches for bench/track: `batches` distinct bodies of `size` clickScreen events each,
 * as the tracker sends them (text/plain JSON), spread over the demo website's pages, widths and
 * a few thousand visitors. Deterministic (a fixed linear congruential sequence).
 */
const PAGES = [
  ['网上营业厅-首页', '/index.html'],
  ['流量专区', '/flow.html'],
  ['视听会员专区', '/vip.html'],
  ['5G套餐办理', '/5g.html'],
  ['掌厅H5-首页', '/h5/index.html'],
] as const;
const WIDTHS = [1920, 1536, 1440, 1366, 1280, 390, 375];

export function generateBatches(batches: number, size: number, writeKey = 'demo-site'): string[] {
  let seed = 20261125;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  return Array.from({ length: batches }, () => {
    const events = Array.from({ length: size }, () => {
      const [title, path] = PAGES[next(PAGES.length)]!;
      const pageWidth = WIDTHS[next(WIDTHS.length)]!;
      return {
        event: 'clickScreen',
        x: next(pageWidth),
        y: next(3000),
        pageWidth,
        url: `https://shop.shutu-demo.example${path}`,
        title,
        distinctId: `bench-${next(5000)}`,
        phone: null,
      };
    });
    return JSON.stringify({ writeKey, events });
  });
}
