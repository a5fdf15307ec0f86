import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxRelay, safeParseEventJson, topicFor, type RunningConsumer } from '@onco/events';
import { createTestSystem, createUser, login, TEST_PASSWORD } from '../../server/src/test-helper';
import { collectMessages, kafkaTestLock, waitFor } from '../../../events/src/int-test-support';
import { completeForm } from '../../requisitions/src/test/fixtures';
import { requisitionModels, type RequisitionModels } from '../../requisitions/src/models';
import { RequisitionService } from '../../requisitions/src/requisition-service';
import { startPatientMergeConsumer } from '../../requisitions/src/consumers/patient-merges';
import { referenceModels, type ReferenceModels } from './models';
import { startPatientMergesConsumer } from './consumers/patient-merges';

/**
 * The requisitions service's merge consumer dies in the middle of a merge (stopped while handling the `patient`
 * event, once 5 of 12 requisitions were moved: its offset is not committed, nothing else of it survives). A
 * fresh consumer of the same group gets the event again and resumes from the store: every requisition ends on
 * the target exactly once (one write, one requisition-changed each), the merge ends DONE with 12 of 12.
 */
type Sys = Awaited<ReturnType<typeof createTestSystem>>;

describe('patient merge consumer killed mid-merge: a fresh one resumes and ends consistent', () => {
  let sys: Sys;
  let ref: ReferenceModels;
  let rq: RequisitionModels;
  let relay: OutboxRelay;
  let release: () => void;
  let collector: Awaited<ReturnType<typeof collectMessages>>;
  const running: Array<{ stop(): Promise<void> }> = [];
  let auth: { authorization: string };
  const A = { id: 'acc-merge-kill', name: 'Merge Kill Clinic' };

  beforeAll(async () => {
    release = await kafkaTestLock('shared');
    sys = await createTestSystem({ WORKERS: 'false' });
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
    collector = await collectMessages(
      sys.ctx.kafka,
      [
        topicFor('requisition-changed', sys.config.TOPIC_PREFIX),
        topicFor('patient-requisitions', sys.config.TOPIC_PREFIX),
      ],
      `collector-${sys.suffix}`,
    );
    const admin = await createUser(sys, 'ROLE_ADMINISTRATOR');
    auth = { authorization: (await login(sys, admin.loginId)).authorization };
  });

  afterAll(async () => {
    for (const r of running) await r.stop().catch(() => undefined);
    await collector?.stop();
    await relay?.stop();
    await sys?.close();
    release?.();
  });

  it('stops once 5 of 12 moved; the next consumer moves the rest, each requisition once', async () => {
    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      sys.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });
    const T = `kill-target-${sys.suffix}`;
    const S = `kill-source-${sys.suffix}`;
    for (const [id, userId] of [
      [T, 'PAT-880001'],
      [S, 'PAT-880002'],
    ])
      await ref.Patient.create({
        _id: id,
        userId,
        firstName: 'Ada',
        lastName: 'Lovelace',
        name: 'Ada Lovelace',
        accountIds: [A.id],
      });
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
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

    // the first consumer stalls after its 5th move, and is stopped there (its handler never finishes)
    const service = new RequisitionService({ ctx: sys.ctx, models: rq });
    let stalled!: () => void;
    const atFive = new Promise<void>((r) => (stalled = r));
    let die!: (err: Error) => void;
    const death = new Promise<never>((_, reject) => (die = reject));
    death.catch(() => undefined);
    const first: RunningConsumer = await startPatientMergeConsumer(sys.ctx, rq, service, {
      // from the 5th move on, every mover stops where it is (the moves in flight finish, as a dying process's
      // last writes may): the process is dead from there
      concurrency: 2,
      afterMove: async (moved) => {
        if (moved >= 5) {
          stalled();
          await death;
        }
      },
    });

    const res = await call('POST', `/portal/api/v1/patients/mergePatients?sourceId=${S}`, {
      targetPatient: { id: T },
    });
    expect(res.statusCode, res.body).toBe(202);
    const mergeId = res.json().id;
    await atFive;
    const stopping = first.stop();
    die(new Error('killed mid-merge'));
    await stopping;

    const onTarget = () => rq.Requisition.countDocuments({ _id: { $in: ids }, 'patient.id': T });
    const part = await onTarget();
    expect(part).toBeGreaterThanOrEqual(5);
    expect(part).toBeLessThan(12);
    expect((await ref.PatientMerge.findById(mergeId).lean())?.status).toBe('RUNNING');

    // a fresh consumer of the same group: the event comes again, the run resumes
    running.push(await startPatientMergeConsumer(sys.ctx, rq, service));
    const done = await waitFor(
      async () => {
        const m = (await call('GET', `/portal/api/v1/patients/merges/${mergeId}`)).json();
        return m.status === 'DONE' ? m : null;
      },
      { what: 'the merge to be DONE', timeoutMs: 90_000 },
    );
    expect(done).toMatchObject({ total: 12, moved: 12 });
    expect(await onTarget()).toBe(12);
    // each requisition written once by the merge
    const after = await rq.Requisition.find({ _id: { $in: ids } }, { version: 1 }).lean();
    expect(after.every((r) => r.version === before.get(r._id)! + 1)).toBe(true);
    // one requisition-changed (patient-changed) per requisition, one end of the run
    await waitFor(
      () => {
        const moved = collector.messages
          .map((m) => safeParseEventJson(m.value))
          .filter((p) => p.ok && (p.event.data as any).patientMerge?.mergeId === mergeId);
        return moved.length >= 12 ? moved : null;
      },
      { what: 'the requisition-changed events', timeoutMs: 30_000 },
    );
    const parsed = collector.messages.map((m) => safeParseEventJson(m.value)).filter((p) => p.ok) as any[];
    const moved = parsed.filter((p) => p.event.data.patientMerge?.mergeId === mergeId);
    expect(moved).toHaveLength(12);
    expect(new Set(moved.map((p) => p.event.data.requisitionId)).size).toBe(12);
    const ends = parsed.filter(
      (p) => p.event.type === 'patient-requisitions.moved' && p.event.data.mergeId === mergeId,
    );
    expect(ends).toHaveLength(1);
    expect(ends[0].event.data).toMatchObject({ total: 12, direction: 'merge' });
  });
});
