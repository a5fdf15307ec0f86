import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection } from 'mongoose';
import { LOCAL_MONGO_URL, connectMongo, mongoUrlWithDb, parseListQuery } from '@onco/platform';
import { initModels, referenceModels, type ReferenceModels } from '../models';
import { fullDataFiles } from '../paths';
import { Icd10Catalog } from '../icd10-catalog';
import { icd10Resource } from '../routes/icd10';
import { importIcd10, readIcd10 } from './icd10';
import { importOncoTree } from './oncotree';

/**
 * The full releases (../shared/data beside the repository: 74,719 ICD-10-CM codes, 898 OncoTree nodes).
 * Runs only where that folder exists; the files are not part of the repository. Timings are printed.
 */
const files = fullDataFiles();
const base = process.env.MONGO_URL ?? LOCAL_MONGO_URL;
let conn: Connection | undefined;
let models: ReferenceModels;

beforeAll(async () => {
  if (!files) return;
  conn = await connectMongo(mongoUrlWithDb(base, `oncotrf_test_full_${randomBytes(4).toString('hex')}`));
  models = referenceModels(conn);
  // every model's collection and indexes first: an index build takes its collection's write lock
  await initModels(models);
});

afterAll(async () => {
  await conn?.dropDatabase().catch(() => undefined);
  await conn?.close();
});

const log = (s: string) => console.info(`[full import] ${s}`);

describe('full reference-data import', () => {
  it.skipIf(!files)(
    'imports all 74,719 ICD-10-CM codes (streamed, insertMany batches of 1000 into the empty collection) and searches them',
    async () => {
      let batches = 0;
      const res = await importIcd10(models.Icd10Code, files!.icd10, {
        batchSize: 1000,
        onProgress: (p) => (batches = p.batches),
      });
      log(
        `ICD-10-CM: ${res.read} rows, ${res.inserted} inserted in ${res.ms} ms (${res.mode}, ${batches} batches)`,
      );
      expect(res).toMatchObject({ read: 74_719, inserted: 74_719, mode: 'insert' });
      expect(batches).toBe(75);

      // the picker's catalog: one read of the collection, then searches in memory
      const catalog = new Icd10Catalog(models.Icd10Code);
      let t = Date.now();
      await catalog.ensureFresh();
      log(`ICD-10-CM catalog loaded ${catalog.size} rows in ${Date.now() - t} ms`);
      expect(catalog.size).toBe(74_719);
      const list = (qs: Record<string, unknown>) => catalog.list(parseListQuery(icd10Resource, qs));
      t = Date.now();
      const threeChar = [...Array(50)].map((_, i) => `C${String(i).padStart(2, '0')}`);
      const neoplasms = await list({ filter: JSON.stringify({ code: `in(${threeChar.join(',')})` }) });
      const prostate = await list({ filter: JSON.stringify({ q: 'prostate' }), size: '1000' });
      const byCode = await list({
        filter: JSON.stringify({ formattedCode: 'in(C50.911,C61,Z08,C34.90,C18.9,C43.9,Z85.3)' }),
      });
      log(`ICD-10-CM catalog: 3 searches in ${Date.now() - t} ms`);
      // in() matches whole codes only: just the billable 3-character codes of C00-C49 (C01, C07, C12, ...)
      let expected = 0;
      for await (const r of readIcd10(files!.icd10)) if (threeChar.includes(r.code)) expected += 1;
      expect(expected).toBeGreaterThan(0);
      expect(neoplasms.totalElements).toBe(expected);
      expect(prostate.content.map((c) => c.formattedCode)).toContain('C61');
      expect(byCode.totalElements).toBe(7);
      expect(byCode.content.find((c) => c.code === 'C50911')?.description).toBe(
        'Malignant neoplasm of unspecified site of right female breast',
      );
      expect((await list({ size: '1000', page: '0' })).totalElements).toBe(74_719);
    },
    180_000,
  );

  it.skipIf(!files)(
    're-imports the same release in upsert mode: one read, no writes',
    async () => {
      const res = await importIcd10(models.Icd10Code, files!.icd10);
      log(
        `ICD-10-CM re-import: ${res.read} rows, mode ${res.mode}, ${res.updated} updated, ${res.unchanged} unchanged in ${res.ms} ms`,
      );
      expect(res).toMatchObject({ mode: 'upsert', read: 74_719, inserted: 0, updated: 0, unchanged: 74_719 });
    },
    120_000,
  );

  it.skipIf(!files)(
    'imports all 898 OncoTree nodes with paths, then re-imports them without writes',
    async () => {
      const res = await importOncoTree(models.DiagnosisType, files!.oncotree);
      log(`OncoTree: ${res.read} nodes, ${res.inserted} inserted in ${res.ms} ms (${res.mode})`);
      expect(res).toMatchObject({ read: 898, inserted: 898, mode: 'insert' });
      const all = await models.DiagnosisType.find({}, { code: 1, level: 1, path: 1 }).lean();
      expect(all).toHaveLength(898);
      expect(all.filter((n) => n.level === 1)).toHaveLength(32);
      expect(all.filter((n) => n.level === 6)).toHaveLength(21);
      expect(all.find((n) => n.code === 'IDC')?.path).toBe(
        'Breast (BREAST) -> Invasive Breast Carcinoma (BRCA) -> Breast Invasive Ductal Carcinoma (IDC)',
      );
      const again = await importOncoTree(models.DiagnosisType, files!.oncotree);
      log(
        `OncoTree re-import: ${again.read} nodes, mode ${again.mode}, ${again.unchanged} unchanged in ${again.ms} ms`,
      );
      expect(again).toMatchObject({ mode: 'upsert', inserted: 0, updated: 0, unchanged: 898, removed: 0 });
    },
    120_000,
  );
});
