import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createEvent,
  EXAMPLE_DATA,
  topicFor,
  type AnyEvent,
  type RequisitionChangedData,
} from '@onco/events';
import { provider, settled, user, useTestSystem, waitFor } from '@onco/testing';
import { completeForm, TEST_ORDER_FORMS as API } from '@onco/requisitions/testing';
import { submittedEvent } from '../test/events';
import { submitToLab } from '../test/submit';
import {
  applyRequisitionState,
  createLabModule,
  createTestOrdersFromSubmission,
  recordRequisitionChange,
  type LabModule,
} from './index';

/** A requisition-changed event of the requisition of `submitted` (its state after the change). */
function changedEvent(
  submitted: ReturnType<typeof submittedEvent>,
  over: Partial<RequisitionChangedData> & Pick<RequisitionChangedData, 'requisitionVersion' | 'changes'>,
) {
  const d = submitted.data;
  return createEvent('requisition-changed', {
    data: {
      ...EXAMPLE_DATA['requisition-changed'],
      requisitionId: d.requisitionId,
      testRequisitionId: d.testRequisitionId,
      status: 'SUBMITTED',
      deleted: false,
      clinicalReviewStatus: d.clinicalReviewStatus,
      previousClinicalReviewStatus: d.clinicalReviewStatus,
      accountId: d.accountId,
      physicianId: d.physicianId,
      patientId: d.patientId,
      testOrders: d.testOrders.map((t) => ({ id: t.id, testOrderId: t.testOrderId })),
      changedOn: new Date().toISOString(),
      ...over,
    },
  });
}

/**
 * Requisition changes reach the lab (requisition-changed, real Kafka, DocumentDB, Redis): a deleted requisition's
 * test orders are deleted, DISQUALIFIED removes their due dates, the names the lists show arrive with the
 * submission, and a redelivered or older change is applied once.
 */
