import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { OutboxRelay, safeParseEventJson, type AnyEvent } from '@onco/events';
import { apiWith, TEST_PASSWORD, testProcesses, useTestSystem, waitFor } from '@onco/testing';
import { completeForm, type PatientMergeConsumerProcessMessage } from '@onco/requisitions/testing';
import { requisitionModels, type RequisitionModels } from '../../requisitions/src/models';
import { patientMergeRunModel } from '../../requisitions/src/consumers/patient-merges/run';
import { referenceModels, type ReferenceModels } from './models';
import { adaLovelaces } from '../test/patients';
import { startPatientMergesConsumer } from './consumers/patient-merges';

/**
 * "Nothing is lost if the process dies mid-merge": the requisitions service's merge consumer runs in a process of
 * its own (`requisitions/test/patient-merge-consumer-process.ts`, each move slowed to 300 ms, 2 at a time) and
 * is killed outright (SIGKILL: no shutdown, no offset commit, no processed-event marker) once the store shows some
 * of the 12 requisitions on the target (it stops moving after 8, so the kill always lands midway). A fresh process
 * of the same consumer group gets the `patient` event again once Kafka drops the dead member (its 10 s session)
 * and resumes from the store: every requisition ends on the target, written once (version + 1) with one
 * requisition-changed (patient-changed) each, one `patient-requisitions`, and the merge DONE with 12 of 12. The
 * outbox relay and the reference service's consumers run in this process.
 */
const CONSUMER_SCRIPT = fileURLToPath(
  new URL('../../requisitions/test/patient-merge-consumer-process.ts', import.meta.url),
);
const N = 12;

