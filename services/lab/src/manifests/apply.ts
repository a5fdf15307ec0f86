import type { ClientSession } from 'mongoose';
import { outboxForInsert, withOutbox } from '@onco/events';
import { changeInputOf, type AuditActor, type AuditInput } from '@onco/platform';
import type { LabModels, SampleDoc, SampleGroupDoc } from '../models';
import { sampleEvent } from '../samples';
import { labAuditTrail, SAMPLE_CHANGE, sampleGroupChange } from '../use-cases/audit';
import { chunks, manifestSampleId, type ManifestPlan } from './plan-model';

/**
 * applyManifest (plan.ts): a plan's samples, with their events and their audit entries (one a sample created or
 * changed, docs/audit.md), and their sample groups with theirs (one a group changed), written in the caller's
 * transaction.
 */

/** A conditional update of the plan found the sample changed since it was read: the plan is made again. */
export class StalePlanError extends Error {
  constructor() {
    super('a sample of the manifest was changed meanwhile');
    this.name = 'StalePlanError';
  }
}

const LIST_OF = { TUMOR: 'tumors', NORMAL: 'normals', PLASMA: 'plasmas' } as const;
type ListName = (typeof LIST_OF)[keyof typeof LIST_OF];

/** What a plan does to one sample group: the samples that join it and leave it, by list. */
interface GroupChange {
  reqId: string | null;
  add: Partial<Record<ListName, string[]>>;
  pull: Partial<Record<ListName, string[]>>;
  samples: SampleDoc[];
}

/**
 * The writes of the sample groups of a plan's new and changed samples (made when missing), and their audit entries
 * (one a group, `sample-group`, naming the patient of its samples): the groups are read in the transaction first, so
 * a group the plan leaves as it was (its samples already in it) is neither written nor recorded.
 */
async function sampleGroupWrites(
  models: LabModels,
  session: ClientSession,
  plan: ManifestPlan,
  creates: { row: number; doc: SampleDoc }[],
  by: { id: string; name: string },
  at: Date,
): Promise<{ ops: any[]; entries: AuditInput[] }> {
  const groups = new Map<string, GroupChange>();
  const change = (name: string, s: SampleDoc, how: 'add' | 'pull') => {
    let g = groups.get(name);
    if (!g) groups.set(name, (g = { reqId: s.testOrderForm?.id ?? null, add: {}, pull: {}, samples: [] }));
    g.samples.push(s);
    (g[how][LIST_OF[s.type]] ??= []).push(s._id);
  };
  for (const c of creates) if (c.doc.sampleGroupId) change(c.doc.sampleGroupId, c.doc, 'add');
  for (const u of plan.updates) {
    if (u.current.sampleGroupId && u.current.sampleGroupId !== u.after.sampleGroupId)
      change(u.current.sampleGroupId, u.after, 'pull');
    if (u.after.sampleGroupId) change(u.after.sampleGroupId, u.after, 'add');
  }
  const found = new Map<string, SampleGroupDoc>();
  for (const names of chunks([...groups.keys()])) {
    const docs = await models.SampleGroup.find({ sampleGroupId: { $in: names } }, null, { session })
      .lean<SampleGroupDoc[]>()
      .exec();
    for (const d of docs) found.set(d.sampleGroupId, d);
  }
  // one $pull per group and kind a sample left, then one $addToSet per group (made when missing)
  const pulls: any[] = [];
  const adds: any[] = [];
  const entries: AuditInput[] = [];
  for (const [name, g] of groups) {
    const before = found.get(name) ?? null;
    // samples leaving a group that is not there (any more): nothing to write
    if (!before && !Object.keys(g.add).length) continue;
    const lists = Object.values(LIST_OF);
    const onInsert = {
      _id: manifestSampleId('group', name, g.reqId ?? ''),
      testOrderForm: { id: g.reqId },
      status: null,
      createdOn: at,
      createdBy: by.id,
      version: 0,
      archived: false,
      deleted: false,
    };
    // the group after the plan, for its entry: its lists without the samples that left, with those that joined
    const after = {
      ...(before ?? { ...onInsert, sampleGroupId: name }),
      updatedOn: at,
      updatedBy: by.id,
    } as SampleGroupDoc & Record<string, unknown>;
    for (const l of lists) {
      const gone = new Set(g.pull[l]);
      after[l] = [...new Set([...(after[l] ?? []).filter((id) => !gone.has(id)), ...(g.add[l] ?? [])])];
    }
    const entry = changeInputOf(
      sampleGroupChange(g.samples),
      before as (SampleGroupDoc & Record<string, unknown>) | null,
      after,
    );
    if (!entry.changes?.length) continue;
    entries.push(entry);
    for (const [l, ids] of Object.entries(g.pull))
      pulls.push({
        updateOne: { filter: { sampleGroupId: name }, update: { $pull: { [l]: { $in: ids } } } },
      });
    if (!Object.keys(g.add).length) continue;
    adds.push({
      updateOne: {
        filter: { sampleGroupId: name },
        update: {
          $addToSet: Object.fromEntries(Object.entries(g.add).map(([l, ids]) => [l, { $each: ids }])),
          $set: { updatedOn: at, updatedBy: by.id },
          $setOnInsert: {
            ...onInsert,
            ...Object.fromEntries(lists.filter((l) => !g.add[l]).map((l) => [l, []])),
          },
        },
        upsert: true,
      },
    });
  }
  return { ops: [...pulls, ...adds], entries };
}

