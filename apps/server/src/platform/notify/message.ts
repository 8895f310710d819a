/**
 * What a channel sends (docs/subscriptions.md): a title, a few lines of text, a link back to
 * the product, and the rendered pages as JPEG images (each also reachable through a public,
 * unguessable URL for the robots that cannot take binary images) or one PDF.
 */
export interface NotifyImage {
  /** File name shown to the recipient (大屏标题.jpg). */
  name: string;
  data: Buffer;
  /** Where the robots' platforms fetch it (our server, unguessable name); absent when not stored. */
  url?: string;
  /** The same page at a lower JPEG quality (channels with a size limit: WeCom 2 MB). */
  reencode?: (quality: number) => Promise<Buffer>;
}

export interface NotifyAttachment {
  name: string;
  data: Buffer;
  contentType: string;
  url?: string;
}

export interface NotifyMessage {
  title: string;
  /** Plain lines of text (what was subscribed, when). */
  lines: string[];
  /** Opens the subscribed board or slideshow in the product. */
  link?: string;
  images: NotifyImage[];
  /** The PDF of a pdf-format subscription (then images may be empty). */
  pdf?: NotifyAttachment;
}

/** A channel refused or failed the message; `message` is what the log shows (Chinese prefix + the platform's words). */
export class NotifyError extends Error {
  override name = 'NotifyError';
  constructor(
    message: string,
    readonly code = 1,
  ) {
    super(message);
  }
}

export const notifyMessages = {
  httpFailed: (channel: string, status: number, body: string) => `${channel}返回 HTTP ${status}${body ? `：${body.slice(0, 200)}` : ''}`,
  platformRefused: (channel: string, code: number | string, msg: string) => `${channel}拒绝了消息（${code}）：${msg}`,
  unreachable: (channel: string, reason: string) => `无法连接${channel}：${reason}`,
  emailFailed: (reason: string) => `邮件发送失败：${reason}`,
  imageTooLarge: '图片压缩后仍超过 2 MB，企业微信无法发送',
  viewLink: '查看详情',
} as const;

/** POSTs JSON and returns the parsed answer; network and HTTP failures become NotifyError. */
export async function postJson(channel: string, url: string, body: unknown, headers: Record<string, string> = {}): Promise<Record<string, unknown>> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    throw new NotifyError(notifyMessages.unreachable(channel, cause ?? (error as Error).message));
  }
  const text = await res.text();
  if (!res.ok) throw new NotifyError(notifyMessages.httpFailed(channel, res.status, text));
  // A 2xx answer that is not a JSON object ("ok", null, an HTML page) carries no error code.
  try {
    const answer: unknown = text ? JSON.parse(text) : {};
    return answer !== null && typeof answer === 'object' && !Array.isArray(answer) ? (answer as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
