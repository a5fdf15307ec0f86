import { describe, expect, it } from 'vitest';
import type { Role } from '@onco/domain';
import { authOf, createUser, TEST_PASSWORD, useTestSystem, type UserSpec } from '@onco/testing';
import { completeForm, isoDaysAgo, TEST_ORDER_FORMS as API } from '../../test/fixtures';

const A = { accountId: 'acc-A', physicianId: 'phy-A' };

describe('requisition API: drafts, signature, submit, rules, scope (real store, Redis)', () => {
  const user = (role: Role, account = 'acc-A', physicianId: string | null = 'phy-A'): UserSpec => [
    role,
    { account: { id: account, name: account === 'acc-A' ? 'Alpha Oncology' : 'Beta Clinic' }, physicianId },
  ];
  const { sys, users, h, call } = useTestSystem({
    users: {
      npi: user('ROLE_NPI'),
      nonNpi: user('ROLE_NON_NPI', 'acc-A', null),
      additional: user('ROLE_ADDITIONAL_PHYSICIAN'),
      admin: user('ROLE_ADMINISTRATOR', 'acc-A', null),
      accessioner: user('ROLE_ACCESSIONER', 'acc-A', null),
      observer: user('ROLE_OBSERVER', 'acc-A', null),
      pathologist: user('ROLE_PATHOLOGIST', 'acc-A', null),
      other: user('ROLE_NPI', 'acc-B', 'phy-B'),
    },
  });
  type Who = keyof typeof users;

  async function draft(who: Who, body = completeForm(A)) {
    const res = await call('POST', API, who, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }
  async function signed(who: Who, body = completeForm(A)) {
    const d = await draft(who, body);
    const res = await call('POST', `${API}/${d.id}/sign`, who, { password: TEST_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }
  const rawDoc = (id: string) => sys.ctx.mongo.collection('test_order_forms').findOne({ _id: id as any });

  it('a draft is created with planned tests (TEST_SELECTED) and no number', async () => {
    const d = await draft('npi');
    expect(d.status).toBe('DRAFT');
    expect(d.testRequisitionId).toBeNull();
    expect(d.testOrders).toMatchObject([
      { testType: 'NEXT_DX', orderType: 'INITIAL_ORDER', status: 'TEST_SELECTED' },
    ]);
    expect(d.createdBy).toBe(users.npi._id);
  });

  it('changing the order information rebuilds the planned tests', async () => {
    const d = await draft('npi');
    const res = await call('PUT', `${API}/${d.id}`, 'npi', {
      status: 'DRAFT',
      orderInformation: { nextDx: false, nextPersonalDx: true, orderType: 'SUBSEQUENT_ORDER' },
      tumorSpecimen: null,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().testOrders).toMatchObject([
      { testType: 'NEXT_PERSONAL_DX', orderType: 'SUBSEQUENT_ORDER', status: 'TEST_SELECTED' },
    ]);
    expect(res.json().testOrders[0].id).not.toBe(d.testOrders[0].id);
  });

  it('a save with a bad value is refused with the rule message and changes nothing', async () => {
    const d = await draft('npi');
    const res = await call('PUT', `${API}/${d.id}`, 'npi', {
      status: 'DRAFT',
      patient: { ...d.patient, phone: '12345' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.fields['patient.phone']).toBe('Invalid Phone');
    const after = await rawDoc(d.id);
    expect(after!.patient.phone).toBe('6195550100');
    expect(after!.version).toBe(d.version);
  });

  it('a stale version is a 409', async () => {
    const d = await draft('npi');
    const ok = await call('PUT', `${API}/${d.id}`, 'npi', {
      status: 'DRAFT',
      comment: 'one',
      version: d.version,
    });
    expect(ok.statusCode).toBe(200);
    const stale = await call('PUT', `${API}/${d.id}`, 'npi', {
      status: 'DRAFT',
      comment: 'two',
      version: d.version,
    });
    expect(stale.statusCode).toBe(409);
  });

  it('submit is refused while unsigned or incomplete, with the problems per block, and nothing changes', async () => {
    const d = await draft('npi', { ...completeForm(A), billings: [], tumorSpecimen: { diagnosis: 'LUNG' } });
    const res = await call('POST', `${API}/submit?createPdf=true`, 'npi', { id: d.id });
    expect(res.statusCode).toBe(422);
    const blocks = res.json().details.blocks;
    expect(blocks.signature).toEqual({ approvals: 'This field is required' });
    expect(blocks.billing['billings.0.billingType']).toBe('Billing Type is required');
    expect(blocks.icd10['tumorSpecimen.icd10Codes']).toBe('This field is required');
    expect(blocks.tumorSpecimen['tumorSpecimen.specimenType']).toBe('This field is required');
    const after = await rawDoc(d.id);
    expect(after!.status).toBe('DRAFT');
    expect(after!.testRequisitionId).toBeNull();
    expect(after!.outbox ?? []).toHaveLength(0);
  });

  it('a submit without an id is refused before anything is stored (fuzzing: it left a stray draft per 422)', async () => {
    const forms = sys.ctx.mongo.collection('test_order_forms');
    const before = await forms.countDocuments({});
    const res = await call('POST', `${API}/submit`, 'npi', completeForm(A));
    expect(res.statusCode).toBe(422);
    expect(res.json().details.blocks.signature).toEqual({ approvals: 'This field is required' });
    // an incomplete one names every block's problems, as a submit of a saved draft does
    const bare = await call('POST', `${API}/submit`, 'npi', { ...completeForm(A), billings: [] });
    expect(bare.statusCode).toBe(422);
    expect(Object.keys(bare.json().details.blocks)).toEqual(expect.arrayContaining(['signature', 'billing']));
    expect(await forms.countDocuments({})).toBe(before);
  });

  it('a wrong signature password gives the spec message; the right one records an approval', async () => {
    const d = await draft('npi');
    const bad = await call('POST', `${API}/${d.id}/sign`, 'npi', { password: 'Wrong-pass1' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Incorrect password. Try again.');
    expect((await rawDoc(d.id))!.approvals).toHaveLength(0);
    const ok = await call('POST', `${API}/${d.id}/sign`, 'npi', { password: TEST_PASSWORD });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().approvals).toHaveLength(1);
    expect(ok.json().approvals[0].approvedBy).toEqual({ id: users.npi._id, name: 'Test NPI' });
    expect(new Date(ok.json().approvals[0].createdOn).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('wrong signature passwords count toward the lockout', async () => {
    const u = await createUser(sys, 'ROLE_NPI', { account: { id: 'acc-A', name: 'Alpha Oncology' } });
    const auth = await authOf(sys, u);
    const d = (
      await sys.app.inject({ method: 'POST', url: API, headers: auth, payload: completeForm(A) })
    ).json();
    for (let i = 0; i < 5; i++) {
      const r = await sys.app.inject({
        method: 'POST',
        url: `${API}/${d.id}/sign`,
        headers: auth,
        payload: { password: `Wrong-pass${i}` },
      });
      expect([400, 401]).toContain(r.statusCode);
    }
    const after = await sys.app.inject({ method: 'GET', url: `${API}/${d.id}`, headers: auth });
    expect(after.statusCode).toBe(401);
  });

  for (const role of ['npi', 'nonNpi', 'additional', 'admin', 'accessioner'] as const) {
    it(`draft to submit through the API as ${role}: number, ordered tests and the committed event`, async () => {
      const s = await signed(role);
      const res = await call('POST', `${API}/submit?createPdf=true`, role, { ...completeForm(A), id: s.id });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.status).toBe('SUBMITTED');
      expect(body.testRequisitionId).toMatch(/^TRF-\d{6}$/);
      expect(body.testOrders).toHaveLength(1);
      expect(body.testOrders[0]).toMatchObject({ testType: 'NEXT_DX', status: 'TEST_ORDERED' });
      expect(body.testOrders[0].testOrderId).toMatch(/^NDX-\d{6}$/);
      // the event is committed with the state (the relay publishes it; no relay runs in this file)
      const doc = await rawDoc(s.id);
      expect(doc!.outbox).toHaveLength(1);
      const event = JSON.parse(doc!.outbox[0].value);
      expect(event.type).toBe('requisition.submitted');
      expect(event.data).toMatchObject({
        requisitionId: s.id,
        testRequisitionId: body.testRequisitionId,
        accountId: 'acc-A',
        physicianId: 'phy-A',
        patientId: 'pat-1',
        createPdf: true,
        icd10Codes: ['C34.90', 'Z85.118'],
        testOrders: [{ id: body.testOrders[0].id, testOrderId: body.testOrders[0].testOrderId }],
      });
      expect(event.data.submittedBy.id).toBe(users[role]._id);
    });
  }

  it('a new patient typed into the wizard joins the patient directory on submit (once)', async () => {
    const s = await signed('npi', completeForm({ ...A, patientId: null }));
    const res = await call('POST', `${API}/submit`, 'npi', { id: s.id });
    expect(res.statusCode, res.body).toBe(200);
    const patient = res.json().patient;
    expect(patient.id).toBe(`patient-of-${s.id}`);
    expect(patient.userId).toMatch(/^PAT-\d{6}$/);
    const dir = await sys.app.inject({
      method: 'GET',
      url: `/portal/api/v1/patients/${patient.id}`,
      headers: h.npi,
    });
    expect(dir.statusCode, dir.body).toBe(200);
    expect(dir.json()).toMatchObject({ lastName: 'Lovelace', userId: patient.userId });
    const event = JSON.parse((await rawDoc(s.id))!.outbox[0].value);
    expect(event.data.patientId).toBe(patient.id);
  });

  it('ROLE_OBSERVER cannot start, submit or sign an order', async () => {
    expect((await call('POST', API, 'observer', completeForm(A))).statusCode).toBe(403);
    expect((await call('POST', `${API}/submit`, 'observer', completeForm(A))).statusCode).toBe(403);
    const d = await draft('npi');
    expect(
      (await call('POST', `${API}/${d.id}/sign`, 'observer', { password: TEST_PASSWORD })).statusCode,
    ).toBe(403);
    // but may read the orders of its account
    expect((await call('GET', `${API}/${d.id}`, 'observer')).statusCode).toBe(200);
  });

  it('a submitted requisition is not changed by a draft save, nor submitted twice', async () => {
    const s = await signed('npi');
    const sub = await call('POST', `${API}/submit`, 'npi', { id: s.id });
    expect(sub.statusCode, sub.body).toBe(200);
    expect(sub.json().outbox).toBeUndefined();
    const res = await call('PUT', `${API}/${s.id}`, 'npi', { status: 'DRAFT', comment: 'changed' });
    expect(res.statusCode).toBe(409);
    const again = await call('POST', `${API}/submit`, 'npi', { id: s.id });
    expect(again.statusCode).toBe(409);
    const doc = await rawDoc(s.id);
    expect(doc!.comment).toBeNull();
    expect(doc!.outbox).toHaveLength(1);
    // createPdf was not asked
    expect(JSON.parse(doc!.outbox[0].value).data.createPdf).toBe(false);
  });

  it('a review diagnosis with a NEXT_DX order sets NEEDS_REVIEW on submit', async () => {
    // reviewDiagnosis is a reviewer's field (CAN_REVIEW_DIAGNOSIS; clinical-fields.int.test.ts): the accessioner's
    const body = completeForm(A);
    body.tumorSpecimen.reviewDiagnosis = true;
    const s = await signed('accessioner', body);
    const res = await call('POST', `${API}/submit`, 'accessioner', { id: s.id });
    expect(res.json().clinicalReviewStatus).toBe('NEEDS_REVIEW');
  });

  it('a clinical reviewer without Edit saves only the specimens and the review status of a submitted one', async () => {
    const s = await signed('npi');
    const sub = (await call('POST', `${API}/submit`, 'npi', { id: s.id })).json();
    expect(sub.actions.edit).toBe(true);
    const asReviewer = (await call('GET', `${API}/${s.id}`, 'pathologist')).json();
    expect(asReviewer.actions.edit).toBe(false);
    const res = await call('PUT', `${API}/${s.id}`, 'pathologist', {
      ...completeForm(A),
      clinicalReviewStatus: 'DISQUALIFIED',
      tumorSpecimen: { ...completeForm(A).tumorSpecimen, specimenId: 'BLK-2026_99' },
      patient: { ...completeForm(A).patient, lastName: 'Changed' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = res.json();
    expect(after.clinicalReviewStatus).toBe('DISQUALIFIED');
    expect(after.tumorSpecimen.specimenId).toBe('BLK-2026_99');
    expect(after.patient.lastName).toBe('Lovelace'); // not the reviewer's to change
    expect(after.testOrders.every((t: any) => t.dueOn == null)).toBe(true);
    // a draft is not a reviewer's to save, nor is anything an observer's
    const d = await draft('npi');
    expect(
      (await call('PUT', `${API}/${d.id}`, 'pathologist', { ...completeForm(A), status: 'DRAFT' }))
        .statusCode,
    ).toBe(403);
    expect(
      (await call('PUT', `${API}/${s.id}`, 'observer', { clinicalReviewStatus: 'REVIEW_COMPLETE' }))
        .statusCode,
    ).toBe(403);
    expect((await rawDoc(s.id))!.clinicalReviewStatus).toBe('DISQUALIFIED');
  });

  it('concurrent submits never share a requisition number', async () => {
    const drafts = await Promise.all(Array.from({ length: 8 }, () => signed('admin')));
    const results = await Promise.all(
      drafts.map((d) => call('POST', `${API}/submit`, 'admin', { id: d.id })),
    );
    for (const r of results) expect(r.statusCode, r.body).toBe(200);
    const numbers = results.map((r) => r.json().testRequisitionId);
    expect(new Set(numbers).size).toBe(numbers.length);
    const testIds = results.map((r) => r.json().testOrders[0].testOrderId);
    expect(new Set(testIds).size).toBe(testIds.length);
  });

  it('a user of another account can neither list nor read nor change a requisition', async () => {
    const d = await draft('npi');
    const list = await call(
      'GET',
      `${API}?filter=${encodeURIComponent('{"status":"DRAFT"}')}&size=100`,
      'other',
    );
    expect(list.statusCode).toBe(200);
    expect(list.json().content.map((r: any) => r.id)).not.toContain(d.id);
    expect((await call('GET', `${API}/${d.id}`, 'other')).statusCode).toBe(404);
    expect((await call('GET', `/oms/api/v1/testOrderForms/${d.id}`, 'other')).statusCode).toBe(404);
    expect((await call('PUT', `${API}/${d.id}`, 'other', { status: 'DRAFT', comment: 'x' })).statusCode).toBe(
      404,
    );
    expect((await call('POST', `${API}/${d.id}/sign`, 'other', { password: TEST_PASSWORD })).statusCode).toBe(
      404,
    );
    expect((await call('POST', `${API}/submit`, 'other', { id: d.id })).statusCode).toBe(404);
    expect((await call('DELETE', `${API}/${d.id}`, 'other')).statusCode).toBe(404);
    // nor order for an account that is not theirs
    expect((await call('POST', API, 'other', completeForm(A))).statusCode).toBe(403);
    expect((await rawDoc(d.id))!.comment).toBeNull();
  });

  it('lists Draft and Submitted in both dialects with facets; deleted only with CAN_DELETE_TRF', async () => {
    const spec = await call(
      'GET',
      `${API}?filter=${encodeURIComponent('{"status":"eq(SUBMITTED)"}')}&page=0&size=15&facets=test_status_facet,account_facet`,
      'admin',
    );
    expect(spec.statusCode, spec.body).toBe(200);
    const body = spec.json();
    expect(body.totalElements).toBeGreaterThan(0);
    expect(body.content.every((r: any) => r.status === 'SUBMITTED')).toBe(true);
    const testStatus = body.facets.find((f: any) => f.name === 'test_status_facet');
    expect(testStatus.items.find((i: any) => i.value === 'TEST_ORDERED').count).toBeGreaterThan(0);
    const simple = await call(
      'GET',
      `${API}?filter=${encodeURIComponent('{"status":"DRAFT"}')}&range=[0,4]`,
      'npi',
    );
    expect(simple.headers['content-range']).toMatch(/^testOrderForms 0-\d+\/\d+$/);
    const facets = await call('GET', `${API}/facets`, 'npi');
    expect(facets.json().content.map((f: any) => f.name)).toEqual(
      expect.arrayContaining(['test_status_facet', 'clinical_review_facet', 'order_type_facet']),
    );
    const deleted = `${API}?filter=${encodeURIComponent('{"deleted":"true"}')}`;
    expect((await call('GET', deleted, 'npi')).statusCode).toBe(403);
    expect((await call('GET', deleted, 'admin')).statusCode).toBe(200);
  });

  it('delete: a draft always; a submitted order only with CAN_DELETE_TRF and no live test', async () => {
    const d = await draft('npi');
    const res = await call('PUT', `${API}/${d.id}`, 'npi', { deleted: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().deleted).toBe(true);
    expect((await call('GET', `${API}/${d.id}`, 'npi')).statusCode).toBe(404);
    const s = await signed('npi');
    await call('POST', `${API}/submit`, 'npi', { id: s.id });
    expect((await call('DELETE', `${API}/${s.id}`, 'npi')).statusCode).toBe(403);
    // a test still ordered blocks even an administrator
    expect((await call('DELETE', `${API}/${s.id}`, 'admin')).statusCode).toBe(403);
    await sys.ctx.mongo
      .collection('test_order_forms')
      .updateOne({ _id: s.id as any }, { $set: { 'testOrders.0.status': 'CANCELLED' } });
    const del = await call('DELETE', `${API}/${s.id}`, 'admin');
    expect(del.statusCode, del.body).toBe(200);
    expect((await call('GET', `${API}/${s.id}`, 'admin')).json().deleted).toBe(true);
  });

  it('copy makes a new draft without number, approvals, tests from the order or attachments', async () => {
    const s = await signed('npi');
    const sub = (await call('POST', `${API}/submit`, 'npi', { id: s.id })).json();
    expect((await call('POST', `${API}/${(await draft('npi')).id}/copy`, 'npi')).statusCode).toBe(409);
    const res = await call('POST', `${API}/${s.id}/copy`, 'npi');
    expect(res.statusCode, res.body).toBe(200);
    const copy = res.json();
    expect(copy.id).not.toBe(s.id);
    expect(copy).toMatchObject({ status: 'DRAFT', testRequisitionId: null, approvals: [], attachments: [] });
    expect(copy.testOrders.every((t: any) => t.status === 'TEST_SELECTED')).toBe(true);
    expect(copy.patient.lastName).toBe('Lovelace');
    expect(copy.parentTestOrderForm.testRequisitionId).toBe(sub.testRequisitionId);
  });

  it('the one-click subsequent order is submitted at once with its comment and returns the new id', async () => {
    const body = completeForm(A);
    body.orderInformation = { nextDx: false, nextPersonalDx: true, orderType: 'INITIAL_ORDER' };
    body.tumorSpecimen.specimenType = 'FFPE_SLIDES';
    const s = await signed('npi', body);
    const sub = await call('POST', `${API}/submit`, 'npi', { id: s.id });
    expect(sub.statusCode, sub.body).toBe(200);
    expect(sub.json().actions.subsequentOrder).toBe(true);
    // the list rows carry the same per-user actions (the orders list offers the Order button from them)
    const listed = (
      await call('GET', `${API}?filter=${encodeURIComponent('{"status":"eq(SUBMITTED)"}')}&size=100`, 'npi')
    ).json();
    expect(listed.content.find((r: any) => r.id === s.id).actions).toEqual(sub.json().actions);
    const observed = (
      await call('GET', `${API}?filter=${encodeURIComponent('{"status":"eq(SUBMITTED)"}')}&size=100`, 'admin')
    ).json();
    expect(observed.content.find((r: any) => r.id === s.id).actions.delete).toBe(false); // a test is ordered
    const res = await call('POST', `${API}/${s.id}/subsequentOrder`, 'npi', {
      collectionDate: isoDaysAgo(-7),
      collectionMode: 'MOBILE_PHLEBOTOMY',
    });
    expect(res.statusCode, res.body).toBe(200);
    const { id } = res.json();
    const next = (await call('GET', `${API}/${id}`, 'npi')).json();
    expect(next).toMatchObject({
      status: 'SUBMITTED',
      comment: 'Subsequent order created via the one-click order button',
      parentTestOrderForm: { id: s.id, testRequisitionId: sub.json().testRequisitionId },
      normalSpecimen: { specimenType: 'BLOOD', collectionMode: 'MOBILE_PHLEBOTOMY' },
    });
    expect(next.testOrders).toMatchObject([
      { testType: 'NEXT_PERSONAL_DX', orderType: 'SUBSEQUENT_ORDER', status: 'TEST_ORDERED' },
    ]);
    const raw = await rawDoc(id);
    expect(JSON.parse(raw!.outbox[0].value).data.testOrders[0].status).toBe('TEST_ORDERED');
    const far = await call('POST', `${API}/${s.id}/subsequentOrder`, 'npi', {
      collectionDate: isoDaysAgo(200),
    });
    expect(far.statusCode).toBe(400);
  });

  it('exports the orders as CSV named orders_yyyyMMdd_HHmmss', async () => {
    const res = await call(
      'GET',
      `${API}/export?filter=${encodeURIComponent('{"status":"SUBMITTED"}')}`,
      'admin',
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/filename="orders_\d{8}_\d{6}\.csv"/);
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toContain('TRF #');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines[1]).toMatch(/TRF-\d{6}/);
    expect((await call('GET', `${API}/export`, 'observer')).statusCode).toBe(403);
  });

  it('refuses a billing row whose type is null with a 400 naming the field, and creates nothing (was a 500)', async () => {
    const before = await sys.ctx.mongo.collection('test_order_forms').countDocuments();
    const res = await call('POST', API, 'npi', {
      ...completeForm(A),
      billings: [{ ...completeForm(A).billings[0], billingType: null }],
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().details.fields).toEqual({ 'billings.0.billingType': 'This field is required' });
    expect(res.json().message).toBe('Invalid request: billings.0.billingType: This field is required');
    expect(await sys.ctx.mongo.collection('test_order_forms').countDocuments()).toBe(before);
  });

  it('refuses an export mapping that is not JSON, or not [field, title] pairs, with a 400 (was a 500)', async () => {
    for (const mapping of ['{not json', '{', '[["patient.name"]]', '"x"']) {
      const res = await call('GET', `${API}/export?mapping=${encodeURIComponent(mapping)}`, 'admin');
      expect(res.statusCode, `${mapping}: ${res.body}`).toBe(400);
      expect(res.json().message).toMatch(
        /^Invalid mapping: (not valid JSON \()?expected a JSON list of \[field, title\] pairs, e\.g\. \[\["patient\.name","Patient"\]\]\)?$/,
      );
      expect(res.json().details).toEqual({ param: 'mapping' });
    }
  });

  it('refuses an export (and the list) whose filter, sort or range is not JSON with a 400 naming the parameter (was a 500)', async () => {
    const notJsonFilter =
      'Invalid filter: not valid JSON (expected a JSON object, e.g. {"status":"eq(SUBMITTED)"})';
    const cases: Array<[string, string]> = [
      ['filter=not-json', notJsonFilter],
      ['filter=%7B', notJsonFilter],
      ['filter=%5B%5D', 'Invalid filter: expected a JSON object'],
      ['sort=%5B%22id%22', 'Invalid sort: not valid JSON (expected a JSON list ["field","ASC"])'],
      ['range=%5B0%2C', 'Invalid range: not valid JSON (expected a JSON list [start, end], e.g. [0,24])'],
    ];
    for (const path of [`${API}/export`, API])
      for (const [qs, message] of cases) {
        const res = await call('GET', `${path}?${qs}`, 'admin');
        expect(res.statusCode, `${path}?${qs}: ${res.body}`).toBe(400);
        expect(res.json().message).toBe(message);
        expect(res.json().details).toEqual({ param: qs.split('=')[0] });
      }
  });

  it('merge moves the duplicate into the primary and marks the duplicate INVALID', async () => {
    const a = await signed('admin');
    const b = await signed('admin');
    const pa = (await call('POST', `${API}/submit`, 'admin', { id: a.id })).json();
    await call('POST', `${API}/submit`, 'admin', { id: b.id });
    expect(
      (await call('POST', `${API}/merge?sourceTrfId=${b.id}&targetTrfId=${a.id}`, 'npi')).statusCode,
    ).toBe(403);
    const res = await call('POST', `${API}/merge?sourceTrfId=${b.id}&targetTrfId=${a.id}`, 'admin');
    expect(res.statusCode, res.body).toBe(200);
    const src = (await call('GET', `${API}/${b.id}`, 'admin')).json();
    expect(src.status).toBe('INVALID');
    expect(src.comment).toBe(`Merged into ${pa.testRequisitionId}`);
  });
});
