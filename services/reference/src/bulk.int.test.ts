import { describe, expect, it } from 'vitest';
import { BULK_MAX_ROWS } from '@onco/platform';
import { user, useTestSystem } from '@onco/testing';
import { referenceModels, type ReferenceModels } from './models';
import { createReferenceModule } from './index';
import type { SeedResult } from './seed';

/**
 * Bulk create (POST {resource}/bulk) and bulk update (PUT {resource}/bulk) of the generic reference resources
 * (spec 3 section 7.4; docs/decisions.md "Bulk create and update"), through the API against the real store: all
 * or nothing, each row checked as the single call checks it, every failing row named by its index.
 */
let models: ReferenceModels;
let seed: SeedResult;
let A: { id: string; name: string };
let B: { id: string; name: string };
const { sys, call } = useTestSystem({
  prepare: async () => {
    models = referenceModels(sys.ctx.mongo);
    seed = await createReferenceModule(sys.ctx).seedReference({ referenceData: 'fixtures' });
    [A, B] = seed.accounts;
  },
  /** staff of account A (CAN_CREATE_HOSPITALLOCATION, provider edits), a portal admin (every account), an observer */
  users: {
    a: () => user('ROLE_NON_NPI', { account: A }),
    admin: 'ROLE_PORTAL_ADMIN',
    observer: () => user('ROLE_OBSERVER', { account: A }),
  },
});

const P = '/portal/api/v1';
const locations = () => models.HospitalLocation.countDocuments({});
const location = (name: string, account = A.id) => ({
  name,
  account: { id: account },
  address: { city: 'Tacoma', state: 'WA', telephone: '(253) 555-0100' },
});

describe('bulk create (POST hospitalLocations/bulk)', () => {
  it('creates every row in one call, numbered in request order, and answers them in that order', async () => {
    const before = await locations();
    const rows = ['Bulk North', 'Bulk South', 'Bulk East'].map((n) => location(n));
    const res = await call('POST', `${P}/hospitalLocations/bulk`, 'a', rows);
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created.map((r: any) => r.name)).toEqual(['Bulk North', 'Bulk South', 'Bulk East']);
    expect(created[0]).toMatchObject({
      account: { id: A.id, name: A.name },
      address: { city: 'Tacoma', telephone: '2535550100' },
      version: 0,
    });
    const numbers = created.map((r: any) => Number(r.hospitalLocationId.slice(3)));
    expect(numbers).toEqual([numbers[0], numbers[0] + 1, numbers[0] + 2]);
    expect(await locations()).toBe(before + 3);
    for (const r of created) {
      const read = await call('GET', `${P}/hospitalLocations/${r.id}`, 'a');
      expect(read.json()).toMatchObject({ id: r.id, name: r.name, hospitalLocationId: r.hospitalLocationId });
    }
  });

  it('one bad row: 400 naming its index and fields, nothing written', async () => {
    const before = await locations();
    const rows = [
      location('Fine One'),
      { ...location('Bad Phone'), address: { telephone: '12' } },
      location(''),
    ];
    const res = await call('POST', `${P}/hospitalLocations/bulk`, 'a', rows);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.message).toBe('2 of 3 rows were refused (index 1, 2); nothing was saved.');
    expect(body.details.rows).toEqual([
      {
        index: 1,
        status: 400,
        code: 'BAD_REQUEST',
        message: expect.stringContaining('Invalid Telephone'),
        fields: { 'address.telephone': 'Invalid Telephone' },
      },
      expect.objectContaining({ index: 2, status: 400, fields: { name: expect.any(String) } }),
    ]);
    expect(await locations()).toBe(before);
    expect(await models.HospitalLocation.countDocuments({ name: 'Fine One' })).toBe(0);
  });

  it("a row for an account outside the user's scope is refused as the single call refuses it (403), nothing written", async () => {
    const before = await locations();
    const single = await call('POST', `${P}/hospitalLocations`, 'a', location('Elsewhere', B.id));
    expect(single.statusCode).toBe(403);
    const res = await call('POST', `${P}/hospitalLocations/bulk`, 'a', [
      location('Mine'),
      location('Elsewhere', B.id),
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json().details.rows).toEqual([
      { index: 1, status: 403, code: 'FORBIDDEN', message: single.json().message },
    ]);
    expect(await locations()).toBe(before);
  });

  it('a write failing midway (a clashing number) leaves nothing written: one transaction', async () => {
    const before = await locations();
    // the number the second row will get is already taken (the unique index refuses it during the write)
    const counter = await models.Counter.findById('hospitalLocation').lean().exec();
    const taken = `HL-${1000 + (counter?.seq ?? 0) + 2}`;
    await models.HospitalLocation.create({ ...location('Squatter'), account: A, hospitalLocationId: taken });
    const res = await call('POST', `${P}/hospitalLocations/bulk`, 'a', [
      location('Midway 1'),
      location('Midway 2'),
      location('Midway 3'),
    ]);
    expect(res.statusCode).toBe(500);
    expect(await locations()).toBe(before + 1);
    expect(await models.HospitalLocation.countDocuments({ name: /^Midway/ })).toBe(0);
  });
});

