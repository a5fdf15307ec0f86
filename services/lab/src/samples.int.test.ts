import { describe, expect, it } from 'vitest';
import { safeParseEventJson } from '@onco/events';
import type { SessionUser } from '@onco/platform';
import { SAMPLE_MSG } from '@onco/domain';
import { provider, useTestSystem, waitFor } from '@onco/testing';
import { completeForm, isoDaysAgo, TEST_ORDER_FORMS as PORTAL } from '@onco/requisitions/testing';
import { oneTestSubmission, type OneTestSubmission } from '../test/events';
import { submitToLab } from '../test/submit';
import {
  createLabModule,
  createTestOrdersFromSubmission,
  seedDomainPreferences,
  type LabModule,
} from './index';
import { createSamples, type SamplesBody } from './samples';

const OMS = '/oms/api/v1';

/** A requisition the lab knows only through test orders made from a crafted submission (no requisition doc). */
const labOnlySubmission = (
  requisitionId: string,
  over: Partial<
    Pick<OneTestSubmission, 'accountId' | 'orderType' | 'testType' | 'review' | 'diagnosis'>
  > = {},
) =>
  oneTestSubmission(
    requisitionId,
    {
      accountId: 'acc-A',
      accountName: 'Alpha Oncology',
      physicianId: 'phy-A',
      patientId: 'pat-1',
      testType: 'NEXT_PERSONAL_DX',
      orderType: 'SUBSEQUENT_ORDER',
      review: null,
      diagnosis: null,
    },
    over,
  );

