import { SAMPLE_MSG, samplesMayBeAdded } from '@onco/domain';
import { outboxForInsert } from '@onco/events';
import { actorOf, badRequest, conflict, type SessionUser } from '@onco/platform';
import type { LabModels, SampleDoc } from '../models';
import { SAMPLE_CHANGE } from '../use-cases/audit';
import { type SampleServiceOptions, labRequisition } from './requisition';
import { knownDomains } from './preferences';
import {
  today,
  type SamplesBody,
  entriesOf,
  sampleEvent,
  decide,
  newSampleDoc,
  inSampleTransaction,
  syncSampleGroup,
} from './rules';

/** POST createSampleSource: new samples (every one checked before any is written). */
export async function createSamples(
  models: LabModels,
  user: SessionUser,
  body: SamplesBody,
  opts: SampleServiceOptions = {},
): Promise<SampleDoc[]> {
  const at = (opts.now ?? (() => new Date()))();
  const req = await labRequisition(models, user, body.id);
  if (req.deleted) throw conflict('The requisition is deleted: its samples cannot be changed.');
  if (!samplesMayBeAdded(req.testOrders.map((t) => t.status))) throw conflict(SAMPLE_MSG.addNotAllowed);
  const entries = entriesOf(body);
  if (!entries.length) throw badRequest('Add at least one sample.');
  const cfg = { reviewAccountId: opts.reviewAccountId ?? null };
  const domains = await knownDomains(models);
  const decided = [];
  for (const e of entries) {
    if (e.input.id) throw badRequest('A new sample has no id; use updateSampleSource to change one.');
    const pref = await decide(models, req, e.type, e.input, { mode: 'add', today: today(at), cfg, domains });
    decided.push({ ...e, pref });
  }
  const by = actorOf(user);
  const out: SampleDoc[] = [];
  for (const { type, input, pref } of decided) {
    const doc = newSampleDoc(type, input, req, pref, by, at);
    // the sample with its event, its group, and their audit entries, in one transaction (docs/audit.md "Changes")
    await inSampleTransaction(models, async (session, trail) => {
      await trail.createIn(
        session,
        models.Sample,
        { ...doc, outbox: outboxForInsert(sampleEvent(doc, 'created', by, at)) },
        SAMPLE_CHANGE,
      );
      await syncSampleGroup(session, trail, models, doc, null, user.id, at);
    });
    out.push(doc);
  }
  return out;
}
