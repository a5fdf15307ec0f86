import { connectMongo } from '@onco/platform';
import { referenceModels } from '../src/models';
import { importIcd10, readIcd10, type Icd10Row } from '../src/importers/icd10';
import { fullDataFiles } from '../src/paths';
import { icd10Id } from '../src/ids';

const conn = await connectMongo('mongodb://127.0.0.1:27017/oncotrf_scratch_measure3');
const m = referenceModels(conn);
await m.Icd10Code.init();
const rows: Icd10Row[] = [];
for await (const r of readIcd10(fullDataFiles()!.icd10)) rows.push(r);
const c = m.Icd10Code.collection;
const t = async (label: string, f: () => Promise<unknown>) => {
  const s = Date.now();
  await f();
  console.log(label, Date.now() - s, 'ms');
};
const N = 100;
const sample = rows.slice(0, N);
// empty collection
await t(`empty: bulkWrite ${N} upserts by _id`, () =>
  c.bulkWrite(sample.map((r) => ({ updateOne: { filter: { _id: icd10Id(r.code) } as any, update: { $set: { ...r } }, upsert: true } })), { ordered: false }));
await t(`small: bulkWrite ${N} updates by _id (no upsert)`, () =>
  c.bulkWrite(sample.map((r) => ({ updateOne: { filter: { _id: icd10Id(r.code) } as any, update: { $set: { description: r.description + ' ' } } } })), { ordered: false }));
await c.deleteMany({});
await t('insert all', () => importIcd10(m.Icd10Code, rows, { mode: 'insert' }));
await t(`big: bulkWrite ${N} upserts by _id`, () =>
  c.bulkWrite(sample.map((r) => ({ updateOne: { filter: { _id: icd10Id(r.code) } as any, update: { $set: { ...r } }, upsert: true } })), { ordered: false }));
await t(`big: bulkWrite ${N} updates by _id (no upsert)`, () =>
  c.bulkWrite(sample.map((r) => ({ updateOne: { filter: { _id: icd10Id(r.code) } as any, update: { $set: { description: r.description } } } })), { ordered: false }));
await t(`big: ${N} sequential updateOne by _id upsert`, async () => {
  for (const r of sample) await c.updateOne({ _id: icd10Id(r.code) } as any, { $set: { ...r } }, { upsert: true });
});
await t(`big: ${N} sequential findOne by _id`, async () => {
  for (const r of sample) await c.findOne({ _id: icd10Id(r.code) } as any);
});
await conn.dropDatabase();
await conn.close();
