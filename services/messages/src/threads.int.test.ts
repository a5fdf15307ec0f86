import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditEntriesSince,
  createUser,
  sharedTestSystem,
  signIn,
  type Auth,
  type TestSystem,
} from '@onco/testing';
import { MESSAGE_SENT } from './routes/threads';
import { referenceModels } from '@onco/reference';
import { messagesModels } from './models';

const CNS = '/cns/api/v1/messages';

/**
 * Message threads (spec 2 sections 2.11, 7 "Messages"; issue 15) on the real store: a provider writes to client
 * services from an order, client services open it (read) and answer (new again for the provider), only the parties
 * and client services read a thread, bad input changes nothing.
 */
describe('messages: threads, replies and read state (real store)', () => {
  let sys: TestSystem;
  const h: Record<string, Auth> = {};
  let threadId = '';

  const call = (who: string, method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: unknown) =>
    sys.app.inject({
      method,
      url,
      headers: h[who],
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  const unread = async (who: string) =>
    (await call(who, 'GET', `${CNS}/communicationCount`)).json().unreadMessages;

  beforeAll(async () => {
    sys = await sharedTestSystem();
    const users = {
      npi: await createUser(sys, 'ROLE_NPI', { account: { id: 'acc-A', name: 'Alpha' } }),
      colleague: await createUser(sys, 'ROLE_NON_NPI', { account: { id: 'acc-A', name: 'Alpha' } }),
      other: await createUser(sys, 'ROLE_NPI', { account: { id: 'acc-B', name: 'Beta' } }),
      services: await createUser(sys, 'ROLE_ADMINISTRATOR'),
    };
    // the service's copy of two submitted orders' scope (as its requisition-submitted consumer writes it)
    await messagesModels(sys.ctx.mongo).RequisitionScope.create([
      {
        _id: 'tof-1',
        testRequisitionId: 'TRF-000001',
        accountId: 'acc-A',
        physicianId: 'phy-A',
        patientId: 'pat-1',
        submittedOn: new Date(),
      },
      {
        _id: 'tof-B',
        testRequisitionId: 'TRF-000002',
        accountId: 'acc-B',
        physicianId: 'phy-B',
        patientId: 'pat-2',
        submittedOn: new Date(),
      },
    ]);
    // the patients (the reference service's registry): pat-1 is Alpha's, pat-2 Beta's
    await referenceModels(sys.ctx.mongo).Patient.create([
      {
        _id: 'pat-1',
        userId: 'PAT-MSG-1',
        firstName: 'Ada',
        lastName: 'Lovelace',
        name: 'Ada Lovelace',
        accountIds: ['acc-A'],
      },
      {
        _id: 'pat-2',
        userId: 'PAT-MSG-2',
        firstName: 'Alan',
        lastName: 'Turing',
        name: 'Alan Turing',
        accountIds: ['acc-B'],
      },
    ]);
    Object.assign(h, await signIn(sys, users));
  }, 120_000);
  afterAll(async () => {
    await sys?.close();
  });

  it('a provider writes to client services from an order; it is new for client services', async () => {
    const res = await call('npi', 'POST', CNS, {
      subject: 'Sample shipped late',
      messageBody: 'The tube left on Friday.',
      type: 'CASE',
      isParent: true,
      testOrderForm: { id: 'tof-1', testRequisitionId: 'TRF-000001' },
      patient: { id: 'pat-1', name: 'Ada Lovelace' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const m = res.json();
    threadId = m.id;
    expect(m).toMatchObject({
      message: MESSAGE_SENT,
      isParent: true,
      type: 'CASE',
      // read for its writer, new for client services
      new: false,
      read: true,
      account: { id: 'acc-A' },
      testOrderForm: { testRequisitionId: 'TRF-000001' },
    });
    const list = (
      await call('services', 'GET', `${CNS}?filter=${encodeURIComponent('{"isParent":true}')}`)
    ).json();
    expect(list.content.find((x: { id: string }) => x.id === threadId)).toMatchObject({ new: true });
    expect(await unread('services')).toBeGreaterThanOrEqual(1);
  });

  it("the messages list and a thread are audit reads naming the threads' patients; never their text", async () => {
    const since = new Date();
    const list = await call('services', 'GET', `${CNS}?filter=${encodeURIComponent('{"isParent":true}')}`);
    expect(list.statusCode).toBe(200);
    const rows = list.json().content as Array<{ patient?: { id?: string } }>;
    expect((await call('services', 'GET', `${CNS}/${threadId}`)).statusCode).toBe(200);
    const entries = await auditEntriesSince(sys.ctx.mongo, since);
    expect(entries.map((e) => [e.what.type, e.what.id, e.route])).toEqual([
      ['message', null, `GET ${CNS}`],
      ['message', threadId, `GET ${CNS}/:id`],
    ]);
    expect([...(entries[0].what.patientIds ?? [])].sort()).toEqual(
      [...new Set(rows.map((r) => r.patient?.id).filter(Boolean))].sort(),
    );
    expect(entries[0].what.patientIds).toContain('pat-1');
    expect(entries[1]).toMatchObject({ what: { patientId: 'pat-1' }, onBehalfOf: ['acc-A'] });
    expect(JSON.stringify(entries)).not.toContain('The tube left on Friday.');
  });

  it('a new message may name only a patient and an order the writer may read (404 otherwise, nothing stored)', async () => {
    const count = async () => await messagesModels(sys.ctx.mongo).Message.countDocuments({});
    const before = await count();
    const write = (extra: Record<string, unknown>) =>
      call('npi', 'POST', CNS, {
        subject: 'About a patient',
        messageBody: 'Hello',
        type: 'CASE',
        isParent: true,
        ...extra,
      });
    const otherPatient = await write({ patient: { id: 'pat-2', name: 'Alan Turing' } });
    expect(otherPatient.statusCode).toBe(404);
    expect(otherPatient.json().message).toBe('The patient of this message was not found.');
    expect((await write({ patient: { id: 'no-such-patient' } })).statusCode).toBe(404);
    const otherOrder = await write({ testOrderForm: { id: 'tof-B' } });
    expect(otherOrder.statusCode).toBe(404);
    expect(otherOrder.json().message).toBe('The order of this message was not found.');
    expect(await count()).toBe(before);
    // the patient's name is the registry's, not the request's
    const mine = await write({ patient: { id: 'pat-1', name: 'Someone Else' } });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().patient).toEqual({ id: 'pat-1', name: 'Ada Lovelace' });
  });

  it("the patient search: at least 2 characters, only the user's patients", async () => {
    const pick = (who: string, text: string) =>
      call(who, 'GET', `/portal/api/v1/patients/picker?text=${encodeURIComponent(text)}`);
    expect((await pick('npi', 'a')).statusCode).toBe(400);
    const found = (await pick('npi', 'lo')).json().content;
    expect(found.map((p: { id: string }) => p.id)).toEqual(['pat-1']);
    expect((await pick('npi', 'Turing')).json().content).toEqual([]);
    expect((await pick('other', 'Turing')).json().content.map((p: { id: string }) => p.id)).toEqual([
      'pat-2',
    ]);
  });

  it('the writer opening their own thread leaves it new; client services opening it marks it read', async () => {
    // for its writer the thread is read; it stays new for client services
    expect((await call('npi', 'PATCH', `${CNS}/${threadId}`)).json()).toMatchObject({
      read: true,
      new: false,
    });
    const newOf = async (who: string) =>
      (await call(who, 'GET', `${CNS}?filter=${encodeURIComponent('{"isParent":true,"read":false}')}`))
        .json()
        .content.map((x: { id: string }) => x.id);
    expect(await newOf('services')).toContain(threadId);
    expect(await newOf('npi')).not.toContain(threadId);
    const opened = await call('services', 'PATCH', `${CNS}/${threadId}`);
    expect(opened.statusCode).toBe(200);
    expect(opened.json()).toMatchObject({ read: true, new: false });
    expect(await newOf('services')).not.toContain(threadId);
    expect(await unread('npi')).toBe(0);
  });

  it('a reply joins the thread and makes it new again for the other side', async () => {
    const before = (await call('npi', 'GET', `${CNS}/${threadId}`)).json();
    const reply = await call('services', 'POST', CNS, {
      type: 'CASE_COMMENT',
      isParent: false,
      parent: { id: threadId },
      messageBody: 'Thanks, we will look for it.',
    });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.json()).toMatchObject({
      isParent: false,
      subject: 'RE: Sample shipped late',
      parent: { id: threadId },
    });
    const thread = (await call('npi', 'GET', `${CNS}/${threadId}`)).json();
    expect(thread.messageThreads.map((m: { messageBody: string }) => m.messageBody)).toEqual([
      'Thanks, we will look for it.',
    ]);
    expect(thread).toMatchObject({ new: true, read: false });
    expect(+new Date(thread.lastMessageCreatedOn)).toBeGreaterThan(+new Date(before.lastMessageCreatedOn));
    expect(await unread('npi')).toBe(1);
    // the colleague of the account reads it too; the provider opening it marks it read
    expect((await call('colleague', 'GET', `${CNS}/${threadId}`)).statusCode).toBe(200);
    expect((await call('npi', 'PATCH', `${CNS}/${threadId}`)).json()).toMatchObject({ read: true });
    // replies are not threads of their own
    const replyId = reply.json().id;
    expect((await call('npi', 'GET', `${CNS}/${replyId}`)).statusCode).toBe(404);
  });

  it('only the parties and client services read a thread: 404 for anyone else, nothing changes', async () => {
    expect((await call('other', 'GET', `${CNS}/${threadId}`)).statusCode).toBe(404);
    expect((await call('other', 'PATCH', `${CNS}/${threadId}`)).statusCode).toBe(404);
    expect((await call('other', 'PUT', `${CNS}/${threadId}/addReader`)).statusCode).toBe(404);
    const sneaky = await call('other', 'POST', CNS, {
      type: 'CASE_COMMENT',
      parent: { id: threadId },
      messageBody: 'hi',
    });
    expect(sneaky.statusCode).toBe(404);
    const thread = (await call('npi', 'GET', `${CNS}/${threadId}`)).json();
    expect(thread.messageThreads).toHaveLength(1);
    // writing for another clinic's account is refused
    expect(
      (await call('npi', 'POST', CNS, { subject: 's', messageBody: 'b', account: { id: 'acc-B' } }))
        .statusCode,
    ).toBe(403);
  });

  it('a message about an order belongs to the order’s account; an order one may not see is a 404', async () => {
    const fromServices = await call('services', 'POST', CNS, {
      subject: 'Your order needs a signature',
      messageBody: 'Please sign the form.',
      testOrderForm: { id: 'tof-1', testRequisitionId: 'TRF-000001' },
    });
    expect(fromServices.statusCode, fromServices.body).toBe(200);
    expect(fromServices.json().account).toMatchObject({ id: 'acc-A' });
    // the account's users read it, and it is new for them
    expect((await call('colleague', 'GET', `${CNS}/${fromServices.json().id}`)).json()).toMatchObject({
      new: true,
    });
    const foreign = await call('npi', 'POST', CNS, {
      subject: 'x',
      messageBody: 'y',
      testOrderForm: { id: 'tof-B' },
    });
    expect(foreign.statusCode).toBe(404);
    expect(
      (await call('npi', 'POST', CNS, { subject: 'x', messageBody: 'y', testOrderForm: { id: 'nope' } }))
        .statusCode,
    ).toBe(404);
  });

  it('refuses a message without subject or text, or too long, and stores nothing', async () => {
    const count = async () =>
      (await call('services', 'GET', `${CNS}?filter=${encodeURIComponent('{"isParent":true}')}`)).json()
        .totalElements;
    const n = await count();
    const empty = await call('npi', 'POST', CNS, { subject: ' ', messageBody: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().details.fields).toEqual({
      subject: 'Subject is required',
      messageBody: 'Message is required',
    });
    // a message and a reply hold at most 512 characters (spec 2 sections 5 and 9)
    expect((await call('npi', 'POST', CNS, { subject: 'x', messageBody: 'y'.repeat(513) })).statusCode).toBe(
      400,
    );
    expect(
      (
        await call('npi', 'POST', CNS, {
          type: 'CASE_COMMENT',
          parent: { id: threadId },
          messageBody: 'y'.repeat(513),
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (await call('npi', 'POST', CNS, { type: 'CASE_COMMENT', parent: { id: threadId }, messageBody: ' ' }))
        .statusCode,
    ).toBe(400);
    expect(await count()).toBe(n);
  });
  it('a message of exactly 512 characters is taken whole', async () => {
    const res = await call('npi', 'POST', CNS, { subject: 'Long', messageBody: 'z'.repeat(512) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().messageBody).toHaveLength(512);
  });
});
