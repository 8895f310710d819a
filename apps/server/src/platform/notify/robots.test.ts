import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NotifyError, type NotifyImage, type NotifyMessage } from './message.ts';
import { WECOM_IMAGE_LIMIT, sendFeishu, sendTianxiangyun, sendWecom } from './robots.ts';
import { startRobotReceiver, type RobotReceiver } from '../../../test/notify-servers.ts';

/**
 * Delivery to the group robots and tianxiangyun against the local receiver, which checks what
 * each platform checks (key, signature, token, image md5 and size) and answers as they do.
 */

const jpeg = (text: string, size?: number) => {
  const data = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from(text)]);
  return size === undefined ? data : Buffer.concat([data, Buffer.alloc(size - data.length, 0x20)]);
};
const md5 = (data: Buffer) => createHash('md5').update(data).digest('hex');
const page = (name: string, data: Buffer, reencode?: NotifyImage['reencode']): NotifyImage => ({
  name,
  data,
  url: `https://bi.example.com/api/subscription/images/${md5(data).slice(0, 24)}.jpg`,
  reencode,
});
const SALES = jpeg('销售大屏的像素');
const STOCK = jpeg('库存大屏的像素');
const message = (extra: Partial<NotifyMessage> = {}): NotifyMessage => ({
  title: '每日销售',
  lines: ['订阅内容：销售大屏（大屏）', '订阅时间：2026-03-10 09:00'],
  link: 'https://bi.example.com/openview/7',
  images: [page('销售大屏.jpg', SALES), page('库存大屏.jpg', STOCK)],
  ...extra,
});
const PDF = {
  name: '每日销售.pdf',
  data: Buffer.from('%PDF-1.7 假的'),
  contentType: 'application/pdf',
  url: 'https://bi.example.com/api/subscription/images/aaaaaaaaaaaaaaaaaaaaaaaa.pdf',
};

/** The error a send failed with (it must fail). */
async function failure(send: Promise<void>): Promise<NotifyError> {
  const error = await send.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(NotifyError);
  return error as NotifyError;
}

let robots: RobotReceiver;
beforeAll(async () => {
  robots = await startRobotReceiver({ feishu: 'feishu-secret', wecomKey: 'wecom-key', tianxiangyunToken: 'txy-token' });
});
afterAll(() => robots?.close());
beforeEach(() => {
  robots.requests.length = 0;
});

describe('WeCom group robot', () => {
  const webhook = () => `${robots.url}/wecom/cgi-bin/webhook/send?key=wecom-key`;
  const imageOf = (body: Record<string, unknown>) => body.image as { base64: string; md5: string };

  it('sends one markdown message, then each page as an image with its base64 and md5', async () => {
    await sendWecom(webhook(), message());

    expect(robots.requests.map((r) => r.body.msgtype)).toEqual(['markdown', 'image', 'image']);
    expect(robots.requests.every((r) => r.signed && r.path === '/wecom/cgi-bin/webhook/send')).toBe(true);
    const markdown = (robots.requests[0]!.body.markdown as { content: string }).content;
    expect(markdown).toBe(
      ['### 每日销售', '> 订阅内容：销售大屏（大屏）', '> 订阅时间：2026-03-10 09:00', '[查看详情](https://bi.example.com/openview/7)'].join('\n\n'),
    );
    const [sales, stock] = robots.requests.slice(1).map((r) => imageOf(r.body));
    expect(Buffer.from(sales!.base64, 'base64').equals(SALES)).toBe(true);
    expect(sales!.md5).toBe(md5(SALES));
    expect(Buffer.from(stock!.base64, 'base64').equals(STOCK)).toBe(true);
    expect(stock!.md5).toBe(md5(STOCK));
  });

  it('re-encodes a page above 2 MB at the first lower quality that fits; a page of exactly 2 MB goes as it is', async () => {
    const asked: number[] = [];
    const byQuality: Record<number, Buffer> = { 80: jpeg('q80', WECOM_IMAGE_LIMIT + 300_000), 60: jpeg('q60', 1_500_000), 40: jpeg('q40', 900_000) };
    const huge = page('大图.jpg', jpeg('q100', WECOM_IMAGE_LIMIT + 1), async (quality) => {
      asked.push(quality);
      return byQuality[quality]!;
    });
    const exact = page('刚好.jpg', jpeg('exact', WECOM_IMAGE_LIMIT), async () => {
      throw new Error('a page within the limit is not re-encoded');
    });

    await sendWecom(webhook(), message({ images: [huge, exact] }));

    expect(asked).toEqual([80, 60]);
    expect(robots.requests.map((r) => r.signed)).toEqual([true, true, true]);
    const [smaller, asIs] = robots.requests.slice(1).map((r) => imageOf(r.body));
    expect(Buffer.from(smaller!.base64, 'base64').equals(byQuality[60]!)).toBe(true);
    expect(smaller!.md5).toBe(md5(byQuality[60]!));
    expect(Buffer.from(asIs!.base64, 'base64').equals(exact.data)).toBe(true);
  });

  it('a page that fits at no quality fails the send before anything reaches the group', async () => {
    const tooBig = jpeg('big', WECOM_IMAGE_LIMIT + 10);
    const error = await failure(sendWecom(webhook(), message({ images: [page('小图.jpg', SALES), page('大图.jpg', tooBig, async () => tooBig)] })));
    expect(error.message).toBe('图片压缩后仍超过 2 MB，企业微信无法发送');
    expect(robots.requests).toHaveLength(0);
  });

  it("an errcode answer fails the send with the platform's own words", async () => {
    const error = await failure(sendWecom(`${robots.url}/wecom/cgi-bin/webhook/send?key=revoked`, message()));
    expect(error.message).toMatch(/^企业微信拒绝了消息（93000）：invalid webhook url/);
    // Refused at the text: the pages are not tried.
    expect(robots.requests).toHaveLength(1);

    // Any other errcode WeCom answers with fails the send the same way.
    robots.script('/wecom', { body: { errcode: 45009, errmsg: 'api freq out of limit' } });
    try {
      expect((await failure(sendWecom(webhook(), message()))).message).toBe('企业微信拒绝了消息（45009）：api freq out of limit');
    } finally {
      robots.script('/wecom', undefined);
    }
  });
});

