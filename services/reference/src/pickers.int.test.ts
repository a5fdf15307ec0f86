import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestSystem, createUser, signIn, type Auth, type TestSystem } from '@onco/testing';
import { referenceModels, type ReferenceModels } from './models';
import { createReferenceModule } from './index';
import type { SeedResult } from './seed';
import {
  createNpiRegistryStandIn,
  NPI_STAND_IN_PATH,
  NpiRegistryClient,
  type NpiRegistryStandIn,
} from './npi-registry';
import { npiStandInRoutes } from './routes/npi-registry';
import { diagnosisTypeId } from './ids';

/**
 * The pickers and edits of the requisition's reference blocks (issue "Reference data and pickers"), through
 * the whole system against the real services. The system's NPI registry is a stand-in served by a separate
 * HTTP server (NPI_REGISTRY_URL), so the adapter speaks real HTTP and faults can be injected.
 */
let sys: TestSystem;
let models: ReferenceModels;
let seed: SeedResult;
let A: { id: string; name: string };
let B: { id: string; name: string };
let registry: FastifyInstance;
let standIn: NpiRegistryStandIn;
let registryUrl: string;
type Who = 'a' | 'b' | 'npiOnly' | 'admin' | 'observer' | 'pathologist' | 'patient';
const h = {} as Record<Who, Auth>;

const call = api(() => sys);
const get = (url: string, headers?: Auth) => call('GET', url, headers);
const enc = (v: unknown) => encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v));
const P = '/portal/api/v1';

beforeAll(async () => {
  // the registry stand-in on its own HTTP server, at the same path our server serves it
  standIn = createNpiRegistryStandIn();
  // idle keep-alive connections (the server's registry client keeps them) closed at once on close()
  registry = Fastify({ forceCloseConnections: true });
  await registry.register(async (s) => npiStandInRoutes(s, { standIn }), { prefix: P });
  const address = await registry.listen({ port: 0, host: '127.0.0.1' });
  registryUrl = `${address}${P}${NPI_STAND_IN_PATH}`;

  sys = await createTestSystem({ NPI_REGISTRY_URL: registryUrl });
  models = referenceModels(sys.ctx.mongo);
  seed = await createReferenceModule(sys.ctx).seedReference({ referenceData: 'fixtures' });
  [A, B] = seed.accounts;
  const users = {
    a: await createUser(sys, 'ROLE_NON_NPI', { account: A }),
    b: await createUser(sys, 'ROLE_NON_NPI', { account: B }),
    // a provider with no account association: sees what concerns their own physician record only
    npiOnly: await createUser(sys, 'ROLE_NPI', { physicianId: seed.physicians[0].id }),
    admin: await createUser(sys, 'ROLE_PORTAL_ADMIN'),
    observer: await createUser(sys, 'ROLE_OBSERVER', { account: A }),
    pathologist: await createUser(sys, 'ROLE_PATHOLOGIST', { account: A }),
    patient: await createUser(sys, 'ROLE_PATIENT', { account: A }),
  };
  Object.assign(h, await signIn(sys, users));
});

afterAll(async () => {
  await sys?.close();
  await registry?.close();
});