describe('bulk update (PUT {resource}/bulk)', () => {
  it('physicians: every row changed and its version up by one, answered in request order', async () => {
    const [p1, p2] = seed.physicians.filter((p) => p.accountIds.includes(A.id));
    const v1 = (await call('GET', `${P}/physicians/${p1.id}`, 'a')).json().version;
    const res = await call('PUT', `${P}/physicians/bulk`, 'a', [
      { id: p2.id, phone: '(206) 555-0199' },
      { id: p1.id, version: v1, middleName: 'Q' },
    ]);
    expect(res.statusCode).toBe(200);
    const [r2, r1] = res.json();
    expect(r2).toMatchObject({ id: p2.id, phone: '2065550199' });
    expect(r1).toMatchObject({ id: p1.id, middleName: 'Q', version: v1 + 1 });
    const read = (await call('GET', `${P}/physicians/${p1.id}`, 'a')).json();
    expect(read).toMatchObject({ middleName: 'Q', version: v1 + 1 });
    expect((await call('GET', `${P}/physicians/${p2.id}`, 'a')).json().phone).toBe('2065550199');
  });

  it("hospital locations: a row outside the user's scope is a 404 row, and the rows in scope are not written", async () => {
    const mine = seed.hospitalLocations.find((l) => l.accountId === A.id)!;
    const theirs = seed.hospitalLocations.find((l) => l.accountId === B.id)!;
    const before = (await call('GET', `${P}/hospitalLocations/${mine.id}`, 'a')).json();
    const res = await call('PUT', `${P}/hospitalLocations/bulk`, 'a', [
      { id: mine.id, name: 'Renamed in bulk' },
      { id: theirs.id, name: 'Not mine' },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json().details.rows).toEqual([
      { index: 1, status: 404, code: 'NOT_FOUND', message: 'The requested record was not found.' },
    ]);
    const after = (await call('GET', `${P}/hospitalLocations/${mine.id}`, 'a')).json();
    expect(after).toMatchObject({ name: before.name, version: before.version });
    expect((await models.HospitalLocation.findById(theirs.id).lean().exec())?.name).not.toBe('Not mine');
  });

  it('a stale version fails the batch with a 409 naming the row; nothing written', async () => {
    const [p1, p2] = seed.physicians.filter((p) => p.accountIds.includes(A.id));
    const v1 = (await call('GET', `${P}/physicians/${p1.id}`, 'a')).json().version;
    const v2 = (await call('GET', `${P}/physicians/${p2.id}`, 'a')).json().version;
    const res = await call('PUT', `${P}/physicians/bulk`, 'a', [
      { id: p1.id, version: v1, fax: '2065550111' },
      { id: p2.id, version: v2 - 1, fax: '2065550112' },
    ]);
    expect(res.statusCode).toBe(409);
    expect(res.json().details.rows).toEqual([
      expect.objectContaining({ index: 1, status: 409, code: 'CONFLICT' }),
    ]);
    expect(res.json().message).toMatch(/index 1/);
    expect((await call('GET', `${P}/physicians/${p1.id}`, 'a')).json()).toMatchObject({ version: v1 });
  });

  it('accounts (admin): several renamed at once; the same record twice and a bad row are refused by index', async () => {
    const res = await call('PUT', `${P}/accounts/bulk`, 'admin', [
      { id: A.id, name: `${A.name} (bulk)` },
      { id: B.id, name: `${B.name} (bulk)` },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json().map((r: any) => r.name)).toEqual([`${A.name} (bulk)`, `${B.name} (bulk)`]);
    const refused = await call('PUT', `${P}/accounts/bulk`, 'admin', [
      { id: A.id, name: 'Once' },
      { id: A.id, name: 'Twice' },
      { id: B.id, name: '   ' },
      { name: 'No id' },
    ]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().details.rows).toEqual([
      expect.objectContaining({ index: 1, message: 'The same record as the row at index 0' }),
      expect.objectContaining({ index: 2, fields: { name: expect.any(String) } }),
      expect.objectContaining({ index: 3, fields: { id: expect.any(String) } }),
    ]);
    const read = (await call('GET', `${P}/accounts/${A.id}`, 'admin')).json();
    expect(read.name).toBe(`${A.name} (bulk)`);
  });
});

describe('the batch itself', () => {
  it('a user without the permission: 403 on both, nothing written', async () => {
    const before = await locations();
    const loc = seed.hospitalLocations.find((l) => l.accountId === A.id)!;
    const post = await call('POST', `${P}/hospitalLocations/bulk`, 'observer', [location('Observed')]);
    const put = await call('PUT', `${P}/hospitalLocations/bulk`, 'observer', [{ id: loc.id, name: 'x' }]);
    const accounts = await call('PUT', `${P}/accounts/bulk`, 'a', [{ id: A.id, name: 'x' }]);
    expect([post.statusCode, put.statusCode, accounts.statusCode]).toEqual([403, 403, 403]);
    expect(await locations()).toBe(before);
  });

  it(`at most ${BULK_MAX_ROWS} rows, at least one, and an array`, async () => {
    const before = await locations();
    const tooMany = await call(
      'POST',
      `${P}/hospitalLocations/bulk`,
      'a',
      Array.from({ length: BULK_MAX_ROWS + 1 }, (_, i) => location(`Many ${i}`)),
    );
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toBe(
      `Too many rows: ${BULK_MAX_ROWS + 1}; a bulk call takes at most ${BULK_MAX_ROWS} rows`,
    );
    expect(tooMany.json().details).toMatchObject({ limit: BULK_MAX_ROWS, count: BULK_MAX_ROWS + 1 });
    const empty = await call('PUT', `${P}/physicians/bulk`, 'a', []);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(`Invalid body: no rows; a bulk call takes 1 to ${BULK_MAX_ROWS} rows`);
    const notArray = await call('POST', `${P}/hospitalLocations/bulk`, 'a', location('Alone'));
    expect(notArray.statusCode).toBe(400);
    expect(notArray.json().message).toBe('Invalid body: expected an array of rows');
    expect(await locations()).toBe(before);
  });

  it(`${BULK_MAX_ROWS} rows (the cap) are created in one call`, async () => {
    const before = await locations();
    const res = await call(
      'POST',
      `${P}/hospitalLocations/bulk`,
      'a',
      Array.from({ length: BULK_MAX_ROWS }, (_, i) => location(`Cap ${i}`)),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toHaveLength(BULK_MAX_ROWS);
    expect(res.json()[BULK_MAX_ROWS - 1].name).toBe(`Cap ${BULK_MAX_ROWS - 1}`);
    expect(await locations()).toBe(before + BULK_MAX_ROWS);
  });

  it('the API document has each bulk route with its rows (1 to the cap) and its replies', async () => {
    const doc = (await sys.app.inject({ url: '/docs/json' })).json();
    for (const [path, method, status] of [
      ['/portal/api/v1/hospitalLocations/bulk', 'post', '201'],
      ['/portal/api/v1/hospitalLocations/bulk', 'put', '200'],
      ['/portal/api/v1/accounts/bulk', 'put', '200'],
      ['/portal/api/v1/physicians/bulk', 'put', '200'],
      ['/portal/api/v1/pathologists/bulk', 'put', '200'],
      ['/portal/api/v1/patients/bulk', 'put', '200'],
    ] as const) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      const body = op.requestBody.content['application/json'].schema;
      expect(body).toMatchObject({ type: 'array', minItems: 1, maxItems: BULK_MAX_ROWS });
      expect(op.responses[status].content['application/json'].schema.type).toBe('array');
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['400', '403', '409']));
    }
    const post = doc.paths['/portal/api/v1/hospitalLocations/bulk'].post;
    expect(JSON.stringify(post.requestBody.content['application/json'].schema.items)).toContain('telephone');
  });
});
