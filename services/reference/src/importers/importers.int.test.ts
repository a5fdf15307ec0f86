import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection } from 'mongoose';
import { LOCAL_MONGO_URL, connectMongo, mongoUrlWithDb } from '@onco/platform';
import { initModels, referenceModels, type ReferenceModels } from '../models';
import { fixtureFiles, fixturesDir, FIXTURE_FILES } from '../paths';
import { importIcd10 } from './icd10';
import { importOncoTree, parseOncoTree } from './oncotree';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const base = process.env.MONGO_URL ?? LOCAL_MONGO_URL;
let conn: Connection;
let models: ReferenceModels;

beforeAll(async () => {
  conn = await connectMongo(mongoUrlWithDb(base, `oncotrf_test_import_${randomBytes(4).toString('hex')}`));
  models = referenceModels(conn);
  // every model's collection and indexes first: an index build takes its collection's write lock
  await initModels(models);
});

afterAll(async () => {
  await conn?.dropDatabase().catch(() => undefined);
  await conn?.close();
});

describe('ICD-10-CM import into the database', () => {
  it('given an empty collection, when the fixture is imported, then every code is stored once (insert mode)', async () => {
    const progress: number[] = [];
    const res = await importIcd10(models.Icd10Code, fixtureFiles().icd10, {
      batchSize: 10,
      onProgress: (p) => progress.push(p.written),
    });
    expect(res).toMatchObject({ mode: 'insert', read: 42, inserted: 42 });
    expect(progress).toEqual([10, 20, 30, 40, 42]);
    expect(await models.Icd10Code.countDocuments()).toBe(42);
    const c61 = await models.Icd10Code.findOne({ formattedCode: 'C61' }).lean();
    expect(c61).toMatchObject({
      code: 'C61',
      description: 'Malignant neoplasm of prostate',
      version: 0,
      deleted: false,
      createdBy: 'import',
    });
    expect(typeof c61?._id).toBe('string');
  });

  it('when imported again (upsert by code), then nothing is duplicated and ids are kept', async () => {
    const before = await models.Icd10Code.findOne({ code: 'C50911' }).lean();
    const res = await importIcd10(models.Icd10Code, fixtureFiles().icd10, { batchSize: 1000 });
    expect(res).toMatchObject({ mode: 'upsert', read: 42, inserted: 0, updated: 0, unchanged: 42 });
    expect(await models.Icd10Code.countDocuments()).toBe(42);
    const after = await models.Icd10Code.findOne({ code: 'C50911' }).lean();
    expect(after?._id).toBe(before?._id);
  });

  it('when the raw CMS layout with a changed description is upserted, then the row is updated in place', async () => {
    const rows = [
      { code: 'C61', formattedCode: 'C61', description: 'Malignant neoplasm of prostate (revised)' },
    ];
    const res = await importIcd10(models.Icd10Code, rows, { mode: 'upsert', by: 'test' });
    expect(res).toMatchObject({ inserted: 0, updated: 1 });
    expect((await models.Icd10Code.findOne({ code: 'C61' }).lean())?.description).toBe(
      'Malignant neoplasm of prostate (revised)',
    );
    const cms = await importIcd10(models.Icd10Code, path.join(fixturesDir(), FIXTURE_FILES.icd10Cms));
    expect(cms).toMatchObject({ mode: 'upsert', read: 7, inserted: 0, updated: 1, unchanged: 6 });
    expect((await models.Icd10Code.findOne({ code: 'C61' }).lean())?.description).toBe(
      'Malignant neoplasm of prostate',
    );
  });
});

describe('OncoTree import into the database', () => {
  it('given an empty collection, when the fixture is imported, then nodes carry paths and childExists', async () => {
    const res = await importOncoTree(models.DiagnosisType, fixtureFiles().oncotree);
    expect(res).toMatchObject({ mode: 'insert', read: 33, inserted: 33 });
    expect(await models.DiagnosisType.countDocuments()).toBe(33);
    expect(await models.DiagnosisType.countDocuments({ parentCode: 'TISSUE' })).toBe(6);
    const idc = await models.DiagnosisType.findOne({ code: 'IDC' }).lean();
    expect(idc).toMatchObject({
      parentCode: 'BRCA',
      level: 3,
      childExists: false,
      path: 'Breast (BREAST) -> Invasive Breast Carcinoma (BRCA) -> Breast Invasive Ductal Carcinoma (IDC)',
    });
    expect((await models.DiagnosisType.findOne({ code: 'NSCLC' }).lean())?.childExists).toBe(true);
  });

  it('when a newer release without a node is upserted, then that node is soft-deleted and the rest kept', async () => {
    const nodes = parseOncoTree(readFileSync(fixtureFiles().oncotree, 'utf8')).filter(
      (n) => n.code !== 'ACRM',
    );
    const res = await importOncoTree(models.DiagnosisType, nodes);
    expect(res).toMatchObject({
      mode: 'upsert',
      read: 32,
      inserted: 0,
      updated: 0,
      unchanged: 32,
      removed: 1,
    });
    expect((await models.DiagnosisType.findOne({ code: 'ACRM' }).lean())?.deleted).toBe(true);
    expect(await models.DiagnosisType.countDocuments({ deleted: { $ne: true } })).toBe(32);
    // and back again
    const again = await importOncoTree(models.DiagnosisType, fixtureFiles().oncotree);
    expect(again).toMatchObject({ inserted: 0, updated: 1, unchanged: 32, removed: 0 });
    expect((await models.DiagnosisType.findOne({ code: 'ACRM' }).lean())?.deleted).toBe(false);
  });
});