describe('lab: requisition-changed (real Kafka, DocumentDB, Redis)', () => {
  let lab: LabModule;
  const { sys, h, call, producer } = useTestSystem({
    kafka: { ensureTopics: true },
    config: { WORKERS: 'true', WORKER_MODULES: 'requisitions,lab' },
    prepare: async () => {
      lab = createLabModule(sys.ctx);
    },
    producer: true,
    users: {
      npi: provider({ id: 'acc-A', name: 'Alpha Oncology' }, 'phy-A'),
      admin: user('ROLE_ADMINISTRATOR', {
        account: { id: 'acc-A', name: 'Alpha Oncology' },
        physicianId: null,
      }),
    },
  });
  const publish = async (event: AnyEvent) => {
    const family = event.type === 'requisition.changed' ? 'requisition-changed' : 'requisition-submitted';
    await producer.send({
      topic: topicFor(family, sys.config.TOPIC_PREFIX),
      messages: [{ key: event.subject, value: JSON.stringify(event) }],
    });
  };
  const ordersOf = (requisitionId: string) =>
    lab.models.TestOrder.find({ 'testOrderForm.id': requisitionId }).sort({ _id: 1 }).lean();
  const setDueDates = (requisitionId: string, dueOn: Date) =>
    lab.models.TestOrder.updateMany({ 'testOrderForm.id': requisitionId }, { $set: { dueOn } });

  const submitThroughApi = () =>
    submitToLab(sys, lab.models, h.npi, completeForm({ accountId: 'acc-A', physicianId: 'phy-A' }));

  it('a submission through the API gives the lab test orders with the names its lists show', async () => {
    const s = await submitThroughApi();
    const [order] = await ordersOf(s.id);
    expect(order.testOrderForm).toMatchObject({
      account: { id: 'acc-A', name: 'Alpha Oncology' },
      physician: { id: 'phy-A', name: 'Grace Hopper' },
      hospitalLocation: { id: 'loc-1', name: 'Alpha Main Campus' },
      patient: { id: 'pat-1', name: 'Ada Lovelace', userId: 'PAT-000001' },
    });
    const list = (
      await call(
        'GET',
        `/oms/api/v1/testOrders?filter=${encodeURIComponent(JSON.stringify({ testOrderFormId: s.id }))}`,
        'npi',
      )
    ).json();
    expect(list.content[0].testOrderForm).toMatchObject({
      account: { name: 'Alpha Oncology' },
      physician: { name: 'Grace Hopper' },
      patient: { name: 'Ada Lovelace' },
    });
  });

  it('DISQUALIFIED through the API removes the due dates of the lab test orders (and the review status follows)', async () => {
    const s = await submitThroughApi();
    await setDueDates(s.id, new Date('2030-01-15T00:00:00Z'));
    const res = await call('PUT', `${API}/${s.id}`, 'admin', { clinicalReviewStatus: 'DISQUALIFIED' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().clinicalReviewStatus).toBe('DISQUALIFIED');
    const orders = await waitFor(
      async () => {
        const rows = await ordersOf(s.id);
        return rows.every((o) => o.dueOn === null && o.testOrderForm.reviewStatus === 'DISQUALIFIED')
          ? rows
          : null;
      },
      { what: 'due dates removed', timeoutMs: 45_000 },
    );
    expect(orders.every((o) => !o.deleted)).toBe(true);
    // each removal is a test change: a history entry (change due-date) with its test-status event, published
    for (const o of orders)
      expect(o.testHistories.at(-1)).toMatchObject({ change: 'due-date', detail: null });
    await waitFor(async () => ((await ordersOf(s.id)).every((o) => o.outbox.length === 0) ? true : null), {
      what: 'the due-date events published',
      timeoutMs: 45_000,
    });
    const labState = () => sys.ctx.mongo.collection('lab_requisitions').findOne({ _id: s.id } as never);
    expect((await labState())!.version).toBe(res.json().version);
    // a save that changes only what the form says (the comment: a form edit, requisition-changed v6 with
    // changedFields, from which a new TRF version is made) changes nothing on the lab's tests
    const plain = await call('PUT', `${API}/${s.id}`, 'admin', { comment: 'reviewed' });
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.json().version).toBe(res.json().version + 1);
    await waitFor(async () => ((await labState())?.version === plain.json().version ? true : null), {
      what: 'the lab recording the edit',
      timeoutMs: 45_000,
    });
    await settled(sys);
    const after = await ordersOf(s.id);
    expect(after.map((o) => o.testHistories.length)).toEqual(orders.map((o) => o.testHistories.length));
    expect(after.every((o) => o.dueOn === null && o.testOrderForm.reviewStatus === 'DISQUALIFIED')).toBe(
      true,
    );
  });

  it('deleting a submitted requisition marks its lab test orders deleted (they leave the tests list)', async () => {
    const s = await submitThroughApi();
    // the Delete rule needs every test cancelled: the lab cancels them (Update Status), and the requisition's
    // projection of its test statuses follows their test-status events
    const ids = (await ordersOf(s.id)).map((o) => o._id);
    const cancel = await call('POST', '/oms/api/v1/testOrders/updateTestsStatus', 'admin', {
      uuids: ids,
      status: 'CANCELLED',
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const forms = sys.ctx.mongo.collection('test_order_forms');
    await waitFor(
      async () => {
        const doc = await forms.findOne({ _id: s.id } as never);
        return doc?.testOrders.every((t: { status: string }) => t.status === 'CANCELLED') ? true : null;
      },
      { what: 'the cancelled tests on the requisition', timeoutMs: 45_000 },
    );
    const del = await call('DELETE', `${API}/${s.id}`, 'admin');
    expect(del.statusCode, del.body).toBe(200);
    await waitFor(async () => ((await ordersOf(s.id)).every((o) => o.deleted) ? true : null), {
      what: 'lab test orders deleted',
      timeoutMs: 45_000,
    });
    const list = (
      await call(
        'GET',
        `/oms/api/v1/testOrders?filter=${encodeURIComponent(JSON.stringify({ testOrderFormId: s.id }))}`,
        'admin',
      )
    ).json();
    expect(list.totalElements).toBe(0);
    const raw = await sys.ctx.mongo.collection('lab_requisitions').findOne({ _id: s.id } as never);
    expect(raw).toMatchObject({ deleted: true });
  });

  it('a merge tells the lab the duplicate became INVALID', async () => {
    const [dup, primary] = [await submitThroughApi(), await submitThroughApi()];
    const res = await call('POST', `${API}/merge?sourceTrfId=${dup.id}&targetTrfId=${primary.id}`, 'admin');
    expect(res.statusCode, res.body).toBe(200);
    const state = await waitFor(
      () => sys.ctx.mongo.collection('lab_requisitions').findOne({ _id: dup.id } as never),
      { what: 'the invalidated state at the lab', timeoutMs: 45_000 },
    );
    expect(state).toMatchObject({ status: 'INVALID', deleted: false });
  });

  it('a draft that is deleted tells nobody (it was never published)', async () => {
    const d = await call('POST', API, 'npi', completeForm({ accountId: 'acc-A', physicianId: 'phy-A' }));
    const id = d.json().id;
    expect((await call('DELETE', `${API}/${id}`, 'npi')).statusCode).toBe(200);
    const raw = await sys.ctx.mongo.collection('test_order_forms').findOne({ _id: id } as never);
    expect(raw!.deleted).toBe(true);
    expect(raw!.outbox ?? []).toHaveLength(0);
  });

  it('a change consumed before its submission is applied when the test orders are created', async () => {
    const submitted = submittedEvent();
    const change = changedEvent(submitted, {
      requisitionVersion: 3,
      changes: ['clinical-review-changed', 'parties-changed'],
      clinicalReviewStatus: 'DISQUALIFIED',
      patientName: 'Ada King',
    });
    await publish(change);
    await waitFor(
      () =>
        sys.ctx.mongo.collection('lab_requisitions').findOne({ _id: submitted.data.requisitionId } as never),
      { what: 'the change recorded', timeoutMs: 45_000 },
    );
    await publish(submitted);
    const orders = await waitFor(
      async () => {
        const rows = await ordersOf(submitted.data.requisitionId);
        return rows.length === 2 && rows.every((o) => o.testOrderForm.requisitionVersion === 3) ? rows : null;
      },
      { what: 'the test orders with the change', timeoutMs: 45_000 },
    );
    expect(orders.map((o) => [o.testOrderForm.reviewStatus, o.testOrderForm.patient?.name, o.dueOn])).toEqual(
      [
        ['DISQUALIFIED', 'Ada King', null],
        ['DISQUALIFIED', 'Ada King', null],
      ],
    );
  });

  it('a redelivered change (a new event id, same version) or an older one is applied once', async () => {
    const submitted = submittedEvent();
    const id = submitted.data.requisitionId;
    await publish(submitted);
    await waitFor(async () => ((await ordersOf(id)).length === 2 ? true : null), {
      what: 'test orders',
      timeoutMs: 45_000,
    });
    await setDueDates(id, new Date('2030-02-01T00:00:00Z'));
    const disqualified = changedEvent(submitted, {
      requisitionVersion: 5,
      changes: ['clinical-review-changed'],
      clinicalReviewStatus: 'DISQUALIFIED',
    });
    await publish(disqualified);
    await waitFor(async () => ((await ordersOf(id)).every((o) => o.dueOn === null) ? true : null), {
      what: 'due dates removed',
      timeoutMs: 45_000,
    });
    const versions = (await ordersOf(id)).map((o) => o.version);
    // the lab sets a due date again afterwards; the same change redelivered under a new event id (a retry after
    // a crash before the consumer's marker) and an older change must not touch the test orders
    await setDueDates(id, new Date('2030-03-01T00:00:00Z'));
    await publish({ ...disqualified, id: randomUUID() });
    const older = changedEvent(submitted, {
      requisitionVersion: 4,
      changes: ['deleted'],
      deleted: true,
    });
    await publish(older);
    await settled(sys);
    const rows = await ordersOf(id);
    expect(rows.map((o) => o.version)).toEqual(versions);
    expect(rows.every((o) => o.dueOn?.toISOString() === '2030-03-01T00:00:00.000Z' && !o.deleted)).toBe(true);
    // the handler's own steps are idempotent too
    expect(await recordRequisitionChange(lab.models, disqualified)).toBe(false);
    expect(await applyRequisitionState(lab.models, id)).toEqual([]);
  });

  it('changes of one requisition recorded and applied at once: the newest version wins, each applied once', async () => {
    const submitted = submittedEvent();
    const id = submitted.data.requisitionId;
    await createTestOrdersFromSubmission(lab.models, submitted);
    const changes = [3, 7, 5, 9, 4, 8, 6].map((v) =>
      changedEvent(submitted, {
        requisitionVersion: v,
        changes: ['parties-changed'],
        patientName: `Name v${v}`,
      }),
    );
    // no lock: each record is one conditional upsert, each test order one conditional update
    const recorded = await Promise.all(changes.map((e) => recordRequisitionChange(lab.models, e)));
    expect(recorded.filter(Boolean).length).toBeGreaterThanOrEqual(1);
    const state = await sys.ctx.mongo.collection('lab_requisitions').findOne({ _id: id } as never);
    expect(state).toMatchObject({ version: 9, patient: { name: 'Name v9' } });
    const applied = await Promise.all([1, 2, 3].map(() => applyRequisitionState(lab.models, id)));
    // every test order changed by exactly one of the three
    expect(applied.flat().sort()).toEqual(submitted.data.testOrders.map((t) => t.id).sort());
    const rows = await ordersOf(id);
    expect(
      rows.map((o) => [o.testOrderForm.requisitionVersion, o.testOrderForm.patient?.name, o.version]),
    ).toEqual(rows.map(() => [9, 'Name v9', 1]));
  });

  it('the requisitions service emits requisition-changed with the state after the change', async () => {
    const s = await submitThroughApi();
    // catch the event on the requisition's outbox before the relay takes it: read it from Kafka instead
    const res = await call('PUT', `${API}/${s.id}`, 'admin', { clinicalReviewStatus: 'IN_PROGRESS' });
    expect(res.statusCode, res.body).toBe(200);
    const state = await waitFor(
      () => sys.ctx.mongo.collection('lab_requisitions').findOne({ _id: s.id } as never),
      { what: 'the change at the lab', timeoutMs: 45_000 },
    );
    expect(state).toMatchObject({
      version: res.json().version,
      status: 'SUBMITTED',
      deleted: false,
      clinicalReviewStatus: 'IN_PROGRESS',
      account: { id: 'acc-A', name: 'Alpha Oncology' },
      patient: { id: 'pat-1', name: 'Ada Lovelace', userId: 'PAT-000001' },
    });
  });
});
