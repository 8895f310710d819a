import { randomBytes } from 'node:crypto';

export interface MultipartFile {
  name: string;
  content: Buffer | string;
  /** Form field of the file part (default `file`). */
  field?: string;
  contentType?: string;
}

/** A multipart/form-data body for `app.inject`: text fields, then the file (if any). */
export function multipart(fields: Record<string, string | number>, file?: MultipartFile): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----shutu${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\nContent-Type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`;
    parts.push(Buffer.from(head), Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content), Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
