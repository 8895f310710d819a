import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import iconv from 'iconv-lite';
import { Utf8Check } from './upload.ts';

/** The bytes through a check in chunks of `size` bytes: what it found and what it passed on. */
async function checked(bytes: Buffer, size: number): Promise<{ valid: boolean; loneCr: boolean; out: Buffer }> {
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  const check = new Utf8Check();
  const out: Buffer[] = [];
  await pipeline(
    Readable.from(chunks),
    check,
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        out.push(chunk);
        done();
      },
    }),
  );
  return { valid: check.valid, loneCr: check.loneCr, out: Buffer.concat(out) };
}

describe('the check of an upload while it arrives', () => {
  const text = Buffer.from('订单号,省份,金额\r\n1,广东省,12.5\r\n2,𠀀北京,3\r\n', 'utf8');

  it('finds UTF-8 valid however the chunks split its characters, and passes every byte on', async () => {
    for (let size = 1; size <= text.length; size++) {
      const r = await checked(text, size);
      expect([size, r.valid, r.loneCr]).toEqual([size, true, false]);
      expect(r.out.equals(text)).toBe(true);
    }
  });

  it('finds GBK, a cut-off last character and a stray continuation byte invalid at any split', async () => {
    const bad = [iconv.encode('订单号,省份\n1,广东\n', 'gbk'), text.subarray(0, text.indexOf(Buffer.from('𠀀')) + 2), Buffer.from([0x61, 0x80, 0x62])];
    for (const bytes of bad) for (let size = 1; size <= bytes.length; size++) expect((await checked(bytes, size)).valid).toBe(false);
  });

  it('finds a lone CR wherever the chunks split, and none in CRLF or LF lines', async () => {
    const cases: [string, boolean][] = [
      ['a\nb\n', false],
      ['a\r\nb\r\n', false],
      ['a\rb', true],
      ['a\r', true],
      ['a\r\r\n', true],
    ];
    for (const [value, lone] of cases) {
      const bytes = Buffer.from(value);
      for (let size = 1; size <= bytes.length; size++) expect([value, size, (await checked(bytes, size)).loneCr]).toEqual([value, size, lone]);
    }
  });
});
