import { MANIFEST_LIMITS, MANIFEST_MSG } from '@onco/domain';
import { ManifestFileError, type ManifestFormat } from './manifest-file';

/** Step 1 of reading a manifest file (parse.ts): are the bytes what the name says? */

const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const EMPTY_ZIP = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const CFB = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const ENCRYPTED = Buffer.from('EncryptedPackage', 'utf16le');

/** What the bytes are, by their magic number. */
export function contentKind(buf: Buffer): 'zip' | 'cfb' | 'pdf' | 'image' | 'utf16' | 'binary' | 'text' {
  if (buf.subarray(0, 4).equals(ZIP) || buf.subarray(0, 4).equals(EMPTY_ZIP)) return 'zip';
  if (buf.subarray(0, 8).equals(CFB)) return 'cfb';
  if (buf.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  const head = buf.subarray(0, 4).toString('hex');
  if (head.startsWith('89504e47') || head.startsWith('ffd8ff') || head.startsWith('47494638')) return 'image';
  if (head.startsWith('fffe') || head.startsWith('feff')) return 'utf16';
  if (buf.subarray(0, Math.min(buf.length, 64 * 1024)).includes(0)) return 'binary';
  return 'text';
}

/** The sum of the uncompressed sizes in a zip's central directory (no inflating); Infinity when unreadable. */
export function zipUnpackedSize(buf: Buffer): number {
  const from = Math.max(0, buf.length - 65_557);
  let eocd = -1;
  for (let i = buf.length - 22; i >= from; i--)
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  if (eocd < 0) return Infinity;
  const entries = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  if (entries === 0xffff || p === 0xffffffff) return Infinity; // zip64: far past any manifest
  let total = 0;
  for (let n = 0; n < entries; n++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== 0x02014b50) return Infinity;
    const size = buf.readUInt32LE(p + 24);
    if (size === 0xffffffff) return Infinity;
    total += size;
    p += 46 + buf.readUInt16LE(p + 28) + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
  }
  return total;
}

const what = {
  pdf: 'a PDF document',
  image: 'an image',
  binary: 'not a spreadsheet',
  zip: 'an .xlsx workbook',
  cfb: 'an .xls workbook',
} as const;

/** Check that the bytes are what the name says (step 1 of parse.ts); throws ManifestFileError with the reason. */
export function sniffManifest(buf: Buffer, format: ManifestFormat): void {
  if (buf.length === 0) throw new ManifestFileError(MANIFEST_MSG.empty);
  const kind = contentKind(buf);
  if (kind === 'cfb' && buf.includes(ENCRYPTED)) throw new ManifestFileError(MANIFEST_MSG.encrypted);
  if (format === 'csv') {
    if (kind === 'utf16') throw new ManifestFileError(MANIFEST_MSG.utf16);
    if (kind !== 'text') throw new ManifestFileError(MANIFEST_MSG.csvNotText(what[kind]));
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(buf);
    } catch {
      throw new ManifestFileError(MANIFEST_MSG.notUtf8);
    }
    // the delimiter is the comma (RFC 4180); SheetJS would guess another one, we name it instead
    const first = buf
      .subarray(0, Math.min(buf.length, 64 * 1024))
      .toString('utf8')
      .split(/\r?\n/)[0];
    const other = !first.includes(',') ? [';', '\t', '|'].find((d) => first.includes(d)) : undefined;
    if (other) throw new ManifestFileError(MANIFEST_MSG.delimiter(other === '\t' ? 'tabs' : `"${other}"`));
    return;
  }
  const expected = format === 'xlsx' ? 'zip' : 'cfb';
  if (kind !== expected) {
    const actual = kind === 'text' || kind === 'utf16' ? 'plain text' : what[kind];
    throw new ManifestFileError(MANIFEST_MSG.wrongKind(format, actual));
  }
  if (kind === 'zip' && zipUnpackedSize(buf) > MANIFEST_LIMITS.maxUnpackedBytes)
    throw new ManifestFileError(MANIFEST_MSG.unpacksTooLarge(MANIFEST_LIMITS.maxUnpackedBytes / 1024 / 1024));
}