describe('patients: pick and edit', () => {
  it('search applies only at 3+ characters; 20 a page; account and physician id filters', async () => {
    // 25 more patients in account A, so the default page size shows
    await models.Patient.create(
      [...Array(25)].map((_, i) => ({
        userId: `PAT-9${String(i).padStart(5, '0')}`,
        firstName: 'Bulk',
        lastName: `Zimmer${i}`,
        name: `Bulk Zimmer${i}`,
        accountIds: [A.id],
        physicianIds: [seed.physicians[1].id],
      })),
    );
    const page = (await get(`${P}/patients`, h.a)).json();
    expect(page.totalElements).toBe(30);
    expect(page.content).toHaveLength(20);
    // 2 characters: not a search (everything in scope), 3: a search
    expect((await get(`${P}/patients?filter=${enc({ q: 'zi' })}`, h.a)).json().totalElements).toBe(30);
    expect((await get(`${P}/patients?filter=${enc({ q: 'zim' })}`, h.a)).json().totalElements).toBe(25);
    expect((await get(`${P}/patients?q=zim&size=20`, h.a)).json().totalElements).toBe(25);
    const byPhysician = (
      await get(`${P}/patients?filter=${enc({ physicianIds: `in(${seed.physicians[0].id})` })}`, h.a)
    ).json();
    expect(byPhysician.totalElements).toBe(3);
    expect(
      (await get(`${P}/patients?filter=${enc({ accountIds: `in(${B.id})` })}`, h.a)).json().totalElements,
    ).toBe(0);
    expect(
      (await get(`${P}/patients?filter=${enc({ accountIds: `in(${B.id})` })}`, h.admin)).json().totalElements,
    ).toBe(5);
  });

  it('a provider-role user is scoped by their own physician id (no account association)', async () => {
    const mine = (await get(`${P}/patients`, h.npiOnly)).json();
    expect(mine.totalElements).toBe(3);
    expect(mine.content.every((p: any) => p.physicianIds.includes(seed.physicians[0].id))).toBe(true);
    const other = seed.patients.find((p) => !p.physicianIds.includes(seed.physicians[0].id))!;
    expect((await get(`${P}/patients/${other.id}`, h.npiOnly)).statusCode).toBe(404);
    // and they find their own physician record in the provider search
    const docs = (await get(`${P}/physicians`, h.npiOnly)).json();
    expect(docs.content.map((p: any) => p.id)).toEqual([seed.physicians[0].id]);
  });

  it('PUT edits a patient with the patient rules; bad input is a 400 naming each field and changes nothing', async () => {
    const p = seed.patients.find((x) => x.accountIds.includes(A.id))!;
    const before = (await get(`${P}/patients/${p.id}`, h.a)).json();
    const bad = await call('PUT', `${P}/patients/${p.id}`, h.a, {
      firstName: '',
      dateOfBirth: '2999-01-01',
      phone: '12345',
      address: { city: 'Seattle 9', zip: '981' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.errors).toEqual({
      firstName: 'This field is required',
      dateOfBirth: expect.stringMatching(/^Date must be no later than \d{2}\/\d{2}\/\d{4}$/),
      phone: 'Invalid Phone',
      'address.city': 'Invalid City',
      'address.postalCode': 'Invalid Zip Code',
    });
    expect(bad.json().message).toContain('First Name: This field is required');
    expect((await get(`${P}/patients/${p.id}`, h.a)).json()).toEqual(before);

    const ok = await call('PUT', `${P}/patients/${p.id}`, h.a, {
      firstName: 'Maggie',
      phone: '(206) 555-0199',
      dateOfBirth: '03/04/1961',
      address: { zip: '98104-1234' },
      version: before.version,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      firstName: 'Maggie',
      lastName: before.lastName,
      name: `Maggie ${before.lastName}`,
      phone: '2065550199',
      dateOfBirth: '1961-03-04',
      address: { ...before.address, postalCode: '98104-1234' },
      userId: before.userId,
      accountIds: before.accountIds,
      version: before.version + 1,
    });
    // the list search finds the new name; a stale version is a 409
    expect((await get(`${P}/patients?filter=${enc({ q: 'maggie' })}`, h.a)).json().totalElements).toBe(1);
    const stale = await call('PUT', `${P}/patients/${p.id}`, h.a, {
      firstName: 'X',
      version: before.version,
    });
    expect(stale.statusCode).toBe(409);
  });

  it("PUT: another account's patient is a 404; a role without edit permissions is a 403", async () => {
    const bp = seed.patients.find((x) => x.accountIds.includes(B.id))!;
    expect((await call('PUT', `${P}/patients/${bp.id}`, h.a, { firstName: 'Nope' })).statusCode).toBe(404);
    const ap = seed.patients.find((x) => x.accountIds.includes(A.id))!;
    expect((await call('PUT', `${P}/patients/${ap.id}`, h.observer, { firstName: 'Nope' })).statusCode).toBe(
      403,
    );
    expect((await get(`${P}/patients/${bp.id}`, h.b)).json().firstName).not.toBe('Nope');
  });
});

describe('physicians, pathologists, accounts and locations', () => {
  it('physician PUT: contact fields validated; e-mail only with CAN_EDIT_PHYSICIAN_EMAIL; scoped', async () => {
    const doc = seed.physicians[1];
    const cur = (await get(`${P}/physicians/${doc.id}`, h.a)).json();
    const bad = await call('PUT', `${P}/physicians/${doc.id}`, h.a, {
      phone: '206-555',
      fax: 'abc',
      lastName: '',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.errors).toEqual({
      lastName: 'This field is required',
      phone: 'Invalid Phone',
      fax: 'Invalid Fax',
    });
    const email = await call('PUT', `${P}/physicians/${doc.id}`, h.a, { email: 'new@clinic.example.org' });
    expect(email.statusCode).toBe(403);
    // the same e-mail sent back unchanged (a whole form) is fine
    const ok = await call('PUT', `${P}/physicians/${doc.id}`, h.a, {
      email: cur.email,
      phone: '(206) 555-0111',
      middleName: 'T',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      phone: '2065550111',
      middleName: 'T',
      email: cur.email,
      userId: cur.userId,
    });
    const admin = await call('PUT', `${P}/physicians/${doc.id}`, h.admin, {
      email: 'dokafor@new.example.org',
    });
    expect(admin.json().email).toBe('dokafor@new.example.org');
    const bDoc = seed.physicians.find((p) => p.accountIds.includes(B.id))!;
    expect((await call('PUT', `${P}/physicians/${bDoc.id}`, h.a, { phone: '2065550111' })).statusCode).toBe(
      404,
    );
    expect(
      (await call('PUT', `${P}/physicians/${doc.id}`, h.observer, { phone: '2065550111' })).statusCode,
    ).toBe(403);
  });

  it('physician search: SUSPENDED excluded, id in(...), q, 20 a page', async () => {
    const ids = seed.physicians.map((p) => p.id).join(',');
    const res = (await get(`${P}/physicians?filter=${enc({ id: `in(${ids})` })}`, h.admin)).json();
    expect(res.totalElements).toBe(5);
    expect(res.content.some((p: any) => p.status === 'SUSPENDED')).toBe(false);
    expect((await get(`${P}/physicians?filter=${enc({ q: 'lau' })}`, h.admin)).json().totalElements).toBe(0);
    await models.Physician.create(
      [...Array(22)].map((_, i) => ({
        userId: `99900000${String(i).padStart(2, '0')}`,
        firstName: 'Bulk',
        lastName: `Doc${i}`,
        name: `Bulk Doc${i}`,
        accountIds: [B.id],
      })),
    );
    const page = (await get(`${P}/physicians?filter=${enc({ accountId: B.id })}`, h.b)).json();
    expect(page.totalElements).toBe(24);
    expect(page.content).toHaveLength(20);
  });

  it('pathologist PUT: NPI must be a valid NPI; scoped; the list filters accountIds in(...) with q', async () => {
    const path = seed.pathologists[0];
    const bad = await call('PUT', `${P}/pathologists/${path.id}`, h.a, { npi: '1234567890' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.errors).toEqual({ npi: 'Invalid NPI' });
    const ok = await call('PUT', `${P}/pathologists/${path.id}`, h.a, { phone: '206.555.0177' });
    expect(ok.json()).toMatchObject({ phone: '2065550177', name: path.name });
    expect(
      (await call('PUT', `${P}/pathologists/${seed.pathologists[1].id}`, h.a, { phone: '2065550177' }))
        .statusCode,
    ).toBe(404);
    const q = (
      await get(`${P}/pathologists?filter=${enc({ accountIds: `in(${A.id})`, q: 'lindq' })}`, h.a)
    ).json();
    expect(q.content.map((p: any) => p.id)).toEqual([path.id]);
  });

  it('account PUT needs CAN_CREATE_ACCOUNT; accounts filter id in(...) and q', async () => {
    expect((await call('PUT', `${P}/accounts/${A.id}`, h.a, { name: 'Renamed' })).statusCode).toBe(403);
    const blank = await call('PUT', `${P}/accounts/${A.id}`, h.admin, { name: ' ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().details.errors).toEqual({ name: 'This field is required' });
    const ok = await call('PUT', `${P}/accounts/${A.id}`, h.admin, { address: { city: 'Tacoma' } });
    expect(ok.json()).toMatchObject({
      name: A.name,
      address: { city: 'Tacoma', state: 'WA' },
      accountId: 'ACC-1001',
    });
    const ids = (await get(`${P}/accounts?filter=${enc({ id: `in(${A.id},${B.id})` })}`, h.a)).json();
    expect(ids.content.map((x: any) => x.id)).toEqual([A.id]);
    expect((await get(`${P}/accounts?filter=${enc({ q: 'lakes' })}`, h.admin)).json().content[0].id).toBe(
      B.id,
    );
  });

  it('hospital location PUT and POST need CAN_CREATE_HOSPITALLOCATION; telephone and fax 10 digits; scoped', async () => {
    const loc = seed.hospitalLocations.find((l) => l.accountId === A.id)!;
    const bad = await call('PUT', `${P}/hospitalLocations/${loc.id}`, h.a, { address: { telephone: '555' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.errors).toEqual({ 'address.telephone': 'Invalid Telephone' });
    const ok = await call('PUT', `${P}/hospitalLocations/${loc.id}`, h.a, {
      name: 'First Hill Clinic',
      address: { fax: '(206) 555-0142' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      name: 'First Hill Clinic',
      account: { id: A.id },
      address: { fax: '2065550142', city: 'Seattle', telephone: '2065550140' },
    });
    const bLoc = seed.hospitalLocations.find((l) => l.accountId === B.id)!;
    expect((await call('PUT', `${P}/hospitalLocations/${bLoc.id}`, h.a, { name: 'x' })).statusCode).toBe(404);
    expect(
      (await call('PUT', `${P}/hospitalLocations/${loc.id}`, h.observer, { name: 'x' })).statusCode,
    ).toBe(403);
    const badCreate = await call('POST', `${P}/hospitalLocations`, h.a, {
      name: 'Tacoma',
      accountId: A.id,
      address: { telephone: '12' },
    });
    expect(badCreate.statusCode).toBe(400);
    expect(await models.HospitalLocation.countDocuments({ name: 'Tacoma' })).toBe(0);
  });

  it('payors: q, 15 a page', async () => {
    await models.Payor.create(
      [...Array(10)].map((_, i) => ({ name: `Regional Health Plan ${i}`, payorId: `R${i}` })),
    );
    const page = (await get(`${P}/payors?page=0`, h.a)).json();
    expect(page.totalElements).toBe(20);
    expect(page.content).toHaveLength(15);
    expect((await get(`${P}/payors?filter=${enc({ q: 'regional' })}&page=0`, h.a)).json().totalElements).toBe(
      10,
    );
  });
});

describe('patient billings (saved insurances)', () => {
  const insurance = {
    billingType: 'INSURANCE',
    preference: 'PRIMARY',
    insuranceProvider: 'Blue Cross Blue Shield',
    payorId: '00430',
    insuredName: 'Margaret Holloway',
    insuredDob: '05/14/1958',
    policyNumber: 'xyz-1234 55',
    groupNumber: 'grp 7',
  };
  const url = (id: string) => `${P}/patients/${id}/billings`;

  it('create, list, update, mark default (one only), soft delete; each write returns the list', async () => {
    const p = seed.patients.find((x) => x.accountIds.includes(A.id))!;
    expect((await get(url(p.id), h.a)).json()).toEqual({ content: [], totalElements: 0 });

    const c1 = await call('POST', url(p.id), h.a, insurance);
    expect(c1.statusCode).toBe(201);
    const first = c1.json().content[0];
    expect(first).toMatchObject({
      patientId: p.id,
      isDefault: true, // the first entry becomes the default
      insuredDob: '1958-05-14',
      relationshipToPatient: 'SELF',
      canonicalPolicyNumber: 'XYZ123455',
      canonicalGroupNumber: 'GRP7',
      patientInsuranceId: first.id,
    });
    const c2 = await call('POST', url(p.id), h.a, {
      billingType: 'SELF',
      preference: 'SECONDARY',
      policyNumber: 'dropped',
    });
    expect(c2.json().totalElements).toBe(2);
    const second = c2.json().content.find((x: any) => x.id !== first.id);
    expect(second).toMatchObject({ isDefault: false, billingType: 'SELF', policyNumber: null });

    // mark the second the default: the first stops being one
    const md = await call('PUT', url(p.id), h.admin, { id: second.id, isDefault: true });
    expect(md.statusCode).toBe(200);
    expect(md.json().content.map((x: any) => [x.id, x.isDefault])).toEqual([
      [second.id, true],
      [first.id, false],
    ]);

    const up = await call('PUT', url(p.id), h.a, {
      id: first.id,
      groupNumber: 'G-99',
      billingType: 'MEDICARE',
    });
    expect(up.statusCode).toBe(200);
    expect(up.json().content.find((x: any) => x.id === first.id)).toMatchObject({
      billingType: 'MEDICARE',
      groupNumber: 'G-99',
      canonicalGroupNumber: 'G99',
      insuranceProvider: 'Blue Cross Blue Shield',
      version: 2,
    });

    const del = await call('PUT', url(p.id), h.admin, { id: second.id, deleted: true });
    expect(del.json().content.map((x: any) => x.id)).toEqual([first.id]);
    expect((await models.PatientBilling.findById(second.id).lean())!.deleted).toBe(true);
    expect((await call('PUT', url(p.id), h.admin, { id: second.id, groupNumber: 'x' })).statusCode).toBe(404);
  });

  it('bad entries are 400 with the billing messages and change nothing', async () => {
    const p = seed.patients.filter((x) => x.accountIds.includes(A.id))[1];
    const bad = await call('POST', url(p.id), h.a, {
      billingType: 'MEDICAID',
      patientStatus: 'INPATIENT_DISCHARGED',
      insuredDob: '13/45/2000',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.errors).toMatchObject({
      insuranceProvider: 'Insurance Provider is required',
      insuredDob: 'Enter a valid date (MM/DD/YYYY)',
      dischargeDate: 'Discharge Date is required',
    });
    expect(bad.json().message).toContain('Insurance Provider is required');
    expect((await call('POST', url(p.id), h.a, {})).json().details.errors).toEqual({
      billingType: 'Payment Type is required',
    });
    expect((await get(url(p.id), h.a)).json().totalElements).toBe(0);
  });

  it('scoped through the patient; mark default and delete are billing-menu actions', async () => {
    const bp = seed.patients.find((x) => x.accountIds.includes(B.id))!;
    expect((await get(url(bp.id), h.a)).statusCode).toBe(404);
    expect((await call('POST', url(bp.id), h.a, insurance)).statusCode).toBe(404);
    expect((await get(url(bp.id), h.patient)).statusCode).toBe(403);

    // a provider saves insurances from the requisition but has no billing menu
    const mine = seed.patients.find((x) => x.physicianIds.includes(seed.physicians[0].id))!;
    const created = await call('POST', url(mine.id), h.npiOnly, insurance);
    expect(created.statusCode).toBe(201);
    const again = await call('POST', url(mine.id), h.npiOnly, { ...insurance, policyNumber: 'P2' });
    const other = again.json().content.find((x: any) => !x.isDefault);
    expect((await call('PUT', url(mine.id), h.npiOnly, { id: other.id, isDefault: true })).statusCode).toBe(
      403,
    );
    expect((await call('PUT', url(mine.id), h.npiOnly, { id: other.id, deleted: true })).statusCode).toBe(
      403,
    );
    expect(
      (await call('PUT', url(mine.id), h.npiOnly, { id: other.id, isDefault: false, insuredName: 'M H' }))
        .statusCode,
    ).toBe(200);
  });

  it('concurrent "mark default" on different entries leaves exactly one default', async () => {
    const p = seed.patients.filter((x) => x.accountIds.includes(A.id))[2];
    for (let i = 0; i < 4; i++) await call('POST', url(p.id), h.a, { ...insurance, policyNumber: `C${i}` });
    const rows = (await get(url(p.id), h.a)).json().content;
    const marks = await Promise.all(
      rows.map((r: any) => call('PUT', url(p.id), h.admin, { id: r.id, isDefault: true })),
    );
    // every mark is applied (a conflicting transaction is run again, never answered with an error)
    expect(marks.map((m) => m.statusCode)).toEqual(rows.map(() => 200));
    const after = (await get(url(p.id), h.a)).json().content;
    expect(after.filter((r: any) => r.isDefault)).toHaveLength(1);
    // the patient's reply does not show the counter its billing writes increment
    const patient = (await get(`${P}/patients/${p.id}`, h.a)).json();
    expect(patient).not.toHaveProperty('billingsVersion');
    expect((await models.Patient.findById(p.id).lean())!.billingsVersion).toBe(8);
  });

  it('the first entries of a patient saved at once: exactly one becomes the default', async () => {
    const p = seed.patients.filter((x) => x.accountIds.includes(A.id))[3];
    const created = await Promise.all(
      [0, 1, 2, 3, 4, 5].map((i) => call('POST', url(p.id), h.a, { ...insurance, policyNumber: `F${i}` })),
    );
    expect(created.map((c) => c.statusCode)).toEqual([201, 201, 201, 201, 201, 201]);
    const rows = (await get(url(p.id), h.a)).json().content;
    expect(rows).toHaveLength(6);
    expect(rows.filter((r: any) => r.isDefault)).toHaveLength(1);
  });
});

describe('NPI registry lookup', () => {
  it('the adapter speaks the version 2.1 contract to the stand-in over HTTP and maps the results', async () => {
    const client = new NpiRegistryClient({ baseUrl: registryUrl });
    const res = await client.lookup({ firstName: 'Elena' });
    expect(res.content.map((p) => p.userId).sort()).toEqual(['1456782311', '1548732969', '1765432186']);
    const q = new URLSearchParams(standIn.received.at(-1));
    expect(Object.fromEntries(q)).toEqual({
      version: '2.1',
      enumeration_type: 'NPI-1',
      country_code: 'US',
      limit: '20',
      first_name: 'Elena',
    });
    const one = await client.lookup({ number: '1726358496' });
    expect(one.content[0]).toMatchObject({
      userId: '1726358496',
      name: 'Priya Raman',
      locations: [{ address: { city: 'Chicago', postalCode: '60611-2908' } }],
    });
  });

  it('limit 20: the registry never sends more', async () => {
    const extra = [...Array(25)].map((_, i) => ({
      ...standIn.records[1],
      number: `17000000${String(i).padStart(2, '0')}`,
      basic: { ...standIn.records[1].basic, first_name: 'ZED' },
    }));
    standIn.records.push(...extra);
    try {
      const res = (await get(`${P}/npiRegistry?firstName=zed`, h.a)).json();
      expect(res.totalElements).toBe(20);
    } finally {
      standIn.records.splice(standIn.records.length - extra.length);
    }
  });

  it('the portal route needs VIEW_NPI_REGISTRY and a first name or a 10-digit number', async () => {
    const res = await get(`${P}/npiRegistry?firstName=elena`, h.a);
    expect(res.statusCode).toBe(200);
    expect(res.json().content[0]).toEqual({
      userId: expect.stringMatching(/^\d{10}$/),
      name: expect.any(String),
      firstName: 'Elena',
      middleName: expect.toBeOneOf([null, expect.any(String)]),
      lastName: expect.any(String),
      credential: expect.any(String),
      specialty: expect.any(String),
      locations: expect.any(Array),
    });
    expect((await get(`${P}/npiRegistry?number=1548732969`, h.a)).json().content[0].name).toBe(
      'Elena Marquez',
    );
    expect((await get(`${P}/npiRegistry?number=1548732969`, h.pathologist)).statusCode).toBe(403);
    expect((await get(`${P}/npiRegistry?number=1548732969`)).statusCode).toBe(401);
    expect((await get(`${P}/npiRegistry`, h.a)).json().message).toBe(
      'Enter a first name or an NPI number to search the NPI registry.',
    );
    expect((await get(`${P}/npiRegistry?number=123`, h.a)).statusCode).toBe(400);
    expect((await get(`${P}/npiRegistry?firstName=E*`, h.a)).statusCode).toBe(400);
    expect((await get(`${P}/npiRegistry?firstName=nobody`, h.a)).json()).toEqual({
      content: [],
      totalElements: 0,
    });
  });

  it('an unavailable registry is a 502 with a clear message (5xx, timeout, not the layout)', async () => {
    const down = async () => {
      const res = await get(`${P}/npiRegistry?firstName=elena`, h.a);
      return [res.statusCode, res.json().message, res.json().details?.reason];
    };
    const msg = 'The NPI registry is not available. Please try again later.';
    try {
      standIn.faults = { status: 503 };
      expect(await down()).toEqual([502, msg, 'HTTP 503']);
      standIn.faults = { malformed: true };
      expect(await down()).toEqual([502, msg, 'not JSON']);
      standIn.faults = {};
      const slow = new NpiRegistryClient({ baseUrl: registryUrl, timeoutMs: 100 });
      standIn.faults = { delayMs: 400 };
      await expect(slow.lookup({ firstName: 'elena' })).rejects.toMatchObject({
        statusCode: 502,
        details: { reason: 'timeout' },
      });
      const nowhere = new NpiRegistryClient({ baseUrl: 'http://127.0.0.1:9/api/' });
      await expect(nowhere.lookup({ number: '1548732969' })).rejects.toMatchObject({ statusCode: 502 });
    } finally {
      standIn.faults = {};
    }
  });
});

describe('ICD-10 and diagnosis types', () => {
  it('ICD-10: totalElements counts every match, not the page', async () => {
    const res = (await get(`/dxs/api/v1/icddx?filter=${enc({ q: 'C50.9' })}&page=0&size=2`, h.a)).json();
    expect(res.content).toHaveLength(2);
    expect(res.totalElements).toBe(3);
    const p2 = (await get(`/dxs/api/v1/icddx?filter=${enc({ q: 'C50.9' })}&page=1&size=2`, h.a)).json();
    expect(p2.content.map((c: any) => c.formattedCode)).toEqual(['C50.919']);
    expect(p2.totalElements).toBe(3);
    expect((await get(`/dxs/api/v1/icddx?size=1001`, h.a)).statusCode).toBe(400);
  });

  it('diagnosis search: 30 a page by default, tissue nodes never returned', async () => {
    // 20 more selectable nodes under BREAST -> 46 selectable in all
    await models.DiagnosisType.create(
      [...Array(20)].map((_, i) => ({
        _id: diagnosisTypeId(`XTRA${i}`),
        code: `XTRA${i}`,
        name: `Extra breast subtype ${i}`,
        tissue: 'Breast',
        parentCode: 'BREAST',
        level: 2,
        path: `Breast (BREAST) -> Extra breast subtype ${i} (XTRA${i})`,
      })),
    );
    const page = (await get('/dxs/api/v1/diagnosisTypes?page=0', h.a)).json();
    expect(page.totalElements).toBe(46);
    expect(page.content).toHaveLength(30);
    const last = (await get('/dxs/api/v1/diagnosisTypes?page=1', h.a)).json();
    expect(last.content).toHaveLength(16);
    const all = [...page.content, ...last.content];
    expect(all.some((d: any) => d.level < 2 || d.code === 'BREAST' || d.code === 'TISSUE')).toBe(false);
    const breast = (await get('/dxs/api/v1/diagnosisTypes/code/BREAST', h.a)).json();
    expect(breast.octDxBreadCrumb).toBe('Breast (BREAST)');
    expect(breast.children.length).toBeGreaterThan(20);
  });
});
