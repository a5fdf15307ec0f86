import { describe, expect, it } from 'vitest';
import { apiWith, provider, TEST_PASSWORD, useTestSystem } from '@onco/testing';
import { completeForm, TEST_ORDER_FORMS as API } from '../test/fixtures';

const A = { accountId: 'acc-A', physicianId: 'phy-A' };

/**
 * An approval covers what was signed (docs/decisions.md "Requisition rules"): a save of a signed draft that
 * changes signed content removes the approvals and submit then asks for the signature; a save that changes
 * nothing signed (the same form sent back, or only what the signature does not cover) keeps them.
 */
describe('approval invalidated when a signed draft changes (real store, Redis)', () => {
  const { sys, h } = useTestSystem({
    users: { npi: provider({ id: 'acc-A', name: 'Alpha Oncology' }, 'phy-A') },
  });
  const call = apiWith(() => sys, h.npi);
  async function signedDraft() {
    const d = await call('POST', API, completeForm(A));
    expect(d.statusCode, d.body).toBe(200);
    const s = await call('POST', `${API}/${d.json().id}/sign`, { password: TEST_PASSWORD });
    expect(s.statusCode, s.body).toBe(200);
    expect(s.json().approvals).toHaveLength(1);
    return s.json();
  }

  it('a no-op save (the loaded requisition sent back, and the fixture form again) keeps the approval', async () => {
    const s = await signedDraft();
    const back = await call('PUT', `${API}/${s.id}`, { ...s, status: 'DRAFT' });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().approvals).toEqual(s.approvals);
    const again = await call('PUT', `${API}/${s.id}`, { ...completeForm(A), status: 'DRAFT' });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().approvals).toEqual(s.approvals);
    const submit = await call('POST', `${API}/submit`, { ...completeForm(A), id: s.id });
    expect(submit.statusCode, submit.body).toBe(200);
    expect(submit.json().status).toBe('SUBMITTED');
  });

  it('a save that changes signed content removes the approval; submit asks for the signature again', async () => {
    const s = await signedDraft();
    const changed = await call('PUT', `${API}/${s.id}`, {
      status: 'DRAFT',
      patient: { ...s.patient, phone: '6195550199' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().approvals).toEqual([]);
    const refused = await call('POST', `${API}/submit`, { id: s.id });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().details.blocks.signature).toEqual({ approvals: 'This field is required' });
    // signing again makes it submittable
    expect((await call('POST', `${API}/${s.id}/sign`, { password: TEST_PASSWORD })).statusCode).toBe(200);
    const ok = await call('POST', `${API}/submit`, { id: s.id });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('changes in any signed block count: billing, test selection, consent, comment', async () => {
    for (const change of [
      { billings: [{ billingType: 'FACILITY', preference: 'PRIMARY', facilityTypeName: 'Hospital' }] },
      { orderInformation: { nextDx: true, nextPersonalDx: true, orderType: 'INITIAL_ORDER' } },
      { consent: false },
      { comment: 'please call before shipping' },
    ]) {
      const s = await signedDraft();
      const res = await call('PUT', `${API}/${s.id}`, { status: 'DRAFT', ...change });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().approvals, JSON.stringify(change)).toEqual([]);
    }
  });

  it('a submit whose body changes signed content is refused with the signature problem and changes nothing', async () => {
    const s = await signedDraft();
    const res = await call('POST', `${API}/submit`, {
      ...completeForm(A),
      id: s.id,
      tumorSpecimen: { ...completeForm(A).tumorSpecimen, stage: 'IV' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().details.blocks.signature).toEqual({ approvals: 'This field is required' });
    const after = (await call('GET', `${API}/${s.id}`)).json();
    expect(after.status).toBe('DRAFT');
    expect(after.tumorSpecimen.stage).toBe('III');
    expect(after.approvals).toEqual(s.approvals);
  });
});