describe('samples: routes, rules, events and the requisition projection (real Kafka, the store)', () => {
  let lab: LabModule;
  let r1: any; // a submitted NEXT_DX requisition (acc-A, pat-1)
  let r2: any; // another one of the same patient
  const r3 = `sub-${Date.now()}`; // a subsequent NEXT_PERSONAL_DX order the lab knows (acc-A, pat-1)
  let tumorId = '';
  let normalId = '';

  const { sys, h, call, collector } = useTestSystem({
    kafka: { ensureTopics: true },
    config: { WORKERS: 'true', WORKER_MODULES: 'requisitions,lab' },
    prepare: async () => {
      lab = createLabModule(sys.ctx);
      await seedDomainPreferences(lab.models);
    },
    collect: ['sample'],
    users: {
      npi: provider({ id: 'acc-A', name: 'Alpha' }, 'phy-A'),
      other: provider({ id: 'acc-B', name: 'Beta' }, 'phy-B'),
      admin: 'ROLE_ADMINISTRATOR',
    },
    seed: async () => {
      r1 = await submit('npi');
      r2 = await submit('npi');
      await createTestOrdersFromSubmission(lab.models, labOnlySubmission(r3));
    },
  });
  type Who = keyof typeof h;
  const samplesOf = (id: string, who: Who = 'admin') =>
    call('GET', `${OMS}/testOrderForms/${id}/samples`, who);
  const sampleCount = () => lab.models.Sample.countDocuments({});
  const requisition = async (id: string) => (await call('GET', `${PORTAL}/${id}`, 'admin')).json();

  const tumor = (over: Record<string, unknown> = {}) => ({
    status: 'ON_HOLD',
    specimenId: 'BLK-2026_01',
    specimenType: 'FFPE_BLOCK',
    sampleSite: 'Right upper lobe',
    name: 'Primary lung tumor block A with a long name',
    limsProjectId: 'LP-100',
    limsProjectName: 'NeXT Dx 2026',
    collectedOn: isoDaysAgo(10),
    receivedOn: isoDaysAgo(5),
    ...over,
  });
  const normal = (over: Record<string, unknown> = {}) => ({
    status: 'PROCEED',
    specimenType: 'BLOOD',
    limsProjectId: 'LP-100',
    accessionId: 'N1',
    sampleGroupId: 'SG-0001',
    collectedOn: isoDaysAgo(4),
    receivedOn: isoDaysAgo(2),
    ...over,
  });

  const submit = (who: Who) =>
    submitToLab(sys, lab.models, h[who], completeForm({ accountId: 'acc-A', physicianId: 'phy-A' }));

  it('GET /testOrderForms/:id/samples: needs a session and the order page; 404 outside the scope', async () => {
    expect((await call('GET', `${OMS}/testOrderForms/${r1.id}/samples`)).statusCode).toBe(401);
    const res = await samplesOf(r1.id, 'npi');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: r1.id,
      testRequisitionId: r1.testRequisitionId,
      deleted: false,
      domain: 'PSNL',
      ruleConfig: { reviewAccountId: null },
      requisition: { accountId: 'acc-A', testOrders: [{ testType: 'NEXT_DX', orderType: 'INITIAL_ORDER' }] },
      tumors: [],
      normals: [],
      plasmas: [],
    });
    expect((await samplesOf(r1.id, 'other')).statusCode).toBe(404);
    expect((await samplesOf('no-such-requisition')).statusCode).toBe(404);
  });

  it('GET /domainPreferences: the first match by rank gives the work order and product', async () => {
    const filter = JSON.stringify({
      domain: 'PSNL',
      testType: 'NEXT_DX',
      orderType: 'INITIAL_ORDER',
      tissueType: 'NORMAL',
      specimenType: 'BLOOD',
    });
    const res = await call('GET', `${OMS}/domainPreferences?filter=${encodeURIComponent(filter)}`, 'npi');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().content[0]).toMatchObject({
      workOrderNumber: 'WO-PSNL-NDX-IN',
      product: 'NeXT Dx Matched Normal',
    });
    expect((await call('GET', `${OMS}/domainPreferences`)).statusCode).toBe(401);
  });

  it('POST /createSampleSource refuses what the rules refuse and changes nothing', async () => {
    const add = (body: object, who: Who = 'admin') =>
      call('POST', `${OMS}/createSampleSource`, who, { id: r1.id, ...body });
    expect((await add({ tumors: [tumor()] }, 'npi')).statusCode).toBe(403);

    const sgi = await add({ normals: [normal({ sampleGroupId: null })] });
    expect(sgi.statusCode).toBe(400);
    expect(sgi.json().message).toBe('Sample can not be set to Proceed, SGI error');

    const dates = await add({ tumors: [tumor({ collectedOn: isoDaysAgo(3), receivedOn: isoDaysAgo(6) })] });
    expect(dates.statusCode).toBe(400);
    expect(dates.json().details.fields).toMatchObject({
      collectedOn: 'Collection date must be before the Received date.',
      receivedOn: 'Received date must be after the Collection date.',
    });
    const future = await add({ tumors: [tumor({ receivedOn: isoDaysAgo(-1) })] });
    expect(future.json().details.fields.receivedOn).toMatch(/^Date must be no later than /);
    const old = await add({ normals: [normal({ collectedOn: isoDaysAgo(100) })] });
    expect(old.json().details.fields.collectedOn).toMatch(/^Date must be no earlier than /);
    const noAccession = await add({ normals: [normal({ accessionId: '' })] });
    expect(noAccession.json().details.fields.accessionId).toBe(SAMPLE_MSG.accessionRequired);
    expect((await add({ tumors: [tumor({ specimenId: 'bad id!' })] })).json().details.fields.specimenId).toBe(
      'Invalid Specimen #',
    );
    expect((await add({ tumors: [tumor({ status: 'CANCELLED' })] })).statusCode).toBe(400);
    // plasma only for subsequent orders
    const plasma = await add({ plasmas: [{ ...normal(), specimenType: 'PLASMA' }] });
    expect(plasma.json().details.fields.type).toBe(SAMPLE_MSG.typeNotOffered('PLASMA'));
    // one bad sample among good ones: nothing is written
    expect((await add({ tumors: [tumor()], normals: [normal({ sampleGroupId: '' })] })).statusCode).toBe(400);
    // no domain preference for the sample: 409
    const saliva = 'PSNL:NEXT_DX:INITIAL_ORDER:NORMAL:SALIVA';
    const pref = await lab.models.DomainPreference.findById(saliva).lean();
    await lab.models.DomainPreference.deleteOne({ _id: saliva });
    const none = await add({ normals: [normal({ specimenType: 'SALIVA' })] });
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe(SAMPLE_MSG.noPreference);
    await lab.models.DomainPreference.create(pref!);

    expect(await sampleCount()).toBe(0);
  });

  it('POST /createSampleSource writes each sample with its work order and its sample event', async () => {
    const res = await call('POST', `${OMS}/createSampleSource`, 'admin', {
      id: r1.id,
      tumors: [tumor()],
      normals: [normal()],
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.tumors).toHaveLength(1);
    expect(body.normals).toHaveLength(1);
    const [t] = body.tumors;
    const [n] = body.normals;
    tumorId = t.id;
    normalId = n.id;
    expect(t).toMatchObject({
      type: 'TUMOR',
      status: 'ON_HOLD',
      workOrderNumber: 'WO',
      product: 'NeXT Dx Tumor Exome',
      limsId: expect.stringMatching(/^T-/),
      collectedOn: isoDaysAgo(10),
      testOrderForm: { id: r1.id, testRequisitionId: r1.testRequisitionId },
      patient: { id: 'pat-1', firstName: 'Ada', lastName: 'Lovelace' },
      version: 0,
    });
    expect(t).not.toHaveProperty('outbox');
    expect(n).toMatchObject({
      status: 'PROCEED',
      workOrderNumber: 'WO-PSNL-NDX-IN',
      sampleGroupId: 'SG-0001',
    });
    expect(body.sampleGroupId).toBe('SG-0001');
    const group = await lab.models.SampleGroup.findOne({ sampleGroupId: 'SG-0001' }).lean();
    expect(group).toMatchObject({ normals: [normalId], tumors: [], testOrderForm: { id: r1.id } });

    const events = await waitFor(
      () => {
        const mine = collector.messages.filter((m) => m.key === tumorId || m.key === normalId);
        return mine.length >= 2 ? mine : null;
      },
      { what: 'two sample events on Kafka', timeoutMs: 45_000 },
    );
    const data = events.map((m) => {
      const p = safeParseEventJson(m.value);
      expect(p.ok).toBe(true);
      return p.ok ? (p.event.data as Record<string, unknown>) : {};
    });
    expect(data.find((d) => d.sampleId === tumorId)).toMatchObject({
      requisitionId: r1.id,
      type: 'TUMOR',
      status: 'ON_HOLD',
      change: 'created',
      limsId: t.limsId,
    });
  });

  it('the requisitions service follows the sample events (sampleStatuses for the facet and the Delete rule)', async () => {
    const doc = await waitFor(
      async () => {
        const r = await requisition(r1.id);
        return r.sampleStatuses?.length === 2 ? r : null;
      },
      { what: 'the sample-status projection', timeoutMs: 45_000 },
    );
    expect(doc.sampleStatuses).toEqual(['ON_HOLD', 'PROCEED']);
    expect(doc.samples.map((s: any) => s.id).sort()).toEqual([tumorId, normalId].sort());
  });

  it('PUT /updateSampleSource enforces the rules and the version, one write with its event', async () => {
    const put = (body: object, who: Who = 'admin') =>
      call('PUT', `${OMS}/updateSampleSource`, who, { id: r1.id, ...body });
    expect((await put({ tumors: [{ ...tumor(), id: tumorId, version: 0 }] }, 'npi')).statusCode).toBe(403);
    // a PROCEED sample keeps its status
    const locked = await put({ normals: [{ ...normal({ status: 'ON_HOLD' }), id: normalId, version: 0 }] });
    expect(locked.statusCode).toBe(400);
    expect(locked.json().message).toBe(SAMPLE_MSG.statusLocked('PROCEED'));
    // the specimen # is locked on edit
    const spec = await put({ tumors: [{ ...tumor({ specimenId: 'OTHER-1' }), id: tumorId, version: 0 }] });
    expect(spec.json().details.fields.specimenId).toBe(SAMPLE_MSG.specimenIdLocked);
    // a stale version
    expect((await put({ tumors: [{ ...tumor(), id: tumorId, version: 7 }] })).statusCode).toBe(409);
    // unknown sample
    expect((await put({ tumors: [{ ...tumor(), id: 'nope', version: 0 }] })).statusCode).toBe(404);
    const unchanged = await lab.models.Sample.findById(tumorId).lean();
    expect(unchanged).toMatchObject({ version: 0, specimenId: 'BLK-2026_01' });

    // two edits of the same version at once: one wins, the other is told
    const [a, b] = await Promise.all([
      put({ tumors: [{ ...tumor({ trackingNumber: '1Z-A' }), id: tumorId, version: 0 }] }),
      put({ tumors: [{ ...tumor({ trackingNumber: '1Z-B' }), id: tumorId, version: 0 }] }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const after = await lab.models.Sample.findById(tumorId).lean();
    expect(after!.version).toBe(1);
    expect(['1Z-A', '1Z-B']).toContain(after!.trackingNumber);
    await waitFor(
      () =>
        collector.messages.some(
          (m) => m.key === tumorId && (safeParseEventJson(m.value) as any).event?.data.change === 'updated',
        ),
      { what: 'the updated sample event', timeoutMs: 45_000 },
    );
  });

  it('POST /copySampleSource copies selected samples into a requisition of the same patient, once', async () => {
    const copy = (body: object) => call('POST', `${OMS}/copySampleSource`, 'admin', body);
    const selection = { tumors: [{ id: tumorId }], normals: [{ id: normalId }] };
    expect(
      (await copy({ sourceMergeTrfId: r1.id, toTestOrderForm: { id: r1.id, ...selection } })).statusCode,
    ).toBe(400);
    expect(
      (
        await call('POST', `${OMS}/copySampleSource`, 'npi', {
          sourceMergeTrfId: r1.id,
          toTestOrderForm: { id: r2.id },
        })
      ).statusCode,
    ).toBe(403);

    const res = await copy({ sourceMergeTrfId: r1.id, toTestOrderForm: { id: r2.id, ...selection } });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.tumors).toHaveLength(1);
    expect(body.normals[0]).toMatchObject({
      status: 'PROCEED',
      sampleGroupId: 'SG-0001',
      copiedFrom: { sampleId: normalId, testOrderFormId: r1.id },
      testOrderForm: { id: r2.id },
    });
    // a retried copy adds nothing
    const again = await copy({ sourceMergeTrfId: r1.id, toTestOrderForm: { id: r2.id, ...selection } });
    expect(again.json().tumors).toHaveLength(1);
    expect(await lab.models.Sample.countDocuments({ 'testOrderForm.id': r2.id })).toBe(2);
    const copiedId = body.tumors[0].id;
    await waitFor(
      () =>
        collector.messages.some(
          (m) => m.key === copiedId && (safeParseEventJson(m.value) as any).event?.data.change === 'copied',
        ),
      { what: 'the copied sample event', timeoutMs: 45_000 },
    );

    // PROCEED samples to a subsequent order need its parent order
    const before = await sampleCount();
    const noParent = await copy({
      sourceMergeTrfId: r1.id,
      toTestOrderForm: { id: r3, normals: [{ id: normalId }] },
    });
    expect(noParent.statusCode).toBe(409);
    expect(noParent.json().message).toBe('Samples could not be copied');
    expect(await sampleCount()).toBe(before);
    const withParent = await copy({
      sourceMergeTrfId: r1.id,
      toTestOrderForm: { id: r3, parentTestOrderForm: { id: r1.id }, normals: [{ id: normalId }] },
    });
    expect(withParent.statusCode, withParent.body).toBe(200);
    expect(withParent.json().normals).toHaveLength(1);

    // the workflow (spec 2 section 2.8): a copy into another NEXT_DX order is added to that order's workflow; the
    // normal copied into the NEXT_PERSONAL_DX order keeps the NEXT_DX workflow, which that order does not assign
    expect(body.normals[0].workflow).toEqual({ state: 'ADDED', reason: null, assigned: 'WF-NDX-NORMAL' });
    expect(withParent.json().normals[0]).toMatchObject({
      workflowAssignId: 'WF-NDX-NORMAL',
      workflow: { state: 'IGNORED', reason: 'OTHER_WORKFLOW', assigned: 'WF-NPDX-NORMAL' },
    });
    expect((await samplesOf(r1.id)).json().normals[0].workflow).toMatchObject({ state: 'ADDED' });
  });

  it('plasma: offered on a subsequent order, received within 14 days of collection', async () => {
    const plasma = (over: Record<string, unknown>) => ({
      status: 'ON_HOLD',
      specimenType: 'PLASMA',
      limsProjectId: 'LP-200',
      collectedOn: isoDaysAgo(20),
      receivedOn: isoDaysAgo(5),
      ...over,
    });
    const late = await call('POST', `${OMS}/createSampleSource`, 'admin', { id: r3, plasmas: [plasma({})] });
    expect(late.statusCode).toBe(400);
    expect(late.json().details.fields.receivedOn).toBe(
      'Received date must be within 14 days of the Collection date for plasma samples.',
    );
    const ok = await call('POST', `${OMS}/createSampleSource`, 'admin', {
      id: r3,
      plasmas: [plasma({ receivedOn: isoDaysAgo(7) })],
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().plasmas[0]).toMatchObject({
      type: 'PLASMA',
      workOrderNumber: 'WO',
      product: 'NeXT Personal Dx Plasma cfDNA',
    });
  });

  it('POST /getLimsInfo lists the LIMS projects of a patient, only to users with VIEW_LIMS_INFORMATION', async () => {
    await lab.models.TestOrder.updateOne({ _id: r1.testOrders[0].id }, { $set: { limsProjectId: 'LP-100' } });
    // LIMS project ids are LIMS information (spec 2 section 6): a provider is refused them
    const refused = await call('POST', `${OMS}/getLimsInfo`, 'npi', { id: 'pat-1' });
    expect(refused.statusCode).toBe(403);
    const res = await call('POST', `${OMS}/getLimsInfo`, 'admin', { id: 'pat-1', firstName: 'Ada' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual([
      {
        testTypes: ['NEXT_DX'],
        limsProjectId: 'LP-100',
        testRequisitionId: r1.testRequisitionId,
        // the diagnosis of the submitted form (requisition-submitted schemaVersion 3)
        diagnosis: 'LUNG',
        testOrderFormId: r1.id,
      },
    ]);
  });

  it('the configured account: a tumor sample needs a diagnosis and REVIEW_COMPLETE to PROCEED (not for other users scope)', async () => {
    const r4 = `rev-${Date.now()}`;
    await createTestOrdersFromSubmission(
      lab.models,
      labOnlySubmission(r4, {
        accountId: 'acc-R',
        testType: 'NEXT_DX',
        orderType: 'INITIAL_ORDER',
        review: 'NEEDS_REVIEW',
        diagnosis: 'LUNG',
      }),
    );
    const staff = {
      id: 'lab-1',
      firstName: 'Lab',
      lastName: 'Staff',
      allAccounts: true,
      accountIds: [],
      physicianIds: [],
    } as unknown as SessionUser;
    const body = {
      id: r4,
      tumors: [tumor({ status: 'PROCEED', accessionId: 'S1 S2', sampleGroupId: 'SG-0002' })],
    } as SamplesBody;
    const opts = { reviewAccountId: 'acc-R' };
    await expect(createSamples(lab.models, staff, body, opts)).rejects.toMatchObject({
      statusCode: 400,
      message: SAMPLE_MSG.proceedNotAllowed,
    });
    await lab.models.TestOrder.updateMany(
      { 'testOrderForm.id': r4 },
      { $set: { 'testOrderForm.reviewStatus': 'REVIEW_COMPLETE' } },
    );
    const created = await createSamples(lab.models, staff, body, opts);
    expect(created[0]).toMatchObject({
      status: 'PROCEED',
      diagnosis: 'LUNG',
      workOrderNumber: 'WO-PSNL-NDX-IT',
    });
    // a user whose scope does not hold the requisition gets a 404, even with the sample permission
    const scoped = { ...staff, allAccounts: false, accountIds: ['acc-B'], physicianIds: [] } as SessionUser;
    await expect(createSamples(lab.models, scoped, body, opts)).rejects.toMatchObject({ statusCode: 404 });
  });

  it('a sample ON_HOLD blocks deleting the submitted requisition until it is no longer on hold', async () => {
    // every test cancelled (the other half of the Delete rule), seen by the requisition
    const cancel = await call('POST', `${OMS}/testOrders/updateTestsStatus`, 'admin', {
      uuids: r1.testOrders.map((t: any) => t.id),
      status: 'CANCELLED',
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    await waitFor(
      async () => (await requisition(r1.id)).testOrders.every((t: any) => t.status === 'CANCELLED'),
      {
        what: 'the test-status projection',
        timeoutMs: 45_000,
      },
    );
    // no sample may be added once every test is cancelled
    const add = await call('POST', `${OMS}/createSampleSource`, 'admin', { id: r1.id, tumors: [tumor()] });
    expect(add.statusCode).toBe(409);
    expect(add.json().message).toBe(SAMPLE_MSG.addNotAllowed);

    const refused = await call('DELETE', `${PORTAL}/${r1.id}`, 'admin');
    expect(refused.statusCode).toBe(403);
    expect((await requisition(r1.id)).deleted).toBe(false);

    const version = (await lab.models.Sample.findById(tumorId).lean())!.version;
    const cancelled = await call('PUT', `${OMS}/updateSampleSource`, 'admin', {
      id: r1.id,
      tumors: [{ ...tumor({ status: 'CANCELLED' }), id: tumorId, version }],
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    await waitFor(async () => !(await requisition(r1.id)).sampleStatuses.includes('ON_HOLD'), {
      what: 'the projection of the cancelled sample',
      timeoutMs: 45_000,
    });
    expect((await requisition(r1.id)).sampleStatuses).toEqual(['PROCEED', 'CANCELLED']);
    const deleted = await call('DELETE', `${PORTAL}/${r1.id}`, 'admin');
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json().deleted).toBe(true);
  });
});
