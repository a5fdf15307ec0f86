import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceModels } from '@onco/reference';
import { authOf, createUser, sharedTestSystem, type Auth, type TestSystem } from '@onco/testing';
import { messagesModels, type MessagesModels } from '../models';

const KITS = '/portal/api/v1/kits';

const form = (over: Record<string, unknown> = {}) => ({
  testKitType: 'STRECK',
  numberOfKits: 5,
  recipient: 'Dr. Ada Lovelace',
  institute: 'Harbor Oncology',
  street: '1 Harbor Dr',
  suite: 'Suite 200',
  city: 'San Diego',
  state: 'CA',
  postalCode: '92101-1234',
  shippingRequest: 'TWO_DAY',
  ...over,
});

/**
 * Test kit requests (spec 2 sections 2.10, 5, 7 "Kits", 8; issue 15) on the real store: the form's rules enforced
 * by the server, the account scope, the request and its message to client services written together, the list
 * scoped by creator and account, 15 a page newest first.
 */
describe('kits: POST and GET /portal/api/v1/kits (real store)', () => {
  let sys: TestSystem;
  let models: MessagesModels;
  const h: Record<string, Auth> = {};
  const ids: Record<string, string> = {};

  const post = (who: string, body: unknown) =>
    sys.app.inject({ method: 'POST', url: KITS, headers: h[who], payload: body as object });
  const list = (who: string, query = '') =>
    sys.app.inject({ method: 'GET', url: `${KITS}${query}`, headers: h[who] });

  beforeAll(async () => {
    sys = await sharedTestSystem();
    models = messagesModels(sys.ctx.mongo);
    await referenceModels(sys.ctx.mongo).Account.create([
      { _id: 'acc-A', accountId: 'A-100', name: 'Alpha Oncology' },
      { _id: 'acc-B', accountId: 'B-200', name: 'Beta Clinic' },
    ]);
    const users = {
      npi: await createUser(sys, 'ROLE_NPI', { account: { id: 'acc-A', name: 'Alpha Oncology' } }),
      colleague: await createUser(sys, 'ROLE_NON_NPI', { account: { id: 'acc-A', name: 'Alpha Oncology' } }),
      other: await createUser(sys, 'ROLE_NPI', { account: { id: 'acc-B', name: 'Beta Clinic' } }),
      pathologist: await createUser(sys, 'ROLE_PATHOLOGIST', { account: { id: 'acc-A', name: 'Alpha' } }),
      admin: await createUser(sys, 'ROLE_ADMINISTRATOR'),
    };
    for (const [k, u] of Object.entries(users)) {
      ids[k] = u._id;
      h[k] = await authOf(sys, u);
    }
  }, 120_000);
  afterAll(async () => {
    await sys?.close();
  });

  it('stores a request for the caller’s account and tells client services in the same write', async () => {
    const res = await post('npi', form());
    expect(res.statusCode, res.body).toBe(200);
    const kit = res.json();
    expect(kit).toMatchObject({
      message: 'Your Kit Request Has Been Received.',
      testKitType: 'STRECK',
      numberOfKits: 5,
      postalCode: '92101-1234',
      account: { id: 'acc-A', name: 'Alpha Oncology' },
      createdBy: ids.npi,
    });
    const stored = await models.KitRequest.findById(kit.id).lean().exec();
    expect(stored).toMatchObject({
      recipient: 'Dr. Ada Lovelace',
      shippingRequest: 'TWO_DAY',
      deleted: false,
    });
    const note = await models.Message.findOne({ messageBody: { $regex: kit.id } })
      .lean()
      .exec();
    expect(note).toMatchObject({
      subject: 'Kit request: 5 × Streck cfDNA blood kit (plasma, monitoring)',
      type: 'CASE',
      isParent: true,
      activityType: 'KIT_REQUEST',
      owner: { id: ids.npi },
      account: { id: 'acc-A', name: 'Alpha Oncology' },
    });
    expect(note!.messageBody).toContain('1 Harbor Dr, Suite 200, San Diego, CA 92101-1234');
    // the requester sees it in their messages, where client services answer
    const inbox = await sys.app.inject({ method: 'GET', url: '/cns/api/v1/messages', headers: h.npi });
    expect(inbox.json().content.map((m: { id: string }) => m.id)).toContain(note!._id);
  });

  it('refuses a form that breaks the rules with every problem, and stores nothing', async () => {
    const kits = await models.KitRequest.countDocuments().exec();
    const notes = await models.Message.countDocuments().exec();
    const res = await post(
      'npi',
      form({ numberOfKits: 1001, city: 'San Diego 2', state: 'XX', postalCode: '9210', recipient: ' ' }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().details.fields).toEqual({
      recipient: 'This field is required',
      numberOfKits: 'Enter a whole number from 1 to 1000',
      city: 'City may contain letters, hyphens, periods and spaces only',
      state: 'Choose a state from the list',
      postalCode: 'Enter a ZIP code as 12345 or 12345-6789',
    });
    for (const bad of [
      { numberOfKits: 0 },
      { numberOfKits: '2.5' },
      { testKitType: 'SALIVA' },
      { shippingRequest: null },
    ])
      expect((await post('npi', form(bad))).statusCode).toBe(400);
    expect(await models.KitRequest.countDocuments().exec()).toBe(kits);
    expect(await models.Message.countDocuments().exec()).toBe(notes);
  });

  it('enforces the account and the permission on the server', async () => {
    // an account that is not the caller's
    expect((await post('npi', form({ account: { id: 'acc-B' } }))).statusCode).toBe(403);
    // staff with every account must say which
    const noAccount = await post('admin', form());
    expect(noAccount.statusCode).toBe(400);
    expect(noAccount.json().details.fields).toMatchObject({ account: 'This field is required' });
    expect((await post('admin', form({ account: { id: 'acc-B' } }))).statusCode).toBe(200);
    // without VIEW_KITS_ACTIONS (the form is not shown, and the server refuses it too)
    expect((await post('pathologist', form())).statusCode).toBe(403);
  });

  it('lists by creator and account, newest first, 15 a page', async () => {
    for (let i = 0; i < 16; i++)
      expect((await post('colleague', form({ numberOfKits: i + 1, testKitType: 'EDTA' }))).statusCode).toBe(
        200,
      );
    const mine = (await list('colleague')).json();
    // the colleague sees the account's requests (theirs and the npi's), not acc-B's
    expect(mine.totalElements).toBe(17);
    expect(mine.content).toHaveLength(15);
    expect(mine.content[0]).toMatchObject({ numberOfKits: 16, testKitType: 'EDTA' });
    const times = mine.content.map((k: { createdOn: string }) => +new Date(k.createdOn));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    // the console's filter: the caller's own requests
    const own = (
      await list('npi', `?filter=${encodeURIComponent(JSON.stringify({ createdBy: ids.npi }))}`)
    ).json();
    expect(own.totalElements).toBe(1);
    // another clinic sees none of acc-A's, only the request staff made for it; staff see all
    const other = (await list('other')).json();
    expect(other.content.map((k: { account: { id: string } }) => k.account.id)).toEqual(['acc-B']);
    expect((await list('admin')).json().totalElements).toBe(18);
  });
});
