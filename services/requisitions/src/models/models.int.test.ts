import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSystem, sharedTestSystem, waitFor } from '@onco/testing';
import { nextSequence, requisitionModels, type RequisitionModels } from './index';

type Sys = Awaited<ReturnType<typeof createTestSystem>>;

const keysOf = async (m: RequisitionModels[keyof RequisitionModels]) =>
  (await m.collection.indexes()).map((i) => JSON.stringify(i.key));

describe('requisitions models on the store', () => {
  let sys: Sys;
  let models: RequisitionModels;

  beforeAll(async () => {
    sys = await sharedTestSystem();
    models = requisitionModels(sys.ctx.mongo);
    await Promise.all(Object.values(models).map((m) => m.init()));
  });
  afterAll(async () => {
    await sys?.close();
  });

  it('registers each model once per connection', () => {
    const again = requisitionModels(sys.ctx.mongo);
    expect(again.Requisition).toBe(models.Requisition);
    expect(again.Attachment).toBe(models.Attachment);
    expect(models.Requisition.collection.collectionName).toBe('test_order_forms');
    expect(models.Attachment.collection.collectionName).toBe('attachments');
    expect(models.Counter.collection.collectionName).toBe('counters');
    expect(models.GeneratedDocument.collection.collectionName).toBe('generated_documents');
  });

  it('creates every orders-list index on the server', async () => {
    // the ordered index the orders list pages by is built in the background at start (platform ordered-indexes.ts):
    // there once the system has been up a moment, so wait for it rather than count before it lands
    const ordered = JSON.stringify({ updatedOn: -1, _id: -1 });
    const keys = await waitFor(
      async () => {
        const k = await keysOf(models.Requisition);
        return k.includes(ordered) ? k : undefined;
      },
      { what: 'the ordered index of test_order_forms' },
    );
    for (const k of [
      { _id: 1 },
      { status: 1, updatedOn: -1, _id: -1 },
      { 'account.id': 1, status: 1, updatedOn: -1, _id: -1 },
      { 'physician.id': 1, status: 1, updatedOn: -1, _id: -1 },
      { createdBy: 1, status: 1, updatedOn: -1, _id: -1 },
      { 'patient.id': 1 },
      { testRequisitionId: 1 },
      { 'testOrders.status': 1 },
      { clinicalReviewStatus: 1 },
      { 'billingReview.status': 1 },
      { 'physician.name': 1 },
      { 'account.name': 1 },
      { 'hospitalLocation.name': 1 },
      { 'tumorSpecimen.diagnosis': 1 },
      { 'testOrders.testType': 1 },
      { sampleStatuses: 1 },
      { 'testOrders.orderType': 1 },
      { updatedOn: -1, _id: -1 },
    ]) {
      expect(keys).toContain(JSON.stringify(k));
    }
    expect(keys).toHaveLength(18); // nothing else: each index above serves a named query (models/requisition.ts)
    const attachmentKeys = await keysOf(models.Attachment);
    expect(attachmentKeys).toEqual(
      expect.arrayContaining([JSON.stringify({ 'testOrderForm.id': 1 }), JSON.stringify({ updatedOn: -1 })]),
    );
  });

  it('stores a full requisition with nested blocks, arrays and pending events, and reads it back', async () => {
    const now = new Date();
    const created = await models.Requisition.create({
      status: 'DRAFT',
      patient: {
        id: 'pat-1',
        userId: 'PAT-0001',
        firstName: 'Ada',
        lastName: 'Lovelace',
        dateOfBirth: '1960-12-10',
        birthSex: 'FEMALE',
        address: { street: '1 Main St', city: 'Menlo Park', state: 'CA', postalCode: '94025', country: 'US' },
      },
      physician: { id: 'phy-1', name: 'Dr. Grace Hopper', userId: '1234567893' },
      account: { id: 'acc-1', name: 'Menlo Oncology' },
      hospitalLocation: {
        id: 'loc-1',
        name: 'Main campus',
        address: { city: 'Menlo Park', telephone: '555-0100' },
      },
      orderInformation: { nextDx: true, nextPersonalDx: true, orderType: 'INITIAL_ORDER' },
      testOrders: [
        { id: 'to-1', testType: 'NEXT_DX', orderType: 'INITIAL_ORDER', status: 'TEST_SELECTED' },
        { id: 'to-2', testType: 'NEXT_PERSONAL_DX', orderType: 'INITIAL_ORDER', status: 'TEST_SELECTED' },
      ],
      tumorSpecimen: {
        diagnosis: 'BREAST',
        icd10Codes: 'C50.911,C50.912',
        stage: 'II',
        specimenType: 'FFPE_BLOCK',
        collectionDate: '2025-01-15',
        content: 40,
        priorTherapies: ['tamoxifen'],
      },
      normalSpecimen: { specimenType: 'BLOOD', collectionMode: 'COLLECT_IN_CLINIC' },
      billings: [{ id: 'bil-1', billingType: 'MEDICARE', preference: 'PRIMARY', policyNumber: 'X1' }],
      attachments: [
        {
          id: 'att-1',
          name: 'path.pdf',
          type: 'RECENT_PATHOLOGY_REPORT',
          size: 10,
          contentType: 'application/pdf',
        },
      ],
      approvals: [{ approvedBy: { id: 'u-1', name: 'Dr. Grace Hopper' }, createdOn: now }],
      sampleStatuses: ['PROCEED'],
      billingReview: { status: 'NEEDS_REVIEW' },
      parentTestOrderForm: { id: 'tof-0', testRequisitionId: 'TRF-9', limsProjectIds: ['LP-1', 'LP-2'] },
      outbox: [
        {
          id: 'evt-1',
          topic: 'requisition-submitted',
          key: 'x',
          type: 'requisition.submitted.v1',
          value: '{}',
          createdOn: now,
        },
      ],
    });
    const doc = await models.Requisition.findById(created._id).lean().exec();
    expect(typeof doc!._id).toBe('string');
    expect(doc).toMatchObject({
      version: 0,
      archived: false,
      deleted: false,
      testRequisitionId: null,
      clinicalReviewStatus: null,
      patient: { userId: 'PAT-0001', dateOfBirth: '1960-12-10', address: { city: 'Menlo Park' } },
      tumorSpecimen: {
        diagnosis: 'BREAST',
        icd10Codes: 'C50.911,C50.912',
        doNotExhaust: null,
        currentTherapies: [],
      },
      billings: [{ id: 'bil-1', billingType: 'MEDICARE', relationshipToPatient: 'SELF', version: 0 }],
      parentTestOrderForm: { limsProjectIds: ['LP-1', 'LP-2'] },
    });
    expect(doc!.outbox).toEqual([expect.objectContaining({ id: 'evt-1', attempts: 0, lastError: null })]);
    expect(Object.keys(doc!.testOrders[0])).not.toContain('_id');
    expect(Object.keys(doc!.outbox[0])).not.toContain('_id');
    // facet-style aggregation the list engine runs (one $group after $unwind), on the nested array
    const groups = await models.Requisition.aggregate([
      { $match: { 'account.id': 'acc-1' } },
      { $unwind: '$testOrders' },
      { $group: { _id: '$testOrders.testType', count: { $sum: 1 } } },
    ]).exec();
    expect(groups.sort((a, b) => String(a._id).localeCompare(String(b._id)))).toEqual([
      { _id: 'NEXT_DX', count: 1 },
      { _id: 'NEXT_PERSONAL_DX', count: 1 },
    ]);
  });

  it('rejects values outside the domain enumerations and malformed calendar dates', async () => {
    await expect(models.Requisition.create({ status: 'SHIPPED' } as never)).rejects.toThrow(/status/);
    await expect(
      models.Requisition.create({ tumorSpecimen: { diagnosis: 'NOT_A_DIAGNOSIS' } }),
    ).rejects.toThrow(/diagnosis/);
    await expect(
      models.Requisition.create({ patient: { id: 'p', dateOfBirth: '12/10/1960' } }),
    ).rejects.toThrow(/dateOfBirth/);
    await expect(
      models.Attachment.create({ name: 'x', type: 'TRF', status: 'LOST' } as never),
    ).rejects.toThrow(/status/);
  });

  it('hands out distinct sequence numbers under concurrency', async () => {
    const settled = await Promise.allSettled(
      Array.from({ length: 12 }, () => nextSequence(sys.ctx.mongo, 'testRequisitionId')),
    );
    expect(
      settled.flatMap((r) => (r.status === 'rejected' ? [String(r.reason?.stack ?? r.reason)] : [])),
    ).toEqual([]);
    const values = settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    expect([...values].sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(await nextSequence(sys.ctx.mongo, 'other', 'tof-1')).toBe(1);
    expect(await models.Counter.findById('other:1').lean().exec()).toMatchObject({
      name: 'other',
      seq: 1,
      ref: 'tof-1',
    });
  });
});
