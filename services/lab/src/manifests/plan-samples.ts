import type { LabModels, SampleDoc } from '../models';
import type { LabRequisitionView } from '../samples';
import { chunks } from './plan-model';

/**
 * 3. the samples of these requisitions, grouped in the store (one answer per requisition, not one per sample):
 *    the kinds each has (reconciliation) and its tube ids with their sample ids; only the file's tubes that
 *    exist are then read whole (an update needs them). `existing` by requisition id and tube id (joined by
 *    U+0000), `kindsOf` by requisition id.
 */
export async function existingSamples(
  models: LabModels,
  views: Map<string, LabRequisitionView>,
  tubes: Map<string, number>,
): Promise<{ existing: Map<string, SampleDoc>; kindsOf: Map<string, Set<string>> }> {
  const existing = new Map<string, SampleDoc>();
  const kindsOf = new Map<string, Set<string>>();
  const wanted: string[] = [];
  const note = (req: string, type: string, id: string, specimenId?: string | null) => {
    kindsOf.set(req, (kindsOf.get(req) ?? new Set()).add(type));
    if (specimenId && tubes.has(specimenId)) wanted.push(id);
  };
  for (const reqPart of chunks([...views.keys()])) {
    const match = { 'testOrderForm.id': { $in: reqPart }, deleted: false };
    let grouped: { _id: string; kinds: string[]; tubes: { i: string; s?: string | null }[] }[];
    try {
      grouped = await models.Sample.collection
        .aggregate<(typeof grouped)[number]>([
          { $match: match },
          {
            $group: {
              _id: '$testOrderForm.id',
              kinds: { $addToSet: '$type' },
              tubes: { $push: { i: '$_id', s: '$specimenId' } },
            },
          },
        ])
        .toArray();
    } catch {
      // one requisition's answer past the store's 16 MB (some 200,000 samples): one light document a sample
      // instead (a failing store fails this read too, and the job is retried)
      const light = await models.Sample.find(match, { type: 1, specimenId: 1, 'testOrderForm.id': 1 })
        .lean<Pick<SampleDoc, '_id' | 'type' | 'specimenId' | 'testOrderForm'>[]>()
        .exec();
      for (const x of light) note(x.testOrderForm!.id!, x.type, x._id, x.specimenId);
      continue;
    }
    for (const g of grouped) {
      for (const k of g.kinds) note(g._id, k, '');
      for (const x of g.tubes) if (x.s && tubes.has(x.s)) wanted.push(x.i);
    }
  }
  for (const part of chunks(wanted)) {
    const found = await models.Sample.find({ _id: { $in: part } }, { outbox: 0 })
      .lean<SampleDoc[]>()
      .exec();
    for (const s of found) existing.set(`${s.testOrderForm!.id}\u0000${s.specimenId}`, s);
  }
  return { existing, kindsOf };
}
