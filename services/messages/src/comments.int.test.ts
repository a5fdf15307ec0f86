import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Producer } from 'kafkajs';
import { createEvent, topicFor } from '@onco/events';
import type { App } from '@onco/platform';
import {
  auditEntriesSince,
  authOf,
  createUser,
  kafkaTestSystem,
  waitFor,
  type Auth,
  type KafkaTestSystem,
} from '@onco/testing';
import { COMMENT_MSG, createMessagesModule, projectRequisitionScope, type MessagesModule } from './index';

const submitted = (requisitionId: string, accountId: string, physicianId: string, submittedOn = new Date()) =>
  createEvent('requisition-submitted', {
    data: {
      requisitionId,
      testRequisitionId: `TRF-${requisitionId.slice(0, 6)}`,
      accountId,
      physicianId,
      patientId: 'pat-1',
      submittedBy: { id: 'someone', name: 'Some One' },
      submittedOn: submittedOn.toISOString(),
      createPdf: false,
      testOrders: [],
      clinicalReviewStatus: null,
      icd10Codes: [],
      diagnosis: null,
    },
  });

describe('messages: comments on a requisition (real Kafka and the store)', () => {
  let sys: KafkaTestSystem;
  let app: App;
  let messages: MessagesModule;
  let producer: Producer;
  const h: Record<string, Auth> = {};
  const ids: Record<string, string> = {};
  const R1 = randomUUID(); // acc-A, phy-1
  const UNKNOWN = randomUUID(); // never submitted

  const list = (who: string, filter: Record<string, string>, extra = '') =>
    app.inject({
      method: 'GET',
      url: `/cns/api/v1/comments?filter=${encodeURIComponent(JSON.stringify(filter))}${extra}`,
      headers: h[who],
    });
  const add = (who: string, payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/cns/api/v1/comments', headers: h[who], payload });
  const del = (who: string, id: string, payload: Record<string, unknown> = { deleted: true }) =>
    app.inject({ method: 'PUT', url: `/cns/api/v1/messages/${id}`, headers: h[who], payload });

  beforeAll(async () => {
    sys = await kafkaTestSystem({ WORKERS: 'true', WORKER_MODULES: 'messages' }, { ensureTopics: true });
    app = sys.app;
    messages = createMessagesModule(sys.ctx);
    producer = await sys.producer();
    const users = {
      npi: await createUser(sys, 'ROLE_NPI', { account: { id: 'acc-A', name: 'Alpha' } }),
      npi2: await createUser(sys, 'ROLE_NON_NPI', { account: { id: 'acc-A', name: 'Alpha' } }),
      other: await createUser(sys, 'ROLE_NPI', { account: { id: 'acc-B', name: 'Beta' } }),
      physician: await createUser(sys, 'ROLE_PHYSICIAN', {
        account: { id: 'acc-Z', name: 'Zeta' },
        physicianId: 'phy-1',
      }),
      admin: await createUser(sys, 'ROLE_ADMINISTRATOR'),
      patient: await createUser(sys, 'ROLE_PATIENT', { account: { id: 'acc-A', name: 'Alpha' } }),
    };
    for (const [k, u] of Object.entries(users)) {
      ids[k] = u._id;
      h[k] = await authOf(sys, u);
    }
    // the requisitions service's event, through Kafka, feeds the messages service's scope projection
    const event = submitted(R1, 'acc-A', 'phy-1');
    await producer.send({
      topic: topicFor('requisition-submitted', sys.config.TOPIC_PREFIX),
      messages: [{ key: R1, value: JSON.stringify(event) }],
    });
    await waitFor(() => messages.models.RequisitionScope.findById(R1).lean(), { what: 'scope projected' });
  });
  afterAll(async () => {
    await sys?.close();
  });

  it('projects the requisition scope from requisition-submitted, idempotently and newest wins', async () => {
    const row = await messages.models.RequisitionScope.findById(R1).lean();
    expect(row).toMatchObject({ accountId: 'acc-A', physicianId: 'phy-1', patientId: 'pat-1' });
    // an older submission delivered late does not overwrite the newer scope
    await projectRequisitionScope(messages.models, submitted(R1, 'acc-OLD', 'phy-OLD', new Date(2000, 0, 1)));
    expect(await messages.models.RequisitionScope.findById(R1).lean()).toMatchObject({ accountId: 'acc-A' });
    expect(await messages.models.RequisitionScope.countDocuments({ _id: R1 })).toBe(1);
  });

  it('needs VIEW_ORDER_PAGE, and a testOrderFormId filter', async () => {
    expect((await app.inject({ method: 'GET', url: '/cns/api/v1/comments' })).statusCode).toBe(401);
    expect((await list('patient', { testOrderFormId: R1 })).statusCode).toBe(403);
    expect((await add('patient', { testOrderForm: { id: R1 }, messageBody: 'hi' })).statusCode).toBe(403);
    const res = await list('npi', { isParent: 'true' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(COMMENT_MSG.testOrderFormRequired);
  });

  it('answers 404 Requisition not found for a requisition not (yet) projected or out of scope', async () => {
    for (const r of [
      await list('npi', { testOrderFormId: UNKNOWN }),
      await add('npi', { testOrderForm: { id: UNKNOWN }, messageBody: 'hello' }),
      await list('other', { testOrderFormId: R1 }),
      await add('other', { testOrderForm: { id: R1 }, messageBody: 'hello' }),
    ]) {
      expect(r.statusCode).toBe(404);
      expect(r.json().message).toBe(COMMENT_MSG.requisitionNotFound);
    }
    expect(await messages.models.Message.countDocuments({})).toBe(0);
  });

  it('refuses an empty comment and creates nothing', async () => {
    const res = await add('npi', { testOrderForm: { id: R1 }, messageBody: '   ' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(COMMENT_MSG.textRequired);
    expect(await messages.models.Message.countDocuments({})).toBe(0);
  });

  it('adds FEED_COMMENT with CAN_CREATE_FEED and CASE_COMMENT without; lists own comments only without it', async () => {
    const mine = await add('npi', { testOrderForm: { id: R1 }, messageBody: ' Please check the specimen ' });
    expect(mine.statusCode).toBe(201);
    expect(mine.json()).toMatchObject({
      type: 'CASE_COMMENT',
      isParent: true,
      messageBody: 'Please check the specimen',
      owner: { id: ids.npi, lastName: 'NPI' },
      testOrderForm: { id: R1 },
      account: { id: 'acc-A' },
      actionType: null,
      deleted: false,
    });
    const feed = await add('admin', { testOrderFormId: R1, messageBody: 'Specimen received' });
    expect(feed.statusCode).toBe(201);
    expect(feed.json().type).toBe('FEED_COMMENT');
    expect((await add('npi2', { testOrderForm: { id: R1 }, messageBody: 'Colleague note' })).statusCode).toBe(
      201,
    );

    // without CAN_CREATE_FEED: only the user's own comments, whatever the filter asks
    const own = (await list('npi', { testOrderFormId: R1, isParent: 'true' })).json();
    expect(own.totalElements).toBe(1);
    expect(own.content[0].messageBody).toBe('Please check the specimen');
    const sneaky = (await list('npi', { testOrderFormId: R1, createdBy: ids.admin })).json();
    expect(sneaky.totalElements).toBe(0);
    // with CAN_CREATE_FEED: every comment, newest first; createdBy narrows
    const all = (await list('admin', { testOrderFormId: R1, isParent: 'true' })).json();
    expect(all.content.map((c: any) => c.messageBody)).toEqual([
      'Colleague note',
      'Specimen received',
      'Please check the specimen',
    ]);
    const byNpi = (await list('admin', { testOrderFormId: R1, createdBy: ids.npi })).json();
    expect(byNpi.totalElements).toBe(1);
    // a physician user sees the requisition's comments through the physician scope (own ones only here)
    const phy = await list('physician', { testOrderFormId: R1 });
    expect(phy.statusCode).toBe(200);
    expect(phy.json().totalElements).toBe(0);
    // ra-data-simple-rest dialect
    const ra = await app.inject({
      method: 'GET',
      url: `/cns/api/v1/comments?range=${encodeURIComponent('[0,0]')}&filter=${encodeURIComponent(
        JSON.stringify({ testOrderFormId: R1 }),
      )}`,
      headers: h.admin,
    });
    expect(ra.headers['content-range']).toBe('comments 0-0/3');
  });

  it('replies appear as messageThreads of their comment; comments stay out of the messages list and count', async () => {
    const parent = (await list('npi', { testOrderFormId: R1 })).json().content[0];
    const reply = await add('admin', {
      testOrderForm: { id: R1 },
      messageBody: 'Checked',
      parent: { id: parent.id },
    });
    expect(reply.statusCode).toBe(201);
    expect(reply.json()).toMatchObject({ isParent: false, parent: { id: parent.id }, type: 'FEED_COMMENT' });
    const again = (await list('npi', { testOrderFormId: R1, isParent: 'true' })).json();
    expect(again.content[0].messageThreads.map((m: any) => m.messageBody)).toEqual(['Checked']);
    const bad = await add('admin', { testOrderForm: { id: R1 }, messageBody: 'x', parent: { id: 'nope' } });
    expect(bad.statusCode).toBe(404);

    const msgs = (await app.inject({ method: 'GET', url: '/cns/api/v1/messages', headers: h.admin })).json();
    expect(msgs.totalElements).toBe(0);
    const count = (
      await app.inject({ method: 'GET', url: '/cns/api/v1/messages/communicationCount', headers: h.admin })
    ).json();
    expect(count.unreadMessages).toBe(0);
  });

  it("a page of a requisition's comments is an audit read of the requisition, naming the comments' patients", async () => {
    const since = new Date();
    const res = await list('npi', { testOrderFormId: R1 });
    expect(res.statusCode).toBe(200);
    const rows = res.json().content as unknown[];
    expect(rows.length).toBeGreaterThan(0);
    const entries = await auditEntriesSince(sys.ctx.mongo, since);
    expect(entries.map((e) => [e.what.type, e.what.id, e.what.patientIds, e.count, e.who.userId])).toEqual([
      ['comment', R1, ['pat-1'], rows.length, ids.npi],
    ]);
    // never the comments' text
    expect(JSON.stringify(entries)).not.toContain('Checked');
  });

  it('deletes (soft) only the owner’s comment without an action type', async () => {
    const { Message } = messages.models;
    const mine = await Message.findOne({ createdBy: ids.npi, comment: true }).lean();
    const id = mine!._id;
    for (const who of ['npi2', 'admin']) {
      const res = await del(who, id);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(COMMENT_MSG.notOwner);
    }
    expect((await del('other', id)).statusCode).toBe(404); // out of scope reads as not found
    const notDelete = await del('npi', id, { deleted: false, messageBody: 'edited' });
    expect(notDelete.statusCode).toBe(400);
    expect(notDelete.json().message).toBe(COMMENT_MSG.onlyDelete);

    const withAction = await Message.create({
      messageBody: 'Status changed',
      type: 'CASE_COMMENT',
      comment: true,
      actionType: 'STATUS_UPDATE',
      owner: { id: ids.npi },
      createdBy: ids.npi,
      testOrderForm: { id: R1 },
    });
    const refused = await del('npi', withAction._id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(COMMENT_MSG.hasAction);
    expect((await Message.findById(withAction._id).lean())!.deleted).toBe(false);

    const ok = await del('npi', id, { ...mine, id, deleted: true });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ id, deleted: true, updatedBy: ids.npi });
    expect(await Message.countDocuments({ _id: id })).toBe(1); // soft delete
    const after = (await list('npi', { testOrderFormId: R1, isParent: 'true' })).json();
    expect(after.content.map((c: any) => c.id)).not.toContain(id);
    expect((await del('npi', id)).statusCode).toBe(404);
  });
});
