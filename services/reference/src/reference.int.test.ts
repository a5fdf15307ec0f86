import { describe, expect, it } from 'vitest';
import { provider, user, useTestSystem, type Auth } from '@onco/testing';
import { nextSequence, referenceModels, type ReferenceModels } from './models';
import { createReferenceModule, type ReferenceModule } from './index';
import type { SeedResult } from './seed';

let reference: ReferenceModule;
let models: ReferenceModels;
let seed: SeedResult;
let A: { id: string; name: string };
let B: { id: string; name: string };
const { sys, h } = useTestSystem({
  prepare: async () => {
    reference = createReferenceModule(sys.ctx);
    models = referenceModels(sys.ctx.mongo);
    const t0 = Date.now();
    seed = await reference.seedReference({ referenceData: 'fixtures' });
    sys.ctx.logger.info({ ms: Date.now() - t0 }, 'seeded');
    [A, B] = seed.accounts;
  },
  /** a staff user of account A, a staff user of account B, the NPI user of A's first physician, a portal admin, a patient user */
  users: {
    a: () => user('ROLE_NON_NPI', { account: A }),
    b: () => user('ROLE_NON_NPI', { account: B }),
    npi: () => provider(A, seed.physicians[0].id),
    admin: 'ROLE_PORTAL_ADMIN',
    patient: () => user('ROLE_PATIENT', { account: A }),
  },
});

const get = (url: string, headers?: Auth) => sys.app.inject({ method: 'GET', url, headers });
const enc = (v: unknown) => encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v));

describe('seedReference', () => {
  it('created the demo data: 2 accounts, 4 locations, 6 physicians with valid NPIs, 2 pathologists, 10 patients', async () => {
    expect(seed.created).toBe(true);
    expect(seed.accounts.map((a) => a.name)).toEqual([
      'Pacific Oncology Associates',
      'Lakeside Cancer Center',
    ]);
    expect(seed.hospitalLocations).toHaveLength(4);
    expect(seed.physicians).toHaveLength(6);
    expect(seed.physicians[0]).toMatchObject({ name: 'Elena Marquez', accountIds: [A.id], status: 'ACTIVE' });
    expect(seed.physicians.every((p) => /^\d{10}$/.test(p.userId))).toBe(true);
    expect(seed.pathologists).toHaveLength(2);
    expect(seed.patients).toHaveLength(10);
    expect(new Set(seed.patients.flatMap((p) => p.accountIds))).toEqual(new Set([A.id, B.id]));
    expect(seed.imports).toMatchObject({
      source: 'fixtures',
      icd10: { inserted: 42 },
      oncotree: { inserted: 33 },
    });
    expect(await models.Payor.countDocuments()).toBe(10);
    expect(await models.ReleaseNote.countDocuments()).toBe(1);
  });

  it('is idempotent: a second call writes nothing and returns the same ids in the same order', async () => {
    const counts = async () =>
      Promise.all(
        [
          models.Account,
          models.Physician,
          models.Patient,
          models.Payor,
          models.MaintenanceWindow,
          models.Icd10Code,
        ].map((m: any) => m.countDocuments()),
      );
    const before = await counts();
    const again = await reference.seedReference({ referenceData: 'fixtures' });
    expect(again.created).toBe(false);
    expect(again.imports).toBeUndefined();
    expect(again.accounts).toEqual(seed.accounts);
    expect(again.physicians).toEqual(seed.physicians);
    expect(again.patients).toEqual(seed.patients);
    expect(await counts()).toEqual(before);
  });

  it('serves the directories other modules use', async () => {
    expect(await reference.directories.accounts.get(A.id)).toEqual({
      id: A.id,
      name: 'Pacific Oncology Associates',
    });
    expect(await reference.directories.physicians.get(seed.physicians[0].id)).toEqual({
      id: seed.physicians[0].id,
      name: 'Elena Marquez',
    });
    expect(await reference.directories.accounts.get('nope')).toBeNull();
  });
});

