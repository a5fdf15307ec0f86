import { connectMongo } from '@onco/platform';
import { referenceModels } from '../src/models';
import { importIcd10 } from '../src/importers/icd10';
import { fullDataFiles } from '../src/paths';

const conn = await connectMongo('mongodb://127.0.0.1:27017/oncotrf_scratch_measure');
const m = referenceModels(conn);
await m.Icd10Code.init();
const t = async (label: string, f: () => Promise<unknown>) => {
  const s = Date.now();
  const r = await f();
  console.log(label, Date.now() - s, 'ms', typeof r === 'number' ? r : Array.isArray(r) ? r.length : r ? 'found' : 'none');
};
if ((await m.Icd10Code.estimatedDocumentCount()) === 0) {
  const r = await importIcd10(m.Icd10Code, fullDataFiles()!.icd10, { mode: 'insert' });
  console.log('import', r.ms);
}
const one = await m.Icd10Code.findOne({ code: 'C61' }).lean();
await t('findOne by code', () => m.Icd10Code.findOne({ code: 'C50911' }).lean());
await t('findOne by _id', () => m.Icd10Code.findOne({ _id: one!._id }).lean());
await t('find _id $in', () => m.Icd10Code.find({ _id: { $in: [one!._id] } }).lean());
await t('count all', () => m.Icd10Code.countDocuments({ deleted: { $ne: true } }));
await t('find formattedCode $in', () => m.Icd10Code.find({ formattedCode: { $in: ['C50.911', 'C61'] } }).lean());
await t('regex count', () => m.Icd10Code.countDocuments({ $or: [{ code: /prostate/i }, { description: /prostate/i }] }));
await t('regex find sorted limit', () => m.Icd10Code.find({ $or: [{ code: /prostate/i }, { description: /prostate/i }] }).sort({ code: 1 }).limit(1000).lean());
await t('find all projection', () => m.Icd10Code.find({}, { code: 1, formattedCode: 1, description: 1 }).lean());
await t('updateOne upsert by code', () => m.Icd10Code.collection.updateOne({ code: 'C61' }, { $set: { description: 'Malignant neoplasm of prostate' } }, { upsert: true }));
await t('updateOne by _id', () => m.Icd10Code.collection.updateOne({ _id: one!._id } as any, { $set: { description: 'Malignant neoplasm of prostate' } }));
await conn.close();
