import { SITE_ORIGIN, WEB_PAGES, type WebPage } from '@shutu/connectors';

/**
 * The demo website (issue 22, docs/heatmap.md "Demo website"): the pages of the demo warehouse's
 * web_pages, served by the product under DEMO_SITE_PREFIX at their paths, so the heat map of the
 * demo data has a real page under its points. Each hot spot the generator clusters clicks around
 * is an element here (a button, a card, a menu), placed by the same coordinates: x in per mille of
 * the page width (the layout is fluid, so it scales with the width as the clicks do), y in px.
 * Every page includes the tracker, so clicking here adds points to its heat map.
 */

export const DEMO_SITE_PREFIX = '/demo-site';
/** The demo site's write key (docs/heatmap.md "Tracker"). */
export const DEMO_WRITE_KEY = 'demo-site';

/** What each hot spot shows, in the order of the page's spots. */
const LABELS: Record<string, string[]> = {
  '/index.html': ['网上营业厅', '首页　流量　会员　5G　客服', '双十一特惠 · 立即办理', '流量包', '视听会员', '5G套餐', '联系我们'],
  '/flow.html': ['流量专区 · 立即领取', '10GB 日包', '30GB 月包', '50GB 月包', '100GB 季包', '流量使用说明'],
  '/vip.html': ['会员权益 · 立即开通', '腾讯视频', '爱奇艺', '优酷', '芒果TV', '哔哩哔哩', 'QQ音乐'],
  '/5g.html': ['5G畅享 129元/月', '5G尊享 199元/月', '立即办理', '资费说明'],
  '/service.html': ['请输入您的问题　　发送', '常见问题', '服务菜单'],
  '/h5/index.html': ['充值', '流量', '账单', '积分', '今日特惠', '首页　权益　订单　我的'],
  '/h5/rights.html': ['视频会员', '外卖红包', '出行券', '音乐会员', '我的权益'],
  '/h5/orders.html': ['查看详情', '查看详情', '查看详情', '全部　待支付　已完成'],
};

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The demo page at `path` (a web_pages path such as /index.html), or undefined. */
export function demoPage(path: string): WebPage | undefined {
  return WEB_PAGES.find((p) => p.path === path);
}

/** Where the product shows a page of the warehouse: the demo site's own address for its pages, the url itself otherwise. */
export function viewUrlOf(url: string): string {
  if (!url.startsWith(`${SITE_ORIGIN}/`)) return url;
  const path = url.slice(SITE_ORIGIN.length);
  return demoPage(path) ? `${DEMO_SITE_PREFIX}${path}` : url;
}

function spotElement(page: WebPage, index: number): string {
  const [x, y, sx, sy] = page.spots[index]!;
  const label = LABELS[page.path]?.[index] ?? '查看详情';
  const half = Math.max(sx, page.platform === 'H5' ? 80 : 50);
  const height = Math.max(2 * sy, 40);
  const style = `left:${(x - half) / 10}%;width:${(2 * half) / 10}%;top:${y - height / 2}px;height:${height}px`;
  const kind = height >= 100 ? 'card' : 'button';
  return `<button type="button" class="spot ${kind}" style="${style}">${escapeHtml(label)}</button>`;
}

/** The HTML of a demo page: its spots, links to the other pages of its platform, and the tracker. */
export function demoPageHtml(page: WebPage): string {
  const siblings = WEB_PAGES.filter((p) => p.platform === page.platform)
    .map((p) => `<a href="${DEMO_SITE_PREFIX}${p.path}"${p.path === page.path ? ' class="current"' : ''}>${escapeHtml(p.title)}</a>`)
    .join('');
  const spots = page.spots.map((_, k) => spotElement(page, k)).join('\n');
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title>
<link rel="canonical" href="${SITE_ORIGIN}${page.path}">
<style>
html,body{margin:0;padding:0;font-family:"Noto Sans CJK SC","Microsoft YaHei","PingFang SC",sans-serif;background:#f3f5f9;color:#1f2937}
.page{position:relative;width:100%;height:${page.height}px;overflow:hidden;background:linear-gradient(#1e4fd8 0,#3b82f6 260px,#f3f5f9 260px)}
.spot{position:absolute;box-sizing:border-box;white-space:nowrap;overflow:hidden;border:0;border-radius:8px;font:inherit;font-size:15px;cursor:pointer}
.button{background:#fff;color:#1e40af;box-shadow:0 1px 4px rgba(15,23,42,.15)}
.card{background:#fff;color:#111827;font-size:18px;font-weight:600;box-shadow:0 2px 10px rgba(15,23,42,.12)}
.button:hover,.card:hover{outline:2px solid #f59e0b}
.pages{position:absolute;left:0;right:0;bottom:0;padding:16px;display:flex;gap:16px;justify-content:center;flex-wrap:wrap;background:#1f2937}
.pages a{color:#cbd5e1;text-decoration:none}.pages a.current{color:#fbbf24}
.login{position:fixed;right:12px;bottom:12px;background:#fff;padding:8px;border-radius:8px;box-shadow:0 2px 10px rgba(0,0,0,.2);font-size:13px}
.login input{width:120px}
</style>
<script src="/tracker/shutu-track.js" data-write-key="${DEMO_WRITE_KEY}" defer></script>
<script src="${DEMO_SITE_PREFIX}/demo.js" defer></script>
</head><body><div class="page">
${spots}
<nav class="pages">${siblings}</nav>
</div>
<form class="login" data-identify data-shutu-ignore><label>手机号 <input name="phone" inputmode="numeric" autocomplete="off"></label> <button type="submit">登录</button></form>
</body></html>`;
}

/** The demo site's own script: its login form identifies the visitor by phone through the tracker. */
export const DEMO_SCRIPT = `document.addEventListener('DOMContentLoaded', function () {
  var form = document.querySelector('form[data-identify]');
  if (!form) return;
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var phone = form.elements.namedItem('phone').value.trim();
    if (phone && window.shutuTrack) window.shutuTrack.identify(phone);
    form.setAttribute('data-identified', phone);
  });
});
`;
