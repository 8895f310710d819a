import { createHash } from 'node:crypto';
import { dingtalkSignedUrl, feishuSign } from './sign.ts';
import { NotifyError, notifyMessages, postJson, type NotifyImage, type NotifyMessage } from './message.ts';

/**
 * Group robots and the tianxiangyun webhook (docs/subscriptions.md "Channels"):
 *
 * - WeCom (企业微信) group robot: no signature (the key is in the URL). One markdown message,
 *   then one image message per page ({ base64, md5 } of the raw JPEG, at most 2 MB: larger
 *   pages are re-encoded at a lower quality first). Answer { errcode: 0 } means accepted.
 * - DingTalk (钉钉) custom robot: signed URL (&timestamp=&sign=). It cannot take binary images,
 *   so one markdown message shows each page through its public URL on our server
 *   (![name](url)) plus a link to the board. Answer { errcode: 0 }.
 * - Feishu (飞书) custom robot: signed body (timestamp, sign); one post (rich text) message with
 *   the lines and links to the images and the board (binary images would need an app token,
 *   which a group robot does not have). Answer { code: 0 } (older: { StatusCode: 0 }).
 * - tianxiangyun (天象云): a configurable webhook: POST JSON { title, content, link, images:
 *   [{ name, url, base64 }] } with the token as a Bearer header and in the body; any 2xx
 *   whose JSON, if any, has no non-zero code/errcode is success.
 */

export const CHANNEL_NAMES = { qywechat: '企业微信', dingtalk: '钉钉', feishu: '飞书', tianxiangyun: '天象云' } as const;
/** WeCom's limit for one image message (before base64). */
export const WECOM_IMAGE_LIMIT = 2 * 1024 * 1024;
const REENCODE_QUALITIES = [80, 60, 40];

function markdownBody(message: NotifyMessage, withImages: boolean): string {
  const parts = [`### ${message.title}`, ...message.lines.map((line) => `> ${line}`)];
  if (withImages) for (const image of message.images) if (image.url) parts.push(`![${image.name}](${image.url})`);
  if (message.pdf?.url) parts.push(`[${message.pdf.name}](${message.pdf.url})`);
  if (message.link) parts.push(`[${notifyMessages.viewLink}](${message.link})`);
  return parts.join('\n\n');
}

function expectZero(channel: string, answer: Record<string, unknown>, ...keys: string[]): void {
  for (const key of keys) {
    const code = answer[key];
    if (code !== undefined && code !== 0 && code !== '0') {
      const msg = String(answer.errmsg ?? answer.msg ?? answer.StatusMessage ?? answer.message ?? '');
      throw new NotifyError(notifyMessages.platformRefused(channel, code as number, msg));
    }
  }
}

/** The image bytes within WeCom's limit: the original, else the first lower quality that fits. */
export async function fitForWecom(image: NotifyImage): Promise<Buffer> {
  if (image.data.length <= WECOM_IMAGE_LIMIT) return image.data;
  if (image.reencode) {
    for (const quality of REENCODE_QUALITIES) {
      const smaller = await image.reencode(quality);
      if (smaller.length <= WECOM_IMAGE_LIMIT) return smaller;
    }
  }
  throw new NotifyError(notifyMessages.imageTooLarge);
}

export async function sendWecom(webhook: string, message: NotifyMessage): Promise<void> {
  const channel = CHANNEL_NAMES.qywechat;
  // Every page is fitted before anything is sent: a page that cannot fit must not leave the
  // group with the text and some of the pages while the log says the send failed.
  const fitted: Buffer[] = [];
  for (const image of message.images) fitted.push(await fitForWecom(image));
  const text = await postJson(channel, webhook, { msgtype: 'markdown', markdown: { content: markdownBody(message, false) } });
  expectZero(channel, text, 'errcode');
  for (const data of fitted) {
    const answer = await postJson(channel, webhook, {
      msgtype: 'image',
      image: { base64: data.toString('base64'), md5: createHash('md5').update(data).digest('hex') },
    });
    expectZero(channel, answer, 'errcode');
  }
}

export async function sendDingtalk(webhook: string, secret: string, message: NotifyMessage, now = Date.now()): Promise<void> {
  const channel = CHANNEL_NAMES.dingtalk;
  const answer = await postJson(channel, dingtalkSignedUrl(webhook, secret, now), {
    msgtype: 'markdown',
    markdown: { title: message.title, text: markdownBody(message, true) },
  });
  expectZero(channel, answer, 'errcode');
}

export async function sendFeishu(webhook: string, secret: string, message: NotifyMessage, now = Date.now()): Promise<void> {
  const channel = CHANNEL_NAMES.feishu;
  const rows: Array<Array<Record<string, string>>> = message.lines.map((line) => [{ tag: 'text', text: line }]);
  for (const image of message.images) if (image.url) rows.push([{ tag: 'a', text: image.name, href: image.url }]);
  if (message.pdf?.url) rows.push([{ tag: 'a', text: message.pdf.name, href: message.pdf.url }]);
  if (message.link) rows.push([{ tag: 'a', text: notifyMessages.viewLink, href: message.link }]);
  const timestamp = Math.floor(now / 1000);
  const signature = secret ? { timestamp: String(timestamp), sign: feishuSign(secret, timestamp) } : {};
  const answer = await postJson(channel, webhook, {
    ...signature,
    msg_type: 'post',
    content: { post: { zh_cn: { title: message.title, content: rows } } },
  });
  expectZero(channel, answer, 'code', 'StatusCode');
}

export async function sendTianxiangyun(webhook: string, token: string, message: NotifyMessage): Promise<void> {
  const channel = CHANNEL_NAMES.tianxiangyun;
  const answer = await postJson(
    channel,
    webhook,
    {
      token,
      title: message.title,
      content: message.lines.join('\n'),
      link: message.link ?? null,
      images: message.images.map((image) => ({ name: image.name, url: image.url ?? null, base64: image.data.toString('base64') })),
      pdf: message.pdf ? { name: message.pdf.name, url: message.pdf.url ?? null } : null,
    },
    token ? { authorization: `Bearer ${token}` } : {},
  );
  expectZero(channel, answer, 'code', 'errcode');
}