describe('maintenance', () => {
  it('GET is public and returns only windows that have not ended, earliest end first, in epoch milliseconds', async () => {
    const now = Date.now();
    const H = 3600_000;
    await models.MaintenanceWindow.create([
      {
        startTime: new Date(now - 5 * H),
        endTime: new Date(now - 3 * H),
        displayTime: new Date(now - 30 * H),
        title: 'past',
      },
      {
        startTime: new Date(now + 2 * 24 * H),
        endTime: new Date(now + 2 * 24 * H + H),
        displayTime: new Date(now + 24 * H),
        title: 'in two days',
      },
      {
        startTime: new Date(now - H),
        endTime: new Date(now + H),
        displayTime: new Date(now - 2 * H),
        title: 'now',
      },
      {
        startTime: new Date(now + H),
        endTime: new Date(now + 2 * H),
        displayTime: new Date(now),
        title: 'deleted',
        deleted: true,
      },
    ]);
    const res = await get('/portal/api/v1/maintenance');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.map((w: any) => w.title)).toEqual(['now', 'in two days', 'Scheduled maintenance']);
    const seeded = body[2];
    expect(typeof seeded.startTime).toBe('number');
    expect(seeded.from_time).toBe(seeded.startTime);
    expect(seeded.endTime - seeded.startTime).toBe(2 * H);
    expect(seeded.startTime - seeded.displayTime).toBe(24 * H);
    expect(seeded.startTime - now).toBeGreaterThanOrEqual(7 * 24 * H - 60_000);
    expect(seeded.startTime - now).toBeLessThanOrEqual(7 * 24 * H + H);
    expect(Object.keys(seeded).sort()).toEqual([
      'body',
      'description',
      'displayTime',
      'endTime',
      'from_time',
      'id',
      'startTime',
      'title',
    ]);
  });

  it('POST needs CAN_MANAGE_MAINTENANCE: 401 without a token, 403 without the permission', async () => {
    const payload = { startTime: Date.now() + 3600_000, endTime: Date.now() + 7200_000, title: 'Upgrade' };
    expect(
      (await sys.app.inject({ method: 'POST', url: '/portal/api/v1/maintenance', payload })).statusCode,
    ).toBe(401);
    const res = await sys.app.inject({
      method: 'POST',
      url: '/portal/api/v1/maintenance',
      payload,
      headers: h.a,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('FORBIDDEN');
  });

  it('a time no date can hold, or past the year 9999, is a 400 naming the field and saying what it takes; nothing is scheduled (was a 500)', async () => {
    const start = Date.now() + 10 * 24 * 3600_000;
    const before = await models.MaintenanceWindow.countDocuments();
    for (const times of [
      { endTime: 9007199254740990 }, // the fuzzer's: mongoose's Invalid Date
      { endTime: 8.64e15 }, // the last instant a date holds, year 275760: no ISO-8601 date-time writes it
      { endTime: Date.UTC(10000, 0, 1) },
      { displayTime: 9007199254740990, endTime: start + 3600_000 },
      { endTime: '+275760-09-13T00:00:00.000Z' },
    ]) {
      const res = await sys.app.inject({
        method: 'POST',
        url: '/portal/api/v1/maintenance',
        headers: h.admin,
        payload: { startTime: start, title: 'Forever', ...times },
      });
      expect(res.statusCode, `${JSON.stringify(times)}: ${res.body}`).toBe(400);
      const field = 'displayTime' in times ? 'displayTime' : 'endTime';
      expect(res.json().message).toBe(
        `Invalid body: ${field}: expected epoch milliseconds from 1 to 253402300799999 ` +
          '(9999-12-31T23:59:59.999Z) or an ISO-8601 date-time',
      );
    }
    expect(await models.MaintenanceWindow.countDocuments()).toBe(before);
    // the last instant the ISO form writes is still a window's end
    const last = await sys.app.inject({
      method: 'POST',
      url: '/portal/api/v1/maintenance',
      headers: h.admin,
      payload: { startTime: start, endTime: Date.UTC(9999, 11, 31, 23, 59, 59, 999), title: 'Long' },
    });
    expect(last.statusCode, last.body).toBe(201);
    expect(last.json().endTime).toBe(253402300799999);
    await sys.app.inject({
      method: 'DELETE',
      url: `/portal/api/v1/maintenance/${last.json().id}`,
      headers: h.admin,
    });
  });

  it('an admin schedules and cancels a window; bad windows are 400', async () => {
    const start = Date.now() + 10 * 24 * 3600_000;
    const bad = await sys.app.inject({
      method: 'POST',
      url: '/portal/api/v1/maintenance',
      headers: h.admin,
      payload: { startTime: start, endTime: start - 1, title: 'Backwards' },
    });
    expect(bad.statusCode).toBe(400);
    // past the last instant a date can hold (±8.64e15 ms): a 400 naming the field, not a 500 (found by fuzzing)
    const far = await sys.app.inject({
      method: 'POST',
      url: '/portal/api/v1/maintenance',
      headers: h.admin,
      payload: { startTime: start, endTime: 9007199254740990, title: 'Forever' },
    });
    expect(far.statusCode, far.body).toBe(400);
    expect(far.json().message).toContain('endTime');
    const res = await sys.app.inject({
      method: 'POST',
      url: '/portal/api/v1/maintenance',
      headers: h.admin,
      payload: {
        startTime: new Date(start).toISOString(),
        endTime: start + 3600_000,
        title: 'Database upgrade',
        body: 'Back soon',
      },
    });
    expect(res.statusCode).toBe(201);
    const w = res.json();
    expect(w).toMatchObject({
      startTime: start,
      from_time: start,
      endTime: start + 3600_000,
      displayTime: start - 24 * 3600_000,
      title: 'Database upgrade',
    });
    expect((await get('/portal/api/v1/maintenance')).json().map((x: any) => x.id)).toContain(w.id);
    const del = await sys.app.inject({
      method: 'DELETE',
      url: `/portal/api/v1/maintenance/${w.id}`,
      headers: h.admin,
    });
    expect(del.statusCode).toBe(200);
    expect(del.json().id).toBe(w.id);
    expect((await get('/portal/api/v1/maintenance')).json().map((x: any) => x.id)).not.toContain(w.id);
    expect(
      (
        await sys.app.inject({
          method: 'DELETE',
          url: `/portal/api/v1/maintenance/${w.id}`,
          headers: h.admin,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await sys.app.inject({ method: 'DELETE', url: `/portal/api/v1/maintenance/${w.id}`, headers: h.a }))
        .statusCode,
    ).toBe(403);
  });
});

describe('accounts and hospital locations', () => {
  it('a user sees only their accounts; another account is a 404', async () => {
    const list = (await get('/portal/api/v1/accounts', h.a)).json();
    expect(list.totalElements).toBe(1);
    expect(list.content[0]).toMatchObject({ id: A.id, name: A.name, accountId: 'ACC-1001' });
    expect((await get(`/portal/api/v1/accounts/${A.id}`, h.a)).statusCode).toBe(200);
    expect((await get(`/portal/api/v1/accounts/${B.id}`, h.a)).statusCode).toBe(404);
    expect((await get('/portal/api/v1/accounts', h.admin)).json().totalElements).toBe(2);
  });

  it('lists locations by account and creates one for an own account only', async () => {
    const mine = (
      await get(`/portal/api/v1/hospitalLocations?filter=${enc({ accountId: A.id })}`, h.a)
    ).json();
    expect(mine.totalElements).toBe(2);
    expect(
      (await get(`/portal/api/v1/hospitalLocations?filter=${enc({ accountId: B.id })}`, h.a)).json()
        .totalElements,
    ).toBe(0);
    const payload = {
      name: 'Pacific Oncology - Tacoma',
      account: { id: A.id },
      address: { city: 'Tacoma', state: 'WA', postalCode: '98402' },
    };
    const res = await sys.app.inject({
      method: 'POST',
      url: '/portal/api/v1/hospitalLocations',
      headers: h.a,
      payload,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      hospitalLocationId: 'HL-1005',
      account: { id: A.id, name: A.name },
      address: { city: 'Tacoma' },
    });
    const other = await sys.app.inject({
      method: 'POST',
      url: '/portal/api/v1/hospitalLocations',
      headers: h.a,
      payload: { ...payload, account: { id: B.id } },
    });
    expect(other.statusCode).toBe(403);
    const noPerm = await sys.app.inject({
      method: 'POST',
      url: '/portal/api/v1/hospitalLocations',
      headers: h.patient,
      payload,
    });
    expect(noPerm.statusCode).toBe(403);
  });
});

describe('concurrent writes (each one conditional update: the database decides the winner, no lock)', () => {
  it('30 edits of one patient at the same version: exactly one 200, the rest 409, the version up by one', async () => {
    const p = seed.patients.find((x) => x.accountIds.includes(A.id))!;
    const url = `/portal/api/v1/patients/${p.id}`;
    const before = (await get(url, h.a)).json();
    const results = await Promise.all(
      [...Array(30)].map((_, i) =>
        sys.app.inject({
          method: 'PUT',
          url,
          headers: h.a,
          payload: { version: before.version, mrn: `MRN-RACE-${i}` },
        }),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(29);
    const after = (await get(url, h.a)).json();
    expect(after.version).toBe(before.version + 1);
    expect(after.mrn).toBe(results.find((r) => r.statusCode === 200)!.json().mrn);
    // the patient's reply never shows the billing write counter
    expect(after).not.toHaveProperty('billingsVersion');
  });

  it('edits without a version at once are each applied (a lost race is made again on the new record)', async () => {
    const p = seed.patients.filter((x) => x.accountIds.includes(A.id))[1];
    const url = `/portal/api/v1/patients/${p.id}`;
    const before = (await get(url, h.a)).json();
    const results = await Promise.all(
      [...Array(8)].map((_, i) =>
        sys.app.inject({ method: 'PUT', url, headers: h.a, payload: { mrn: `MRN-ANY-${i}` } }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    expect((await get(url, h.a)).json().version).toBe(before.version + 8);
  });

  it('a new sequence asked for at once hands out distinct numbers (concurrent first upserts)', async () => {
    const values = await Promise.all([...Array(20)].map(() => nextSequence(models, 'race-probe', 0)));
    expect([...values].sort((a, b) => a - b)).toEqual([...Array(20)].map((_, i) => i + 1));
  });

  it('parallel saves of one preference at the same version: exactly one wins, the others are 409', async () => {
    const put = (payload: unknown) =>
      sys.app.inject({
        method: 'PUT',
        url: '/portal/api/v1/userPreferences',
        headers: h.b,
        payload: payload as any,
      });
    expect((await put({ name: 'race', content: '{"n":0}' })).json().version).toBe(0);
    const results = await Promise.all(
      [...Array(8)].map((_, i) => put({ name: 'race', content: `{"n":${i + 1}}`, version: 0 })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
  });

  it('parallel hospital locations get distinct human ids', async () => {
    const results = await Promise.all(
      [...Array(5)].map((_, i) =>
        sys.app.inject({
          method: 'POST',
          url: '/portal/api/v1/hospitalLocations',
          headers: h.b,
          payload: { name: `Lakeside satellite ${i}`, accountId: B.id },
        }),
      ),
    );
    expect(results.every((r) => r.statusCode === 201)).toBe(true);
    expect(new Set(results.map((r) => r.json().hospitalLocationId)).size).toBe(5);
  });
});

describe('physicians', () => {
  it("the list never has SUSPENDED physicians and is scoped to the user's accounts", async () => {
    const res = (await get('/portal/api/v1/physicians', h.a)).json();
    expect(res.content.map((p: any) => p.name).sort()).toEqual([
      'David Okafor',
      'Elena Marquez',
      'Sofia Lindgren',
    ]);
    expect(res.content.every((p: any) => p.status !== 'SUSPENDED' && p.accountIds.includes(A.id))).toBe(true);
    const all = (await get('/portal/api/v1/physicians', h.admin)).json();
    expect(all.totalElements).toBe(5);
    expect(all.content.some((p: any) => p.status === 'SUSPENDED')).toBe(false);
  });

  it("GET by id of another account's physician is a 404; a suspended one of the own account is readable", async () => {
    const bDoc = seed.physicians.find((p) => p.accountIds.includes(B.id))!;
    expect((await get(`/portal/api/v1/physicians/${bDoc.id}`, h.a)).statusCode).toBe(404);
    expect((await get(`/portal/api/v1/physicians/${bDoc.id}`, h.b)).statusCode).toBe(200);
    const suspended = seed.physicians.find((p) => p.status === 'SUSPENDED')!;
    expect((await get(`/portal/api/v1/physicians/${suspended.id}`, h.a)).json().status).toBe('SUSPENDED');
  });

  it('filters id in(...), accountId and q, within the scope', async () => {
    const ids = seed.physicians.map((p) => p.id).join(',');
    const byIds = (await get(`/portal/api/v1/physicians?filter=${enc({ id: `in(${ids})` })}`, h.b)).json();
    expect(byIds.content.map((p: any) => p.name).sort()).toEqual(['Michael Brennan', 'Priya Raman']);
    expect(
      (await get(`/portal/api/v1/physicians?filter=${enc({ accountId: B.id })}`, h.a)).json().totalElements,
    ).toBe(0);
    const q = (await get(`/portal/api/v1/physicians?filter=${enc({ q: 'marq' })}`, h.a)).json();
    expect(q.content.map((p: any) => p.name)).toEqual(['Elena Marquez']);
    const npi = (
      await get(`/portal/api/v1/physicians?filter=${enc({ q: seed.physicians[1].userId })}`, h.a)
    ).json();
    expect(npi.content.map((p: any) => p.id)).toEqual([seed.physicians[1].id]);
  });

  it('an NPI user sees their own record', async () => {
    const own = await get(`/portal/api/v1/physicians/${seed.physicians[0].id}`, h.npi);
    expect(own.statusCode).toBe(200);
    expect(own.json().userId).toBe(seed.physicians[0].userId);
  });
});

describe('pathologists and payors', () => {
  it('pathologists filter by accountIds in(...) inside the scope', async () => {
    const res = (
      await get(`/portal/api/v1/pathologists?filter=${enc({ accountIds: `in(${A.id},${B.id})` })}`, h.a)
    ).json();
    expect(res.content.map((p: any) => p.name)).toEqual(['Dr. Samuel Lindqvist']);
    expect(
      (
        await get(`/portal/api/v1/pathologists?filter=${enc({ accountIds: `in(${A.id},${B.id})` })}`, h.admin)
      ).json().totalElements,
    ).toBe(2);
  });

  it('payors: 15 a page, q over name', async () => {
    const all = (await get('/portal/api/v1/payors?page=0', h.a)).json();
    expect(all.totalElements).toBe(10);
    const blue = (await get(`/portal/api/v1/payors?filter=${enc({ q: 'blue' })}`, h.a)).json();
    expect(blue.content.map((p: any) => p.payorId).sort()).toEqual(['00430', '00621']);
  });
});

describe('patients', () => {
  it("spec dialect: {content, totalElements}, 20 a page, scoped to the user's account", async () => {
    const res = await get('/portal/api/v1/patients?page=0', h.a);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.totalElements).toBe(5);
    expect(body.content.every((p: any) => p.accountIds.includes(A.id))).toBe(true);
    const page = (
      await get('/portal/api/v1/patients?page=1&size=2&sortValue=lastName&sortOrder=ASC', h.a)
    ).json();
    expect(page.content.map((p: any) => p.lastName)).toEqual(['Fitzgerald', 'Holloway']);
    // q over names, patient number and MRN; another account's MRN finds nothing
    expect(
      (await get(`/portal/api/v1/patients?filter=${enc({ q: 'holloway' })}`, h.a)).json().totalElements,
    ).toBe(1);
    expect(
      (await get(`/portal/api/v1/patients?filter=${enc({ q: 'POA-449' })}`, h.a)).json().totalElements,
    ).toBe(2);
    expect(
      (await get(`/portal/api/v1/patients?filter=${enc({ q: 'LCC-21' })}`, h.a)).json().totalElements,
    ).toBe(0);
    expect(
      (await get(`/portal/api/v1/patients?filter=${enc({ q: 'PAT-000101' })}`, h.a)).json().content[0].name,
    ).toBe('Margaret Holloway');
  });

  it('ra-data-simple-rest dialect: an array and a Content-Range header', async () => {
    const url = `/portal/api/v1/patients?range=${enc([0, 2])}&sort=${enc(['lastName', 'ASC'])}&filter=${enc({ accountIds: [B.id] })}`;
    const res = await get(url, h.admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-range']).toBe('patients 0-2/5');
    const rows = res.json();
    expect(Array.isArray(rows)).toBe(true);
    expect(rows.map((p: any) => p.lastName)).toEqual(['Delgado', 'Kowalski', 'Mensah']);
    expect(rows[0].id).toBeTruthy();
  });

  it("another account's patient is a 404; physicians see their own patients; patient users may not list", async () => {
    const bPatient = seed.patients.find((p) => p.accountIds.includes(B.id))!;
    expect((await get(`/portal/api/v1/patients/${bPatient.id}`, h.a)).statusCode).toBe(404);
    expect((await get(`/portal/api/v1/patients/${bPatient.id}`, h.b)).json().userId).toBe(bPatient.userId);
    const mine = (
      await get(`/portal/api/v1/patients?filter=${enc({ physicianId: seed.physicians[0].id })}`, h.npi)
    ).json();
    expect(mine.totalElements).toBe(3);
    expect((await get('/portal/api/v1/patients', h.patient)).statusCode).toBe(403);
  });
});

describe('NPI registry with the default NPI_REGISTRY_URL=local', () => {
  it('the lookup answers from the built-in stand-in, which also serves the registry contract itself', async () => {
    const res = await get('/portal/api/v1/npiRegistry?number=1548732969', h.a);
    expect(res.statusCode).toBe(200);
    expect(res.json().content.map((p: any) => [p.userId, p.name])).toEqual([['1548732969', 'Elena Marquez']]);
    const raw = await get(
      '/portal/api/v1/standIns/npiRegistry/api?version=2.1&enumeration_type=NPI-1&country_code=US&limit=20&first_name=elena',
    );
    expect(raw.statusCode).toBe(200);
    expect(raw.json().result_count).toBe(3);
    expect(raw.json().results[0]).toHaveProperty('basic.first_name', 'ELENA');
  });
});

describe('ICD-10 codes', () => {
  it('searches q over code, formattedCode and description; default page size 1000', async () => {
    const breast = (await get(`/dxs/api/v1/icddx?filter=${enc({ q: 'C50.9' })}`, h.a)).json();
    expect(breast.content.map((c: any) => c.formattedCode)).toEqual(['C50.911', 'C50.912', 'C50.919']);
    const prostate = (await get(`/dxs/api/v1/icddx?filter=${enc({ q: 'PROSTATE' })}`, h.a)).json();
    expect(prostate.content.map((c: any) => c.formattedCode)).toEqual(['C61', 'D07.5', 'Z15.03', 'Z85.46']);
    expect(prostate.content[0]).toEqual({
      id: expect.any(String),
      code: 'C61',
      formattedCode: 'C61',
      description: 'Malignant neoplasm of prostate',
    });
    expect((await get(`/dxs/api/v1/icddx?filter=${enc({ q: 'C50911' })}`, h.a)).json().totalElements).toBe(1);
    const all = (await get('/dxs/api/v1/icddx', h.a)).json();
    expect(all.totalElements).toBe(42);
    expect(all.content).toHaveLength(42);
  });

  it('fetches by formattedCode in(...)', async () => {
    const res = (
      await get(
        `/dxs/api/v1/icddx?filter=${enc({ formattedCode: 'in(C50.911, C61, Z08)' })}&page=0&size=1000`,
        h.a,
      )
    ).json();
    expect(res.totalElements).toBe(3);
    expect(res.content.map((c: any) => c.formattedCode).sort()).toEqual(['C50.911', 'C61', 'Z08']);
  });

  it('needs a signed-in user', async () => {
    expect((await get('/dxs/api/v1/icddx')).statusCode).toBe(401);
  });
});

describe('diagnosis types', () => {
  it('the root (default TISSUE) with its tissues as children', async () => {
    const res = await get('/dxs/api/v1/diagnosisTypes/code', h.a);
    expect(res.statusCode).toBe(200);
    const root = res.json();
    expect(root).toMatchObject({ code: 'TISSUE', level: 0, octDxBreadCrumb: '', childExists: true });
    expect(root.children.map((c: any) => c.code)).toEqual([
      'BOWEL',
      'BREAST',
      'LUNG',
      'MYELOID',
      'PROSTATE',
      'SKIN',
    ]);
    expect((await get('/dxs/api/v1/diagnosisTypes/code/TISSUE', h.a)).json().children).toHaveLength(6);
  });

  it('a node by code with children and its breadcrumb', async () => {
    const brca = (await get('/dxs/api/v1/diagnosisTypes/code/BRCA', h.a)).json();
    expect(brca.octDxBreadCrumb).toBe('Breast (BREAST) -> Invasive Breast Carcinoma (BRCA)');
    expect(brca.children.map((c: any) => c.code)).toEqual(['BRCNOS', 'IDC', 'ILC']);
    expect(brca.children[1]).toMatchObject({
      code: 'IDC',
      name: 'Breast Invasive Ductal Carcinoma',
      childExists: false,
    });
    const idc = (await get('/dxs/api/v1/diagnosisTypes/code/IDC', h.a)).json();
    expect(idc).toMatchObject({
      parentCode: 'BRCA',
      children: [],
      octDxBreadCrumb:
        'Breast (BREAST) -> Invasive Breast Carcinoma (BRCA) -> Breast Invasive Ductal Carcinoma (IDC)',
    });
    const mds = await get(`/dxs/api/v1/diagnosisTypes/code/${encodeURIComponent('MDS/MPN')}`, h.a);
    expect(mds.statusCode).toBe(200);
    expect(mds.json().children.map((c: any) => c.code)).toEqual(['CMML']);
    expect((await get('/dxs/api/v1/diagnosisTypes/code/NOPE', h.a)).statusCode).toBe(404);
  });

  it('search drops the tissue-level nodes and pages by 30', async () => {
    const lung = (
      await get(`/dxs/api/v1/diagnosisTypes?filter=${enc({ q: 'lung' })}&page=0&size=30`, h.a)
    ).json();
    const codes = lung.content.map((c: any) => c.code);
    expect(codes).toContain('NSCLC');
    expect(codes).toContain('LUAD');
    expect(codes).not.toContain('LUNG');
    expect(lung.content.every((c: any) => c.path !== c.tissue && c.level >= 2)).toBe(true);
    const luad = lung.content.find((c: any) => c.code === 'LUAD');
    expect(luad.octDxBreadCrumb).toBe(
      'Lung (LUNG) -> Non-Small Cell Lung Cancer (NSCLC) -> Lung Adenocarcinoma (LUAD)',
    );
    const all = (await get('/dxs/api/v1/diagnosisTypes', h.a)).json();
    expect(all.totalElements).toBe(33 - 7);
    expect(all.content).toHaveLength(26);
  });
});

describe('release notes and user preferences', () => {
  it('release notes: newest first, the nested shape', async () => {
    expect((await get('/portal/api/v1/releaseNotes')).statusCode).toBe(401);
    const res = (await get('/portal/api/v1/releaseNotes', h.patient)).json();
    expect(res.totalElements).toBe(1);
    const note = res.content[0];
    expect(note).toMatchObject({
      majorRevision: 1,
      minorRevision: 0,
      patchRevision: 0,
      name: 'Clinical Portal 1.0',
    });
    expect(note.featureNoteVOs[0].featureNoteItemVOs[0].subFeatureNoteItemVOs[0].title).toBe(
      'Drafts are saved at every step',
    );
  });

  it('user preferences: save, read back, stale version is a 409, other users do not see them', async () => {
    const put = (payload: unknown, headers = h.a) =>
      sys.app.inject({
        method: 'PUT',
        url: '/portal/api/v1/userPreferences',
        headers,
        payload: payload as any,
      });
    const first = await put({
      name: 'jobs',
      content: { toggleFilter: true, listFilters: { status: ['NEW'] } },
    });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ name: 'jobs', version: 0 });
    expect(JSON.parse(first.json().content)).toEqual({
      toggleFilter: true,
      listFilters: { status: ['NEW'] },
    });
    const second = await put({ name: 'jobs', content: '{"toggleFilter":false}', version: 0 });
    expect(second.json()).toMatchObject({ version: 1, content: '{"toggleFilter":false}' });
    expect((await put({ name: 'jobs', content: '{}', version: 0 })).statusCode).toBe(409);
    expect((await put({ name: 'jobs', content: 'not json' })).statusCode).toBe(400);
    const mine = (await get(`/portal/api/v1/userPreferences?filter=${enc({ name: 'jobs' })}`, h.a)).json();
    expect(mine.content).toHaveLength(1);
    expect(mine.content[0].content).toBe('{"toggleFilter":false}');
    expect(
      (await get(`/portal/api/v1/userPreferences?filter=${enc({ name: 'jobs' })}`, h.b)).json().totalElements,
    ).toBe(0);
  });
});