/** A new sample's audit entry (`create`, the fields it sets, never their values). */
const createdEntry = (doc: SampleDoc): AuditInput =>
  changeInputOf(SAMPLE_CHANGE, null, doc as SampleDoc & Record<string, unknown>);

/** A changed sample's audit entry (`update`, the fields the row changed: `after` is `current` with the row's $set). */
const updatedEntry = (u: ManifestPlan['updates'][number]): AuditInput =>
  changeInputOf(
    SAMPLE_CHANGE,
    u.current as SampleDoc & Record<string, unknown>,
    u.after as SampleDoc & Record<string, unknown>,
  );

/**
 * Write the plan's samples and groups in `session` (the caller's transaction, which also records the verdict),
 * each new or changed sample and group with its audit entry by `actor` (the uploader) in the same transaction; the
 * caller calls the trail's `recorded()` once it has committed. `midway` (tests) runs after half of the new samples
 * are inserted.
 */
export async function applyManifestPlan(
  models: LabModels,
  session: ClientSession,
  plan: ManifestPlan,
  by: { id: string; name: string },
  at: Date,
  actor: AuditActor,
  midway?: () => Promise<void>,
  timings: Record<string, number> = {},
  /** after each chunk of new samples: how many of them are written (the job's progress) */
  progress?: (done: number, total: number) => void,
): Promise<void> {
  let t = Date.now();
  const lap = (k: string) => {
    timings[k] = (timings[k] ?? 0) + Date.now() - t;
    t = Date.now();
  };
  const creates = plan.creates.map(({ row, doc }) => {
    if (!doc) throw new Error(`a dry run's plan is not applied (row ${row})`);
    return { row, doc };
  });
  const trail = labAuditTrail(models);
  const half = Math.floor(creates.length / 2);
  let done = 0;
  // the new samples, each with its `sample` event in its outbox, a chunk at a time, then the chunk's audit entries;
  // the CPU of the next chunk is spent while the store works (its CPU, not ours), so the two overlap instead of
  // adding up: its documents and events (~15 µs a sample here, the events' schema checks) while the store
  // inserts this chunk's samples, its entries (the fields each sets, ~15 µs a sample) while it inserts this
  // chunk's entries
  const build = (part: typeof creates) =>
    part.map(({ doc }) => ({ ...doc, outbox: outboxForInsert(sampleEvent(doc, 'created', by, at)) }));
  const entriesOf = (part: typeof creates) => part.map(({ doc }) => createdEntry(doc));
  /**
   * run `work` (the next chunk's CPU) while `writing` (a write of this chunk) is in flight, timed as `workLap`;
   * then await the write
   */
  const meanwhile = async <T>(writing: Promise<unknown>, work: () => T, workLap?: string): Promise<T> => {
    // let the driver send the write first
    await new Promise((resolve) => setImmediate(resolve));
    let out: T;
    try {
      out = work();
    } catch (err) {
      await writing.catch(() => undefined); // no write left running when the transaction aborts
      throw err;
    }
    if (workLap) lap(workLap);
    await writing;
    return out;
  };
  const parts = chunks(creates);
  let next = parts.length ? build(parts[0]) : [];
  let nextEntries = parts.length ? entriesOf(parts[0]) : [];
  lap('events');
  for (let i = 0; i < parts.length; i++) {
    const last = i + 1 >= parts.length;
    const inserting = models.Sample.collection.insertMany(next as never[], { session, ordered: true });
    next = await meanwhile(inserting, () => (last ? [] : build(parts[i + 1])), 'events');
    lap('insert');
    const recording = trail.recordIn(session, nextEntries, actor);
    nextEntries = await meanwhile(recording, () => (last ? [] : entriesOf(parts[i + 1])));
    lap('audit');
    done += parts[i].length;
    progress?.(done, creates.length);
    if (midway && done >= half && done - parts[i].length < half) await midway();
  }
  for (const part of chunks(plan.updates)) {
    const res = await models.Sample.collection.bulkWrite(
      part.map((u) => ({
        updateOne: {
          filter: { _id: u.current._id, version: u.current.version, deleted: false } as never,
          update: withOutbox({ $set: u.set, $inc: { version: 1 } }, sampleEvent(u.after, 'updated', by, at)),
        },
      })),
      { session, ordered: false },
    );
    if (res.matchedCount !== part.length) throw new StalePlanError();
    await trail.recordIn(session, part.map(updatedEntry), actor);
  }
  lap('updates');
  // the sample groups, then their entries
  const groups = await sampleGroupWrites(models, session, plan, creates, by, at);
  for (const part of chunks(groups.ops))
    await models.SampleGroup.collection.bulkWrite(part, { session, ordered: true });
  for (const part of chunks(groups.entries)) await trail.recordIn(session, part, actor);
  lap('groups');
}
