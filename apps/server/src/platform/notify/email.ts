import { NotifyError, notifyMessages, type NotifyMessage } from './message.ts';

export interface SmtpSettings {
  host: string;
  port: number;
  /** TLS from the first byte (465); otherwise STARTTLS when the server offers it. */
  secure: boolean;
  user: string;
  password: string;
  from: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/**
 * Email through the configured SMTP server (nodemailer): a Chinese subject, the lines and a
 * link as HTML, every page attached as a JPEG and shown inline through its content id, the PDF
 * attached for pdf subscriptions.
 */
export async function sendEmail(smtp: SmtpSettings, to: string, message: NotifyMessage): Promise<void> {
  // Loaded with the first mail, not at the server's start (≈ 12 MiB resident).
  const { default: nodemailer } = await import('nodemailer');
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    auth: smtp.user ? { user: smtp.user, pass: smtp.password } : undefined,
    connectionTimeout: 20_000,
    greetingTimeout: 20_000,
    socketTimeout: 60_000,
  });
  const images = message.images.map((image, i) => ({ ...image, cid: `page-${i + 1}@shutu` }));
  const html = [
    `<h3>${escapeHtml(message.title)}</h3>`,
    ...message.lines.map((line) => `<p>${escapeHtml(line)}</p>`),
    message.link ? `<p><a href="${escapeHtml(message.link)}">${notifyMessages.viewLink}</a></p>` : '',
    ...images.map((image) => `<p><img src="cid:${image.cid}" alt="${escapeHtml(image.name)}" style="max-width:100%"></p>`),
  ].join('\n');
  try {
    await transport.sendMail({
      from: smtp.from,
      to,
      subject: message.title,
      text: [...message.lines, message.link ?? ''].join('\n'),
      html,
      attachments: [
        ...images.map((image) => ({ filename: image.name, content: image.data, contentType: 'image/jpeg', cid: image.cid })),
        ...(message.pdf ? [{ filename: message.pdf.name, content: message.pdf.data, contentType: message.pdf.contentType }] : []),
      ],
    });
  } catch (error) {
    throw new NotifyError(notifyMessages.emailFailed((error as Error).message));
  } finally {
    transport.close();
  }
}
