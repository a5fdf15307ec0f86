import { describe, expect, it } from 'vitest';
import { msgPatientNumberInUse } from '@onco/domain';
import { SEARCH_TEXT_CONTROL_CHARACTER } from '@onco/platform';
import { api, provider, user, useTestSystem, type Auth } from '@onco/testing';
import { referenceModels, type ReferenceModels } from './models';
import { applyPatientParties, createReferenceModule } from './index';
import type { SeedResult } from './seed';

/**
 * The patients list and Update Patient # (spec 2 sections 2.6, 5, 6, 7 "Patients") on the real services: scope,
 * facets with names, the search permission, renumbering (409 for a number in use, audited), the consumer that
 * keeps a patient's accounts, physicians and locations, and the billing entry menu's rules.
 */
let models: ReferenceModels;
let seed: SeedResult;
let A: { id: string; name: string };
let B: { id: string; name: string };
const { sys, h } = useTestSystem({
  prepare: async () => {
    models = referenceModels(sys.ctx.mongo);
    seed = await createReferenceModule(sys.ctx).seedReference({ referenceData: 'fixtures' });
    [A, B] = seed.accounts;
  },
  // made of the seeded accounts and physicians
  users: {
    npi: () => provider(A, seed.physicians[0].id),
    b: () => user('ROLE_NON_NPI', { account: B }),
    admin: 'ROLE_PORTAL_ADMIN',
    observer: () => user('ROLE_OBSERVER', { account: A }),
    manager: 'ROLE_PROJECT_MANAGER',
  },
});
const P = '/portal/api/v1';
const enc = (v: unknown) => encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v));
const call = api(() => sys);
const get = (url: string, headers?: Auth) => call('GET', url, headers);

const ofA = () => seed.patients.filter((p) => p.accountIds.includes(A.id));
const ofB = () => seed.patients.filter((p) => p.accountIds.includes(B.id));
let extra = 0;
/** A patient of account A made for one test (the seeded ones stay as the list tests count them). */
async function freshPatient() {
  extra += 1;
  const doc = await models.Patient.create({
    _id: `patient-extra-${extra}`,
    userId: `PAT-9${String(extra).padStart(5, '0')}`,
    firstName: 'Extra',
    lastName: `Patient${extra}`,
    name: `Extra Patient${extra}`,
    accountIds: [A.id],
    physicianIds: [seed.physicians[0].id],
  });
  return { id: String(doc._id), userId: doc.userId };
}

