import { describe, expect, it } from 'vitest';
import type { Role } from '@onco/domain';
import { TEST_PASSWORD, useTestSystem, type UserSpec } from '@onco/testing';
import { completeForm, TEST_ORDER_FORMS as API } from '../../test/fixtures';

const A = { accountId: 'acc-A', physicianId: 'phy-A' };

/**
 * The clinical fields only some users may set (CAN_ADD_*, CAN_REVIEW_DIAGNOSIS; docs/permissions.md): a save
 * that would change one without its permission is refused with a 403 naming the field and changes nothing; the
 * same value repeated is not a change.
 */
describe('requisition API: who may set the clinical fields (real store)', () => {
  const user = (role: Role, physicianId: string | null = null): UserSpec => [
    role,
    { account: { id: 'acc-A', name: 'Alpha Oncology' }, physicianId },
  ];
  const { sys, call } = useTestSystem({
    users: {
      npi: user('ROLE_NPI', 'phy-A'),
      accessioner: user('ROLE_ACCESSIONER'),
      manager: user('ROLE_PROJECT_MANAGER'),
      pathologist: user('ROLE_PATHOLOGIST'),
    },
  });
  const rawDoc = (id: string) => sys.ctx.mongo.collection('test_order_forms').findOne({ _id: id as any });
  const clinical = {
    primaryTumorSite: 'Left upper lobe',
    planOrReceivingImmunotherapy: true,
    currentTherapies: ['Osimertinib'],
    priorTherapies: ['Carboplatin', 'Pemetrexed'],
    dateOfDiagnosis: '2026-03-01',
    content: 35,
  };

  it('a provider and an accessioner save and submit every clinical field; they read back', async () => {
    for (const who of ['npi', 'accessioner'] as const) {
      const body = completeForm(A);
      body.tumorSpecimen = { ...body.tumorSpecimen, ...clinical };
      body.patient = {
        ...body.patient,
        race: 'Asian',
        ethnicity: 'Not Hispanic or Latino',
        trialName: 'ONC-7',
      };
      const d = await call('POST', API, who, body);
      expect(d.statusCode, d.body).toBe(200);
      const id = d.json().id;
      expect((await call('POST', `${API}/${id}/sign`, who, { password: TEST_PASSWORD })).statusCode).toBe(
        200,
      );
      const sub = await call('POST', `${API}/submit`, who, { id });
      expect(sub.statusCode, sub.body).toBe(200);
      expect(sub.json().tumorSpecimen).toMatchObject(clinical);
      expect(sub.json().patient).toMatchObject({ race: 'Asian', trialName: 'ONC-7' });
    }
  });

  it('a project manager (Edit, no CAN_ADD_*) changing a therapy or the tumor % is refused; nothing changes', async () => {
    const body = completeForm(A);
    body.tumorSpecimen = { ...body.tumorSpecimen, ...clinical };
    const d = (await call('POST', API, 'npi', body)).json();
    await call('POST', `${API}/${d.id}/sign`, 'npi', { password: TEST_PASSWORD });
    const sub = (await call('POST', `${API}/submit`, 'npi', { id: d.id })).json();
    const res = await call('PUT', `${API}/${d.id}`, 'manager', {
      tumorSpecimen: { ...sub.tumorSpecimen, priorTherapies: ['Carboplatin'], content: 50 },
    });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().message).toBe('Only users with CAN_ADD_PRIOR_THERAPIES may set Prior therapies.');
    expect(Object.keys(res.json().details.fields)).toEqual([
      'tumorSpecimen.priorTherapies',
      'tumorSpecimen.content',
    ]);
    const after = await rawDoc(d.id);
    expect(after!.tumorSpecimen.priorTherapies).toEqual(['Carboplatin', 'Pemetrexed']);
    expect(after!.tumorSpecimen.content).toBe(35);
    expect(after!.version).toBe(sub.version);
    // the same block with the stored values and another change is taken
    const ok = await call('PUT', `${API}/${d.id}`, 'manager', {
      tumorSpecimen: { ...sub.tumorSpecimen, specimenId: 'BLK-PM_1' },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().tumorSpecimen).toMatchObject({ specimenId: 'BLK-PM_1', content: 35 });
  });

  it('the pathologist corrects the tumor %, but may not touch the therapies; free-text diagnosis needs CAN_ADD_DIAGNOSIS', async () => {
    const d = (await call('POST', API, 'npi', completeForm(A))).json();
    await call('POST', `${API}/${d.id}/sign`, 'npi', { password: TEST_PASSWORD });
    const sub = (await call('POST', `${API}/submit`, 'npi', { id: d.id })).json();
    const pct = await call('PUT', `${API}/${d.id}`, 'pathologist', {
      tumorSpecimen: { ...sub.tumorSpecimen, content: 40 },
    });
    expect(pct.statusCode, pct.body).toBe(200);
    expect(pct.json().tumorSpecimen.content).toBe(40);
    const therapy = await call('PUT', `${API}/${d.id}`, 'pathologist', {
      tumorSpecimen: { ...pct.json().tumorSpecimen, currentTherapies: ['Pembrolizumab'] },
    });
    expect(therapy.statusCode).toBe(403);
    expect(therapy.json().message).toBe(
      'Only users with CAN_ADD_CURRENT_THERAPIES may set Current therapies.',
    );
    // a provider: a node of the diagnosis tree yes, free text no; the accessioner (CAN_ADD_DIAGNOSIS) yes
    const node = JSON.stringify({
      code: 'LUAD',
      octDxBreadCrumb: 'Lung (LUNG) -> Lung Adenocarcinoma (LUAD)',
    });
    const withNode = completeForm(A);
    withNode.tumorSpecimen = { ...withNode.tumorSpecimen, octDxBreadCrumb: node };
    expect((await call('POST', API, 'npi', withNode)).statusCode).toBe(200);
    const free = completeForm(A);
    free.tumorSpecimen = { ...free.tumorSpecimen, octDxBreadCrumb: 'Rare spindle cell tumor' };
    const refused = await call('POST', API, 'npi', free);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(
      'Only users with CAN_ADD_DIAGNOSIS may set a diagnosis that is not in the diagnosis tree.',
    );
    expect((await call('POST', API, 'accessioner', free)).statusCode).toBe(200);
  });

  it('reviewDiagnosis is set only by a reviewer: a provider asking for review is refused', async () => {
    const body = completeForm(A);
    body.tumorSpecimen = { ...body.tumorSpecimen, reviewDiagnosis: true };
    const npiRes = await call('POST', API, 'npi', body);
    expect(npiRes.statusCode).toBe(403);
    expect(npiRes.json().message).toBe('Only users with CAN_REVIEW_DIAGNOSIS may set Review diagnosis.');
    expect((await call('POST', API, 'accessioner', body)).statusCode).toBe(200);
  });
});
