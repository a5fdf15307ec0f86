import { connectMongo } from '@onco/platform';
import { referenceModels } from '../src/models';

const conn = await connectMongo('mongodb://127.0.0.1:27017/oncotrf_scratch_measure');
const m = referenceModels(conn);
const t = async (label: string, f: () => Promise<unknown>) => {
  const s = Date.now();
  const r = await f();
  console.log(label, Date.now() - s, 'ms', r ? 'found' : 'none');
};
const one = await m.Icd10Code.findOne({ code: 'C61' }).lean();
for (let i = 0; i < 2; i++) {
  await t('by _id', () => m.Icd10Code.findOne({ _id: one!._id }).lean());
  await t('by _id + deleted', () => m.Icd10Code.findOne({ _id: one!._id, deleted: { $ne: true } }).lean());
  await t('by _id + deleted + $or', () => m.Icd10Code.findOne({ _id: one!._id, deleted: { $ne: true }, $or: [{ code: 'C61' }, { code: 'x' }] }).lean());
  await t('$and [_id]', () => m.Icd10Code.findOne({ $and: [{ _id: one!._id, deleted: { $ne: true } }, { code: 'C61' }] }).lean());
}
await conn.dropDatabase();
await conn.close();