describe('patient merge consumer process killed (SIGKILL) mid-merge: a fresh one resumes and ends consistent', () => {
  let ref: ReferenceModels;
  let rq: RequisitionModels;
  let relay: OutboxRelay;
  const running: Array<{ stop(): Promise<void> }> = [];
  let procs: ReturnType<typeof testProcesses>;
  const A = { id: 'acc-merge-kill', name: 'Merge Kill Clinic' };
  const { sys, h, collector } = useTestSystem({
    kafka: true,
    config: { WORKERS: 'false' },
    prepare: async () => {
      procs = testProcesses(sys.config);
      ref = referenceModels(sys.ctx.mongo);
      rq = requisitionModels(sys.ctx.mongo);
      relay = new OutboxRelay({
        kafka: sys.ctx.kafka,
        db: sys.ctx.mongo,
        collections: ['patient_merges', 'test_order_forms', 'patient_merge_runs'],
        topicPrefix: sys.config.TOPIC_PREFIX,
        pollIntervalMs: 100,
      });
      await relay.start();
      running.push(await startPatientMergesConsumer(sys.ctx, ref));
    },
    collect: ['requisition-changed', 'patient-requisitions'],
    users: { admin: 'ROLE_ADMINISTRATOR' },
    timeout: 120_000,
  });
  // registered after useTestSystem, so it runs before the system closes (after hooks run last first)
  afterAll(async () => {
    await procs?.stopAll();
    for (const r of running) await r.stop().catch(() => undefined);
    await relay?.stop();
  }, 60_000);

  /** the merge consumer in its own process, against this test system's database and topics */
  function startConsumerProcess(env: Record<string, string> = {}) {
    const p = procs.start<PatientMergeConsumerProcessMessage>(CONSUMER_SCRIPT, env);
    // a new member joins once the group has dropped the dead one (its session): generous on a busy machine
    const ready = p.until((m) => 'ready' in m, 'the consumer process to join its group', 120_000);
    return { ...p, ready };
  }

  it(`kills the process once some of ${N} moved; a fresh process moves the rest, each requisition once`, async () => {
    const call = apiWith(() => sys, h.admin);
    const T = `kill-target-${sys.suffix}`;
    const S = `kill-source-${sys.suffix}`;
    await adaLovelaces(ref, A.id, [
      [T, 'PAT-880001'],
      [S, 'PAT-880002'],
    ]);
    // the first consumer process starts (and joins its group) while the requisitions are submitted
    const first = startConsumerProcess({
      MERGE_CONCURRENCY: '2',
      MERGE_MOVE_DELAY_MS: '300',
      MERGE_STALL_AFTER: '8',
      MERGE_SESSION_TIMEOUT_MS: '10000',
    });
    first.ready.catch(() => undefined);
    const ids: string[] = [];
    for (let i = 0; i < N; i++) {
      const form = completeForm({ accountId: A.id, physicianId: 'phy-kill', patientId: S });
      const draft = await call('POST', '/portal/api/v1/testOrderForms', form);
      expect(draft.statusCode, draft.body).toBe(200);
      const id = draft.json().id;
      expect(
        (await call('POST', `/portal/api/v1/testOrderForms/${id}/sign`, { password: TEST_PASSWORD }))
          .statusCode,
      ).toBe(200);
      const sub = await call('POST', '/portal/api/v1/testOrderForms/submit', { ...form, id });
      expect(sub.statusCode, sub.body).toBe(200);
      ids.push(id);
    }
    const before = new Map(
      (await rq.Requisition.find({ _id: { $in: ids } }, { version: 1 }).lean()).map((r) => [
        r._id,
        r.version,
      ]),
    );
    const onTarget = () => rq.Requisition.countDocuments({ _id: { $in: ids }, 'patient.id': T }).exec();

    await first.ready;
    const res = await call('POST', `/portal/api/v1/patients/mergePatients?sourceId=${S}`, {
      targetPatient: { id: T },
    });
    expect(res.statusCode, res.body).toBe(202);
    const mergeId = res.json().id as string;

    // the kill lands while the process is moving: 3 seen on the target (at most 9 ever: it stops after 8)
    await waitFor(
      async () => {
        first.alive();
        return (await onTarget()) >= 3;
      },
      { what: 'the first requisitions to move', timeoutMs: 90_000, intervalMs: 50 },
    );
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');

    const part = await onTarget();
    expect(part).toBeGreaterThanOrEqual(3);
    expect(part).toBeLessThan(N);
    const run = await patientMergeRunModel(rq.Requisition.db).findById(`${mergeId}:merge`).lean().exec();
    expect(run).toMatchObject({ total: N, finishedOn: null });
    expect(run!.entries).toHaveLength(N);
    expect((await ref.PatientMerge.findById(mergeId).lean())?.status).toBe('RUNNING');

    // a fresh process of the same group: the event comes again, the run resumes from the store
    const second = startConsumerProcess();
    await second.ready;
    const done = await waitFor(
      async () => {
        second.alive();
        const m = (await call('GET', `/portal/api/v1/patients/merges/${mergeId}`)).json();
        return m.status === 'DONE' ? m : null;
      },
      { what: 'the merge to be DONE', timeoutMs: 120_000, intervalMs: 250 },
    );
    expect(done).toMatchObject({ total: N, moved: N });
    expect(await onTarget()).toBe(N);
    // each requisition written once by the merge (a requisition moved before the kill is not written again)
    const after = await rq.Requisition.find({ _id: { $in: ids } }, { version: 1 }).lean();
    expect(after.map((r) => r.version - before.get(r._id)!)).toEqual(ids.map(() => 1));

    // one requisition-changed (patient-changed) per requisition in effect: copies of one event (same id) count
    // once, a second event for a requisition would be a second move
    const ofMerge = () => {
      const byId = new Map<string, AnyEvent>();
      for (const m of collector.messages) {
        const p = safeParseEventJson(m.value);
        if (!p.ok) continue;
        const d = p.event.data as { mergeId?: string; patientMerge?: { mergeId: string } | null };
        if (d.patientMerge?.mergeId === mergeId || d.mergeId === mergeId) byId.set(p.event.id, p.event);
      }
      return [...byId.values()];
    };
    await waitFor(() => ofMerge().filter((e) => e.type === 'patient-requisitions.moved').length >= 1, {
      what: 'the end of the run on Kafka',
      timeoutMs: 30_000,
    });
    await waitFor(() => ofMerge().filter((e) => e.type !== 'patient-requisitions.moved').length >= N, {
      what: 'the requisition-changed events',
      timeoutMs: 30_000,
    });
    const events = ofMerge();
    const moves = events.filter((e) => e.type !== 'patient-requisitions.moved');
    expect(moves).toHaveLength(N);
    expect(new Set(moves.map((e) => (e.data as any).requisitionId))).toEqual(new Set(ids));
    expect(moves.every((e) => (e.data as any).changes.includes('patient-changed'))).toBe(true);
    const ends = events.filter((e) => e.type === 'patient-requisitions.moved');
    expect(ends).toHaveLength(1);
    expect(ends[0].data).toMatchObject({ total: N, direction: 'merge' });
    // the merge's list of moved requisitions is kept by another consumer group (the progress events), which may
    // still be a few events behind the end on Kafka: it catches up, it never loses one
    const merge = await waitFor(
      async () => {
        const m = await ref.PatientMerge.findById(mergeId).lean().exec();
        return m && new Set(m.movedRequisitionIds).size === ids.length ? m : null;
      },
      { what: "the merge's list of moved requisitions to be complete", timeoutMs: 30_000, intervalMs: 200 },
    );
    expect(new Set(merge.movedRequisitionIds)).toEqual(new Set(ids));
  }, 300_000);
});
