import { SAMPLE_MSG, type SpecimenKind } from '@onco/domain';
import { withOutbox } from '@onco/events';
import { actorOf, badRequest, conditionalWrite, conflict, notFound, type SessionUser } from '@onco/platform';
import type { LabModels, SampleDoc } from '../models';
import { SAMPLE_CHANGE } from '../use-cases/audit';
import { type SampleServiceOptions, labRequisition } from './requisition';
import { knownDomains } from './preferences';
import {
  ATTEMPTS,
  today,
  type SampleInput,
  type SamplesBody,
  entriesOf,
  refuse,
  sampleEvent,
  decide,
  sampleChange,
  inSampleTransaction,
  syncSampleGroup,
} from './rules';

/** One sample of a requisition (not deleted), or 404. */
export async function findSample(models: LabModels, requisitionId: string, id: string): Promise<SampleDoc> {
  const doc = await models.Sample.findOne({ _id: id, 'testOrderForm.id': requisitionId, deleted: false })
    .lean<SampleDoc>()
    .exec();
  if (!doc) throw notFound(`Sample ${id} was not found.`);
  return doc;
}

/**
 * PUT updateSampleSource: changes to existing samples. Every change is checked first (nothing is written when
 * one is refused); each is then one conditional update on the version read (the body's `version` when given:
 * a stale one is a 409). Type and specimen # never change.
 */
export async function updateSamples(
  models: LabModels,
  user: SessionUser,
  body: SamplesBody,
  opts: SampleServiceOptions = {},
): Promise<SampleDoc[]> {
  const now = opts.now ?? (() => new Date());
  const req = await labRequisition(models, user, body.id);
  if (req.deleted) throw conflict('The requisition is deleted: its samples cannot be changed.');
  const entries = entriesOf(body);
  if (!entries.length) throw badRequest('Change at least one sample.');
  const cfg = { reviewAccountId: opts.reviewAccountId ?? null };
  const domains = await knownDomains(models);
  const check = async (type: SpecimenKind, input: SampleInput) => {
    if (!input.id) throw badRequest('Which sample? The id is missing.');
    const current = await findSample(models, req.id, input.id);
    if (typeof input.version === 'number' && input.version !== current.version)
      throw conflict(SAMPLE_MSG.stale);
    if (current.type !== type) refuse({ type: SAMPLE_MSG.typeLocked });
    const pref = await decide(models, req, type, input, {
      mode: 'edit',
      current,
      today: today(now()),
      cfg,
      domains,
    });
    return { current, pref };
  };
  for (const e of entries) await check(e.type, e.input);
  const by = actorOf(user);
  const out: SampleDoc[] = [];
  for (const { type, input } of entries) {
    const done = await conditionalWrite(
      async () => {
        // decided again on the state read now: a concurrent change may have made the rule refuse
        const { current, pref } = await check(type, input);
        const at = now();
        const { set, after } = sampleChange(current, input, req, pref, user.id, at);
        // the change with its event, its groups, and their audit entries, in one transaction (docs/audit.md
        // "Changes"); nothing when the sample changed meanwhile
        return inSampleTransaction(models, async (session, trail) => {
          const res = await trail.updateIn(
            session,
            models.Sample,
            { _id: current._id, version: current.version, deleted: false },
            withOutbox({ $set: set, $inc: { version: 1 } }, sampleEvent(after, 'updated', by, at)),
            SAMPLE_CHANGE,
            // the sample as read and checked: the filter is conditional on its version (one read less)
            { before: current as SampleDoc & Record<string, unknown> },
          );
          if (!res) return null;
          await syncSampleGroup(session, trail, models, after, current.sampleGroupId, user.id, at);
          return after;
        });
      },
      { strict: typeof input.version === 'number', attempts: ATTEMPTS, message: SAMPLE_MSG.stale },
    );
    out.push(done);
  }
  return out;
}
