/**
 * The sum of the uncompressed sizes a zip's central directory declares, read before an xlsx
 * is handed to SheetJS (which inflates the sheet XML in memory): a small file that unpacks
 * to gigabytes is refused up front. null: not a readable zip (truncated, no directory).
 * Infinity: ZIP64 sizes (entries past 4 GiB), which no acceptable workbook has.
 */
export function unpackedZipSize(bytes: Buffer): number | null {
  const EOCD = 0x06054b50;
  const CENTRAL = 0x02014b50;
  const minEocd = 22;
  if (bytes.length < minEocd) return null;
  const earliest = Math.max(0, bytes.length - minEocd - 0xffff);
  let eocd = -1;
  for (let i = bytes.length - minEocd; i >= earliest; i--) {
    if (bytes.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  const entries = bytes.readUInt16LE(eocd + 10);
  const offset = bytes.readUInt32LE(eocd + 16);
  if (entries === 0xffff || offset === 0xffffffff) return Infinity;
  let at = offset;
  let total = 0;
  for (let n = 0; n < entries; n++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== CENTRAL) return null;
    const size = bytes.readUInt32LE(at + 24);
    if (size === 0xffffffff) return Infinity;
    total += size;
    at += 46 + bytes.readUInt16LE(at + 28) + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
  return total;
}