describe('patients list (spec 2 section 2.6)', () => {
  it("a provider sees only their accounts' patients, newest update first, 15 a page, with canEdit", async () => {
    const res = await get(`${P}/patients?page=0&perPage=15&sortValue=updatedOn&sortOrder=DESC`, h.npi);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.totalElements).toBe(ofA().length);
    expect(body.content.every((p: any) => p.accountIds.includes(A.id))).toBe(true);
    const times = body.content.map((p: any) => new Date(p.updatedOn).getTime());
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    // a provider (NPI) edits patients in the wizard (CAN_CREATE_TRF), so canEdit; the list's Actions menu
    // still needs VIEW_PATIENT_ACTIONS (domain patientListActions)
    expect(body.content[0]).toMatchObject({ canEdit: true, userId: expect.stringMatching(/^PAT-/) });
    expect(body.content[0]).not.toHaveProperty('billingsVersion');
  });

  it("another account's patient is a 404 for the provider, for the list filter an empty page", async () => {
    const other = ofB()[0];
    expect((await get(`${P}/patients/${other.id}`, h.npi)).statusCode).toBe(404);
    expect((await get(`${P}/patients/${other.id}/billings`, h.npi)).statusCode).toBe(404);
    const res = await get(`${P}/patients?filter=${enc({ accountIds: [B.id] })}`, h.npi);
    expect(res.json()).toMatchObject({ content: [], totalElements: 0 });
    expect((await get(`${P}/patients/${ofA()[0].id}`, h.npi)).statusCode).toBe(200);
  });

  it('facets: Account, Provider and Hospital with names; a picked value narrows the others, not its own', async () => {
    const res = await get(`${P}/patients/facets`, h.admin);
    expect(res.statusCode).toBe(200);
    const facets = Object.fromEntries(res.json().content.map((f: any) => [f.name, f.items]));
    expect(Object.keys(facets).sort()).toEqual([
      'account_facet',
      'hospital_location_facet',
      'physician_facet',
    ]);
    expect(facets.account_facet).toEqual(
      expect.arrayContaining([
        { value: A.id, count: ofA().length, label: A.name },
        { value: B.id, count: ofB().length, label: B.name },
      ]),
    );
    expect(facets.physician_facet[0].label).toMatch(/^[A-Z][a-z]+ [A-Z]/);
    expect(facets.hospital_location_facet.reduce((n: number, i: any) => n + i.count, 0)).toBe(
      seed.patients.length,
    );

    const picked = await get(`${P}/patients/facets?filter=${enc({ accountIds: [A.id] })}`, h.admin);
    const f2 = Object.fromEntries(picked.json().content.map((f: any) => [f.name, f.items]));
    expect(f2.account_facet.map((i: any) => i.value).sort()).toEqual([A.id, B.id].sort());
    const aPhysicians = new Set(ofA().flatMap((p) => p.physicianIds));
    expect(f2.physician_facet.every((i: any) => aPhysicians.has(i.value))).toBe(true);

    // the Hospital filter and the Created range
    const loc = facets.hospital_location_facet[0];
    const byLoc = await get(
      `${P}/patients?perPage=50&filter=${enc({ hospitalLocationIds: [loc.value] })}`,
      h.admin,
    );
    expect(byLoc.json().totalElements).toBe(loc.count);
    const range = await get(
      `${P}/patients?filter=${enc({ createdOn: `between(0,${Date.now() + 60_000})` })}&facets=true`,
      h.admin,
    );
    expect(range.json().totalElements).toBe(seed.patients.length);
    expect(range.json().facets.map((f: any) => f.name)).toContain('hospital_location_facet');
  });

  it('a renamed account shows its new name in the facets at once (the label cache forgets it)', async () => {
    const label = async () =>
      (await get(`${P}/patients/facets`, h.admin))
        .json()
        .content.find((f: any) => f.name === 'account_facet')
        .items.find((i: any) => i.value === B.id)?.label;
    expect(await label()).toBe(B.name);
    const current = (await get(`${P}/accounts/${B.id}`, h.admin)).json();
    const renamed = await call('PUT', `${P}/accounts/${B.id}`, h.admin, {
      name: `${B.name} Renamed`,
      version: current.version,
    });
    expect(renamed.statusCode).toBe(200);
    try {
      expect(await label()).toBe(`${B.name} Renamed`);
    } finally {
      const now = (await get(`${P}/accounts/${B.id}`, h.admin)).json();
      await call('PUT', `${P}/accounts/${B.id}`, h.admin, { name: B.name, version: now.version });
    }
  });

  it('the provider scope also holds for facets: only their accounts count', async () => {
    const res = await get(`${P}/patients/facets`, h.npi);
    const account = res.json().content.find((f: any) => f.name === 'account_facet');
    expect(account.items).toEqual([{ value: A.id, count: ofA().length, label: A.name }]);
    // a patient ordered for by A and by B: the provider of A sees the patient, but not B's name in the facet
    await models.Patient.create({
      _id: 'patient-shared-ab',
      userId: 'PAT-SHARED-AB',
      firstName: 'Shared',
      lastName: 'Patient',
      name: 'Shared Patient',
      accountIds: [A.id, B.id],
    });
    try {
      const shared = await get(`${P}/patients/facets`, h.npi);
      const items = shared.json().content.find((f: any) => f.name === 'account_facet').items;
      expect(items).toEqual([{ value: A.id, count: ofA().length + 1, label: A.name }]);
      const all = await get(`${P}/patients/facets`, h.admin);
      const adminItems = all.json().content.find((f: any) => f.name === 'account_facet').items;
      expect(adminItems.map((i: any) => i.value)).toEqual(expect.arrayContaining([A.id, B.id]));
    } finally {
      await models.Patient.deleteOne({ _id: 'patient-shared-ab' });
    }
  });

  it('search needs CAN_SEARCH_PATIENT: an observer gets a 403, a provider finds by name', async () => {
    const p = ofA()[0];
    const q = p.name.split(' ')[1].slice(0, 4);
    expect((await get(`${P}/patients?q=${enc(q)}`, h.observer)).statusCode).toBe(403);
    expect((await get(`${P}/patients`, h.observer)).statusCode).toBe(200);
    const found = await get(`${P}/patients?q=${enc(q)}`, h.npi);
    expect(found.statusCode).toBe(200);
    expect(found.json().content.map((x: any) => x.id)).toContain(p.id);
  });

  it("a search text with a NUL is a 400 naming the field: the list's q and the picker's text (the picker was a 500)", async () => {
    const text = `${ofA()[0].name.split(' ')[1].slice(0, 4)}\u0000`;
    for (const [url, field] of [
      [`${P}/patients?q=${enc(text)}`, 'q'],
      [`${P}/patients/picker?text=${enc(text)}`, 'text'],
      [`${P}/patients/picker?text=${enc('ab\u0001cd')}`, 'text'],
    ]) {
      const res = await get(url, h.npi);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
      expect(res.json()).toMatchObject({ message: SEARCH_TEXT_CONTROL_CHARACTER, details: { field } });
    }
    const picked = await get(`${P}/patients/picker?text=${enc(ofA()[0].name.split(' ')[1])}`, h.npi);
    expect(picked.statusCode, picked.body).toBe(200);
    expect(picked.json().content.map((x: any) => x.id)).toContain(ofA()[0].id);
  });
});

