import { createHash } from 'node:crypto';
import {
  copySamplesError,
  isSubsequentOrder,
  proceedAllowed,
  SAMPLE_MSG,
  sampleTypeOptions,
} from '@onco/domain';
import { outboxForInsert } from '@onco/events';
import { actorOf, badRequest, conflict, type SessionUser } from '@onco/platform';
import type { LabModels, SampleDoc } from '../models';
import { SAMPLE_CHANGE } from '../use-cases/audit';
import { type SampleServiceOptions, labRequisition } from './requisition';
import {
  isDuplicateKey,
  isGroupTaken,
  entriesOf,
  inSampleTransaction,
  sampleEvent,
  syncSampleGroup,
} from './rules';
import { findSample } from './update';

export interface CopyBody {
  sourceMergeTrfId: string;
  toTestOrderForm: {
    id: string;
    parentTestOrderForm?: { id?: string | null } | null;
    tumors?: { id: string }[];
    normals?: { id: string }[];
    plasmas?: { id: string }[];
  };
}

/** The id of the copy of `sampleId` in `targetId`: the same copy twice is one sample (a retried request). */
const copyId = (sampleId: string, targetId: string) => {
  const h = createHash('sha256').update(`${sampleId}\u0000${targetId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/**
 * POST copySampleSource: the selected samples of the source requisition (`sourceMergeTrfId`) are copied into
 * the target (`toTestOrderForm`, whose lists name the selected source sample ids). Both must be requisitions
 * of the same patient in the user's scope; the target must accept each sample (its kind offered, PROCEED
 * allowed), and PROCEED samples copied to a subsequent order need its parent order, else "Samples could not be
 * copied" and nothing is copied. PROCEED copies join the sample group of the first PROCEED sample. Each copy
 * is one insert with its `sample` event (change copied); a copy id derives from the source sample and the
 * target, so a retried copy adds nothing twice.
 */
export async function copySamples(
  models: LabModels,
  user: SessionUser,
  body: CopyBody,
  opts: SampleServiceOptions = {},
): Promise<SampleDoc[]> {
  const at = (opts.now ?? (() => new Date()))();
  const target = body.toTestOrderForm;
  if (body.sourceMergeTrfId === target.id) throw badRequest(SAMPLE_MSG.copySameRequisition);
  const [source, dest] = [
    await labRequisition(models, user, body.sourceMergeTrfId),
    await labRequisition(models, user, target.id),
  ];
  if (dest.deleted) throw conflict('The requisition is deleted: its samples cannot be changed.');
  if (source.patient?.id && dest.patient?.id && source.patient.id !== dest.patient.id)
    throw conflict(SAMPLE_MSG.copyOtherPatient);
  const selected = entriesOf({
    tumors: target.tumors ?? [],
    normals: target.normals ?? [],
    plasmas: target.plasmas ?? [],
  });
  if (!selected.length) throw badRequest(SAMPLE_MSG.copyNothing);
  const samples: SampleDoc[] = [];
  for (const { type, input } of selected) {
    const s = await findSample(models, source.id, input.id!);
    if (s.type !== type)
      throw badRequest(`${SAMPLE_MSG.copyFailed}: sample ${s.limsId ?? s._id} is ${s.type}.`);
    samples.push(s);
  }
  const err = copySamplesError({
    samples,
    targetSubsequent: isSubsequentOrder(dest),
    targetParentId: target.parentTestOrderForm?.id ?? null,
  });
  if (err) throw conflict(err);
  const cfg = { reviewAccountId: opts.reviewAccountId ?? null };
  for (const s of samples) {
    const why = !sampleTypeOptions(dest).includes(s.type)
      ? SAMPLE_MSG.typeNotOffered(s.type)
      : s.status === 'PROCEED' && !proceedAllowed(dest, s.type, cfg)
        ? SAMPLE_MSG.proceedNotAllowed
        : null;
    if (why) throw conflict(SAMPLE_MSG.copyFailed, { reason: why, sampleId: s._id });
  }
  const group = samples.find((s) => s.status === 'PROCEED' && s.sampleGroupId)?.sampleGroupId ?? null;
  const by = actorOf(user);
  const out: SampleDoc[] = [];
  for (const s of samples) {
    const { outbox: _o, ...rest } = s;
    const doc = {
      ...rest,
      _id: copyId(s._id, dest.id),
      sampleGroupId: s.status === 'PROCEED' ? (group ?? s.sampleGroupId) : s.sampleGroupId,
      testOrderForm: { id: dest.id, testRequisitionId: dest.testRequisitionId },
      account: { id: dest.accountId, name: dest.accountName },
      physician: dest.physician,
      copiedFrom: { sampleId: s._id, testOrderFormId: source.id },
      createdOn: at,
      createdBy: user.id,
      updatedOn: at,
      updatedBy: user.id,
      version: 0,
    } as SampleDoc;
    try {
      // the copy with its event, its group, and their audit entries, in one transaction (docs/audit.md "Changes")
      await inSampleTransaction(models, async (session, trail) => {
        await trail.createIn(
          session,
          models.Sample,
          { ...doc, outbox: outboxForInsert(sampleEvent(doc, 'copied', by, at)) },
          SAMPLE_CHANGE,
        );
        await syncSampleGroup(session, trail, models, doc, null, user.id, at);
      });
    } catch (e) {
      if (!isDuplicateKey(e) || isGroupTaken(e)) throw e;
      continue; // copied before (a retried request): nothing written, nothing recorded
    }
    out.push(doc);
  }
  return out;
}
