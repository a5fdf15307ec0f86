import { randomBytes } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import * as XLSX from '@e965/xlsx';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { createEvent, parseEvent } from '@onco/events';
import type { BlobStore } from '@onco/platform';
import type { LabModels } from '../src/models';
import type { SampleManifestDoc } from '../src/models/sample-manifest';
import { handleAttachmentEvent } from '../src/manifests/consumer';
import type { SampleManifestQueue } from '../src/manifests/queue';
import { oneTestSubmission, type OneTestSubmission } from './events';

/** Test and benchmark helpers for sample manifests: files of every format, and requisitions the lab knows. */

/** A workbook (or CSV) from rows of values (Date values become date cells in .xlsx/.xls). */
export function manifestFile(rows: unknown[][], format: 'xlsx' | 'xls' | 'csv'): Buffer {
  const ws = XLSX.utils.aoa_to_sheet(rows, { cellDates: true });
  if (format === 'csv') return Buffer.from(XLSX.utils.sheet_to_csv(ws), 'utf8');
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, 'Manifest');
  return XLSX.write(wb, {
    type: 'buffer',
    bookType: format === 'xls' ? 'biff8' : 'xlsx',
    compression: true,
  }) as Buffer;
}

/** Read a file we serve (template, error file) back into rows of text. */
export function readRows(buf: Buffer): string[][] {
  const wb = XLSX.read(buf, { type: 'buffer', raw: true });
  return XLSX.utils.sheet_to_json<string[]>(wb.Sheets[wb.SheetNames[0]], {
    header: 1,
    raw: false,
    defval: '',
  });
}

/** A workbook with a formula cell (row 2, column A). */
export function withFormula(rows: unknown[][]): Buffer {
  const ws = XLSX.utils.aoa_to_sheet(rows);
  ws['A2'] = { t: 's', v: 'x', f: 'CONCAT("TRF-","1")' } as never;
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, ws, 'Manifest');
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

/** A password-protected workbook as Office writes one: an OLE2 file with an EncryptedPackage stream. */
export function encryptedWorkbook(): Buffer {
  const CFB = (XLSX as unknown as { CFB: any }).CFB;
  const cfb = CFB.utils.cfb_new();
  CFB.utils.cfb_add(cfb, '/EncryptionInfo', randomBytes(256));
  CFB.utils.cfb_add(cfb, '/EncryptedPackage', randomBytes(8192));
  return Buffer.from(CFB.write(cfb, { type: 'buffer' }));
}

/** A zip bomb named .xlsx: entries of deflated zeros that unpack to `mb` megabytes in all. */
export function zipBomb(mb = 450): Buffer {
  const part = 45 * 1024 * 1024;
  const zeros = deflateRawSync(Buffer.alloc(part), { level: 9 });
  const crc = 0; // never checked: the file is refused before inflating
  const local: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (let i = 0; i < Math.ceil(mb / 45); i++) {
    const name = Buffer.from(`xl/worksheets/sheet${i + 1}.xml`);
    const lh = Buffer.alloc(30);
    lh.writeUInt32LE(0x04034b50, 0);
    lh.writeUInt16LE(20, 4);
    lh.writeUInt16LE(8, 8);
    lh.writeUInt32LE(crc, 14);
    lh.writeUInt32LE(zeros.length, 18);
    lh.writeUInt32LE(part, 22);
    lh.writeUInt16LE(name.length, 26);
    local.push(lh, name, zeros);
    const ch = Buffer.alloc(46);
    ch.writeUInt32LE(0x02014b50, 0);
    ch.writeUInt16LE(20, 4);
    ch.writeUInt16LE(20, 6);
    ch.writeUInt16LE(8, 10);
    ch.writeUInt32LE(crc, 16);
    ch.writeUInt32LE(zeros.length, 20);
    ch.writeUInt32LE(part, 24);
    ch.writeUInt16LE(name.length, 28);
    ch.writeUInt32LE(offset, 42);
    central.push(ch, name);
    offset += 30 + name.length + zeros.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(central.length / 2, 8);
  end.writeUInt16LE(central.length / 2, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...local, cd, end]);
}