describe('Update Patient # (PUT /patients/updatePatientId?fromId&toId)', () => {
  const uuid = () => crypto.randomUUID();
  const renumber = (fromId: string, toId: string, who = h.admin) =>
    call('PUT', `${P}/patients/updatePatientId?fromId=${enc(fromId)}&toId=${enc(toId)}`, who);

  it('renumbers, keeps who/when/from/to on the patient; the old number is gone', async () => {
    const p = await freshPatient();
    const before = (await models.Patient.findById(p.id).lean())!;
    const to = uuid();
    const res = await renumber(before.userId, to.toUpperCase());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: p.id, userId: to, version: before.version + 1 });
    expect(res.json().numberHistory).toEqual([
      {
        fromId: before.userId,
        toId: to,
        changedBy: expect.any(String),
        changedByName: 'Test PORTAL_ADMIN',
        changedOn: expect.any(String),
      },
    ]);
    expect((await renumber(before.userId, uuid())).statusCode).toBe(404);
    // and back again: a second audit entry
    const back = await renumber(to, uuid());
    expect(back.json().numberHistory).toHaveLength(2);
  });

  it('a number in use is a 409 with a clear message; nothing changes', async () => {
    const [p1, p2] = [await freshPatient(), await freshPatient()];
    const taken = uuid();
    expect((await renumber(p1.userId, taken)).statusCode).toBe(200);
    const v = (await models.Patient.findById(p2.id).lean())!;
    const res = await renumber(v.userId, taken);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(msgPatientNumberInUse(taken));
    const after = (await models.Patient.findById(p2.id).lean())!;
    expect(after).toMatchObject({ userId: v.userId, version: v.version });
    expect(after.numberHistory).toEqual([]);
  });

  it('two renumberings to one number at once: one 200, one 409', async () => {
    const [p3, p4] = [await freshPatient(), await freshPatient()];
    const n = uuid();
    const codes = (await Promise.all([renumber(p3.userId, n), renumber(p4.userId, n)])).map(
      (r) => r.statusCode,
    );
    expect(codes.sort()).toEqual([200, 409]);
    expect(await models.Patient.countDocuments({ userId: n })).toBe(1);
  });

  it('bad input: not a UUID or the same number is a 400; unknown number 404; no permission 403', async () => {
    const p = (await models.Patient.findById((await freshPatient()).id).lean())!;
    const bad = await renumber(p.userId, 'PAT-999999');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/UUID/);
    expect((await renumber(p.userId, '')).statusCode).toBe(400);
    expect((await renumber('PAT-NOPE', uuid())).statusCode).toBe(404);
    // a provider (no CAN_UPDATE_PATIENTID) may not renumber
    expect((await renumber((await freshPatient()).userId, uuid(), h.npi)).statusCode).toBe(403);
    const same = uuid();
    await renumber(p.userId, same);
    expect((await renumber(same, same)).statusCode).toBe(400);
  });
});

