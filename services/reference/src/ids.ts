import { createHash } from 'node:crypto';

/**
 * A stable UUID (v5-style: SHA-1 of a namespace and a natural key) for records that have a natural key:
 * ICD-10-CM codes, OncoTree codes, demo records. Re-imports and re-seeds then address the same document by
 * _id, served by the _id index on every MongoDB-wire server.
 */
export function stableId(namespace: string, key: string): string {
  const h = createHash('sha1').update(`onco:${namespace}:${key}`).digest();
  h[6] = (h[6] & 0x0f) | 0x50; // version 5
  h[8] = (h[8] & 0x3f) | 0x80; // RFC 4122 variant
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

export const icd10Id = (code: string) => stableId('icd10', code);
export const diagnosisTypeId = (code: string) => stableId('oncotree', code);
