/** An upload's multipart fields: names and aliases, the attachment JSON, small parts read whole. */
import type { MultipartFile } from '@fastify/multipart';
import { BlobTooLargeError, badRequest } from '@onco/platform';

/** The fields of an upload, under any of the names a client may use (see README "Attachments"). */
export interface UploadFields {
  type?: string;
  accountId?: string;
  accountName?: string;
  testOrderFormId?: string;
}

const FIELD_ALIASES: Record<string, keyof UploadFields> = {
  type: 'type',
  attachmentType: 'type',
  'attachment.type': 'type',
  accountId: 'accountId',
  'account.id': 'accountId',
  'attachment.account.id': 'accountId',
  accountName: 'accountName',
  'account.name': 'accountName',
  testOrderFormId: 'testOrderFormId',
  'testOrderForm.id': 'testOrderFormId',
  'attachment.testOrderForm.id': 'testOrderFormId',
  trfId: 'testOrderFormId',
};

/** Merge an `attachment` JSON object ({type, account: {id, name}, testOrderForm: {id}}) into the fields. */
export function mergeAttachmentJson(fields: UploadFields, text: string) {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw badRequest('Invalid attachment: not valid JSON', { field: 'attachment' });
  }
  if (!v || typeof v !== 'object' || Array.isArray(v))
    throw badRequest('Invalid attachment: expected a JSON object', { field: 'attachment' });
  const a = v as Record<string, any>;
  const str = (x: unknown) => (typeof x === 'string' || typeof x === 'number' ? String(x) : undefined);
  fields.type ??= str(a.type);
  fields.accountId ??= str(a.accountId) ?? str(a.account?.id);
  fields.accountName ??= str(a.accountName) ?? str(a.account?.name);
  fields.testOrderFormId ??= str(a.testOrderFormId) ?? str(a.testOrderForm?.id);
}

export function setField(fields: UploadFields, name: string, value: string) {
  if (name === 'attachment') return mergeAttachmentJson(fields, value);
  const key = FIELD_ALIASES[name];
  if (!key) return; // unknown fields are ignored (a client may send the whole attachment object's fields)
  const v = value.trim();
  if (v !== '' && v !== 'null' && v !== 'undefined') fields[key] = v;
}

export async function readSmall(part: MultipartFile, max = 64 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of part.file) {
    size += (chunk as Buffer).length;
    if (size > max) throw badRequest(`Invalid ${part.fieldname}: larger than ${max} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export const isTooLarge = (err: any) =>
  err instanceof BlobTooLargeError || err?.code === 'FST_REQ_FILE_TOO_LARGE' || err?.statusCode === 413;

export const ID_RE = /^[A-Za-z0-9_-]{1,64}$/;