describe('Feishu custom robot', () => {
  const webhook = () => `${robots.url}/feishu/open-apis/bot/v2/hook/abc`;
  const NOW = Date.UTC(2026, 2, 10, 1, 0, 0) + 789;

  it('sends one signed post message with the lines and links to the pages and the board', async () => {
    await sendFeishu(webhook(), 'feishu-secret', message(), NOW);

    expect(robots.requests).toHaveLength(1);
    const { body, signed } = robots.requests[0]!;
    expect(signed).toBe(true);
    // Seconds, as a string; the sign as Feishu documents it.
    expect(body.timestamp).toBe('1773104400');
    expect(body.sign).toBe(createHmac('sha256', '1773104400\nfeishu-secret').update('').digest('base64'));
    expect(body.msg_type).toBe('post');
    expect(body.content).toEqual({
      post: {
        zh_cn: {
          title: '每日销售',
          content: [
            [{ tag: 'text', text: '订阅内容：销售大屏（大屏）' }],
            [{ tag: 'text', text: '订阅时间：2026-03-10 09:00' }],
            [{ tag: 'a', text: '销售大屏.jpg', href: message().images[0]!.url }],
            [{ tag: 'a', text: '库存大屏.jpg', href: message().images[1]!.url }],
            [{ tag: 'a', text: '查看详情', href: 'https://bi.example.com/openview/7' }],
          ],
        },
      },
    });
  });

  it('links the PDF of a pdf subscription', async () => {
    await sendFeishu(webhook(), 'feishu-secret', message({ images: [], pdf: PDF }), NOW);
    const rows = (robots.requests[0]!.body.content as { post: { zh_cn: { content: unknown[] } } }).post.zh_cn.content;
    expect(rows).toContainEqual([{ tag: 'a', text: '每日销售.pdf', href: PDF.url }]);
  });

  it('a wrong secret is refused with code 19021 and the send fails with that message', async () => {
    const error = await failure(sendFeishu(webhook(), 'wrong-secret', message(), NOW));
    expect(error.message).toBe('飞书拒绝了消息（19021）：sign match fail or timestamp is not within one hour from current time');
    expect(robots.requests[0]!.signed).toBe(false);
  });
});

describe('tianxiangyun webhook', () => {
  const webhook = () => `${robots.url}/tianxiangyun/api/push`;

  it('posts the token as a Bearer header and in the JSON with the title, lines, link and every page', async () => {
    await sendTianxiangyun(webhook(), 'txy-token', message());

    expect(robots.requests).toHaveLength(1);
    const { headers, body, signed } = robots.requests[0]!;
    expect(signed).toBe(true);
    expect(headers.authorization).toBe('Bearer txy-token');
    expect(headers['content-type']).toMatch(/^application\/json/);
    expect(body).toEqual({
      token: 'txy-token',
      title: '每日销售',
      content: '订阅内容：销售大屏（大屏）\n订阅时间：2026-03-10 09:00',
      link: 'https://bi.example.com/openview/7',
      images: [
        { name: '销售大屏.jpg', url: message().images[0]!.url, base64: SALES.toString('base64') },
        { name: '库存大屏.jpg', url: message().images[1]!.url, base64: STOCK.toString('base64') },
      ],
      pdf: null,
    });
  });

  it('a pdf subscription carries the pdf', async () => {
    await sendTianxiangyun(webhook(), 'txy-token', message({ images: [], pdf: PDF }));
    expect(robots.requests[0]!.body).toMatchObject({ images: [], pdf: { name: '每日销售.pdf', url: PDF.url } });
  });

  it('a 2xx answer with a non-zero code fails with its message; an answer without a code succeeds', async () => {
    try {
      robots.script('/tianxiangyun', { body: { code: 500, msg: '推送渠道已停用' } });
      expect((await failure(sendTianxiangyun(webhook(), 'txy-token', message()))).message).toBe('天象云拒绝了消息（500）：推送渠道已停用');
      robots.script('/tianxiangyun', { body: { errcode: 40001, errmsg: 'invalid credential' } });
      expect((await failure(sendTianxiangyun(webhook(), 'txy-token', message()))).message).toBe('天象云拒绝了消息（40001）：invalid credential');

      // Success answers that carry no code at all: plain text, JSON null, an empty body.
      for (const body of ['ok', 'null', '']) {
        robots.script('/tianxiangyun', { status: 200, body });
        await expect(sendTianxiangyun(webhook(), 'txy-token', message())).resolves.toBeUndefined();
      }
    } finally {
      robots.script('/tianxiangyun', undefined);
    }
  });

  it('a non-2xx answer fails with the HTTP status and what the server said', async () => {
    const refused = await failure(sendTianxiangyun(webhook(), 'stolen-token', message()));
    expect(refused.message).toBe('天象云返回 HTTP 401：{"code":401,"msg":"token 无效"}');

    robots.script('/tianxiangyun', { status: 502, body: '<html><body>502 Bad Gateway</body></html>' });
    try {
      expect((await failure(sendTianxiangyun(webhook(), 'txy-token', message()))).message).toBe(
        '天象云返回 HTTP 502：<html><body>502 Bad Gateway</body></html>',
      );
    } finally {
      robots.script('/tianxiangyun', undefined);
    }
  });
});