describe("the patient's parties from the requisition events (consumers/patient-parties.ts)", () => {
  it('adds the account, physician and location of a submitted requisition; a redelivery changes nothing', async () => {
    const p = await freshPatient();
    const location = seed.hospitalLocations.find((l: any) => l.accountId === B.id) as any;
    const parties = {
      patientId: p.id,
      accountId: B.id,
      physicianId: seed.physicians[5].id,
      hospitalLocationId: location.id,
    };
    const before = (await models.Patient.findById(p.id).lean())!;
    expect(await applyPatientParties(models, parties)).toBe(true);
    expect(await applyPatientParties(models, parties)).toBe(false);
    const after = (await models.Patient.findById(p.id).lean())!;
    expect(after.accountIds).toEqual([A.id, B.id]);
    expect(after.physicianIds).toContain(seed.physicians[5].id);
    expect(after.hospitalLocationIds).toContain(location.id);
    expect(after.version).toBe(before.version);
    // now account B's users see the patient
    expect((await get(`${P}/patients/${p.id}`, h.b)).statusCode).toBe(200);
  });
});

describe('billing entries on the patient page (VIEW_BILLING_ACTIONS menu)', () => {
  const entry = {
    billingType: 'INSURANCE',
    insuranceProvider: 'Aetna',
    payorId: '60054',
    insuredName: 'Pat Example',
    insuredDob: '01/02/1970',
    policyNumber: 'AET-1',
  };
  it('add, edit, mark default and delete; a provider adds but may not mark default or delete', async () => {
    const p = await freshPatient();
    const url = `${P}/patients/${p.id}/billings`;
    const one = await call('POST', url, h.npi, entry);
    expect(one.statusCode).toBe(201);
    const two = await call('POST', url, h.manager, { ...entry, policyNumber: 'AET-2' });
    const second = two.json().content.find((b: any) => b.policyNumber === 'AET-2');
    expect(second.isDefault).toBe(false);
    expect((await call('PUT', url, h.npi, { id: second.id, isDefault: true })).statusCode).toBe(403);
    expect((await call('PUT', url, h.npi, { id: second.id, deleted: true })).statusCode).toBe(403);
    const marked = await call('PUT', url, h.manager, { id: second.id, isDefault: true });
    expect(
      marked
        .json()
        .content.filter((b: any) => b.isDefault)
        .map((b: any) => b.id),
    ).toEqual([second.id]);
    const edited = await call('PUT', url, h.manager, { id: second.id, groupNumber: 'g-9' });
    expect(edited.json().content[0]).toMatchObject({ id: second.id, canonicalGroupNumber: 'G9' });
    const bad = await call('PUT', url, h.manager, { id: second.id, insuredDob: '13/45/2000' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.errors).toEqual({ insuredDob: 'Enter a valid date (MM/DD/YYYY)' });
    const del = await call('PUT', url, h.manager, { id: second.id, deleted: true });
    expect(del.json().totalElements).toBe(1);
    // outside the scope: a 404 for account B's user
    expect((await call('POST', url, h.b, entry)).statusCode).toBe(404);
  });
});