/** A crafted submission the lab turns into test orders (TRF # `TRF-<id>`, test id `TO-<id>`). */
export function submission(
  requisitionId: string,
  over: Partial<Pick<OneTestSubmission, 'accountId' | 'orderType' | 'testType'>> = {},
) {
  return oneTestSubmission(
    requisitionId,
    {
      accountId: 'acc-M',
      accountName: 'Manifest Oncology',
      physicianId: 'phy-M',
      patientId: `pat-${requisitionId}`,
      testType: 'NEXT_DX',
      orderType: 'INITIAL_ORDER',
      review: null,
      diagnosis: null,
    },
    over,
  );
}

/** 'YYYY-MM-DD' n days before today (UTC). */
export const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

export const HEADER = [
  'TRF #',
  'Sample Type',
  'Specimen ID',
  'Status',
  'Specimen Type',
  'Sample Site',
  'LIMS Project ID',
  'Collection Date',
  'Received Date',
  'Accession ID',
  'Sample Group ID',
];

/** A valid row: a tumor (FFPE block) or a normal (blood) or a plasma, ON_HOLD. */
export function row(
  trf: string,
  type: 'TUMOR' | 'NORMAL' | 'PLASMA',
  tube: string,
  over: Partial<Record<string, unknown>> = {},
) {
  const base: Record<string, unknown> = {
    'TRF #': trf,
    'Sample Type': type,
    'Specimen ID': tube,
    Status: 'ON_HOLD',
    'Specimen Type': type === 'TUMOR' ? 'FFPE_BLOCK' : type === 'NORMAL' ? 'BLOOD' : 'PLASMA',
    'Sample Site': type === 'TUMOR' ? 'Lung' : '',
    'LIMS Project ID': 'LP-1',
    'Collection Date': daysAgo(10),
    'Received Date': daysAgo(5),
    'Accession ID': '',
    'Sample Group ID': '',
    ...over,
  };
  return HEADER.map((h) => base[h] ?? '');
}

/**
 * A SAMPLE_MANIFEST uploaded by `uploader` (its .csv in the blob store) and recorded by the lab's consumer from its
 * `attachment` event, as the lab sees every upload (the job's add left out: no queue here), the event read as the
 * consumer reads it off Kafka: the current schemaVersion, with the uploader's role when given, or `schemaVersion`
 * 1 (an older producer's: no role). The manifest, UPLOADED.
 */
export async function recordedManifest(
  ctx: { blobs: BlobStore },
  models: LabModels,
  o: {
    attachmentId: string;
    rows: unknown[][];
    uploader: { id: string; name: string; role?: string };
    schemaVersion?: number;
  },
): Promise<SampleManifestDoc> {
  const { role, ...uploader } = o.uploader;
  const csv = manifestFile([HEADER, ...o.rows], 'csv');
  const stored = await ctx.blobs.put(Readable.from([csv]));
  const event = createEvent('attachment', {
    data: {
      attachmentId: o.attachmentId,
      change: 'uploaded',
      type: 'SAMPLE_MANIFEST',
      name: `${o.attachmentId}.csv`,
      contentType: 'text/csv',
      size: stored.size,
      sha256: createHash('sha256').update(csv).digest('hex'),
      blobId: stored.id,
      accountId: 'acc-LAB',
      accountName: 'Lab',
      requisitionId: null,
      uploadedBy: uploader,
      ...(role ? { uploaderRole: role } : {}),
      uploaderScope: { allAccounts: true, accountIds: [], physicianIds: [], mayEditSamples: true },
      changedBy: uploader,
      changedOn: new Date().toISOString(),
    },
  });
  const sent = { ...event, schemaVersion: o.schemaVersion ?? event.schemaVersion };
  const queue = { add: async () => undefined } as unknown as SampleManifestQueue;
  if ((await handleAttachmentEvent(models, queue, parseEvent(JSON.parse(JSON.stringify(sent))))) !== 'queued')
    throw new Error(`the manifest ${o.attachmentId} was not recorded`);
  return (await models.SampleManifest.findById(o.attachmentId).lean<SampleManifestDoc>().exec())!;
}
