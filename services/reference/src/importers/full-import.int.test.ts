import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection } from 'mongoose';
import { connectMongo } from '@onco/platform';
import { referenceModels, type ReferenceModels } from '../models';
import { fullDataFiles } from '../paths';
import { importIcd10 } from './icd10';
import { importOncoTree } from './oncotree';

/**
 * The full releases (../shared/data beside the repository: 74,719 ICD-10-CM codes, 898 OncoTree nodes).
 * Runs only where that folder exists; the files are not part of the repository.
 */
const files = fullDataFiles();
const base = process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017/oncotrf';
let conn: Connection | undefined;
let models: ReferenceModels;

beforeAll(async () => {
  if (!files) return;
  conn = await connectMongo(base.replace(/\/[^/?]*(\?|$)/, `/oncotrf_test_full_${randomBytes(4).toString('hex')}$1`));
  models = referenceModels(conn);
  await Promise.all([models.Icd10Code.init(), models.DiagnosisType.init()]);
});

afterAll(async () => {
  await conn?.dropDatabase().catch(() => undefined);
  await conn?.close();
});

describe('full reference-data import', () => {
  it.skipIf(!files)(
    'imports all 74,719 ICD-10-CM codes (streamed, batches of 1000, insert mode into the empty collection)',
    async () => {
      let batches = 0;
      const res = await importIcd10(models.Icd10Code, files!.icd10, { batchSize: 1000, onProgress: (p) => (batches = p.batches) });
      console.info(`[full import] ICD-10-CM: ${res.read} rows, ${res.inserted} inserted in ${res.ms} ms (${res.mode}, ${batches} batches)`);
      expect(res).toMatchObject({ read: 74_719, inserted: 74_719, mode: 'insert' });
      expect(batches).toBe(75);
      expect(await models.Icd10Code.countDocuments()).toBe(74_719);
      expect(await models.Icd10Code.countDocuments({ code: /^[C]|^D[0-4]/ })).toBe(1_727);
      const c50 = await models.Icd10Code.findOne({ formattedCode: 'C50.911' }).lean();
      expect(c50?.description).toBe('Malignant neoplasm of unspecified site of right female breast');
    },
    180_000,
  );

  it.skipIf(!files)(
    'imports all 898 OncoTree nodes with paths (upsert mode), then re-imports without changes',
    async () => {
      const res = await importOncoTree(models.DiagnosisType, files!.oncotree, { mode: 'upsert' });
      console.info(`[full import] OncoTree: ${res.read} nodes, ${res.inserted} upserted in ${res.ms} ms`);
      expect(res).toMatchObject({ read: 898, inserted: 898 });
      expect(await models.DiagnosisType.countDocuments()).toBe(898);
      expect(await models.DiagnosisType.countDocuments({ level: 1 })).toBe(32);
      expect(await models.DiagnosisType.countDocuments({ level: 6 })).toBe(21);
      const idc = await models.DiagnosisType.findOne({ code: 'IDC' }).lean();
      expect(idc?.path).toBe('Breast (BREAST) -> Invasive Breast Carcinoma (BRCA) -> Breast Invasive Ductal Carcinoma (IDC)');
      const again = await importOncoTree(models.DiagnosisType, files!.oncotree);
      console.info(`[full import] OncoTree re-import: ${again.read} nodes, mode ${again.mode}, ${again.ms} ms`);
      expect(again).toMatchObject({ mode: 'upsert', inserted: 0, removed: 0 });
      expect(await models.DiagnosisType.countDocuments()).toBe(898);
    },
    120_000,
  );
});
