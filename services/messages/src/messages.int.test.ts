import { describe, expect, it } from 'vitest';
import type { App } from '@onco/platform';
import { user, useTestSystem } from '@onco/testing';
import { createMessagesModule, type MessagesModule } from './index';

describe('messages: models and GET /cns/api/v1/messages (real store)', () => {
  let messages: MessagesModule;
  let app: App;
  let ownerId = '';

  const { sys, users, h } = useTestSystem({
    prepare: async () => {
      messages = createMessagesModule(sys.ctx);
      app = sys.app; // the area is mounted by the system like in production
      await Promise.all(Object.values(messages.models).map((m) => m.init()));
    },
    users: {
      npi: user('ROLE_NPI', { account: { id: 'acc-A', name: 'Alpha' } }),
      patient: user('ROLE_PATIENT', { account: { id: 'acc-B', name: 'Beta' } }),
      admin: 'ROLE_ADMINISTRATOR',
    },
    seed: async () => {
      ownerId = users.patient._id;
      const { Message, KitRequest } = messages.models;
      const at = (d: number) => new Date(Date.UTC(2025, 2, d));
      const [m1] = await Message.create([
        {
          subject: 'Sample question',
          messageBody: 'Where is the kit?',
          type: 'CASE',
          account: { id: 'acc-A' },
          testOrderForm: { id: 'tof-1', testRequisitionId: 'TRF-1' },
          patient: { id: 'pat-1', name: 'Ada L' },
          lastMessageCreatedOn: at(1),
          sfdcId: 'SF-1',
        },
        {
          subject: 'Report ready',
          messageBody: 'Your report is ready',
          type: 'CASE',
          account: { id: 'acc-A' },
          read: true,
          lastMessageCreatedOn: at(3),
        },
        {
          subject: 'Other clinic',
          messageBody: 'not yours',
          type: 'CASE',
          account: { id: 'acc-C' },
          lastMessageCreatedOn: at(4),
        },
        {
          subject: 'Mine',
          messageBody: 'patient question',
          type: 'CASE',
          account: { id: 'acc-C' },
          owner: { id: ownerId, firstName: 'P', lastName: 'T' },
          lastMessageCreatedOn: at(2),
        },
        {
          subject: 'Deleted',
          messageBody: 'gone',
          type: 'CASE',
          account: { id: 'acc-A' },
          deleted: true,
          lastMessageCreatedOn: at(5),
        },
      ]);
      await Message.create({
        subject: 'Re: Sample question',
        messageBody: 'On its way',
        type: 'CASE_COMMENT',
        isParent: false,
        parent: { id: m1._id, sfdcId: 'SF-1' },
        account: { id: 'acc-A' },
        lastMessageCreatedOn: at(6),
      });
      await KitRequest.create({
        testKitType: 'STRECK',
        numberOfKits: 2,
        shippingRequest: 'TWO_DAY',
        account: { id: 'acc-A', name: 'Alpha' },
        createdBy: 'u-1',
      });
    },
  });

  const get = (who: keyof typeof h, url: string) => app.inject({ method: 'GET', url, headers: h[who] });

  it('creates the list indexes', async () => {
    const keys = (await messages.models.Message.collection.indexes()).map((i) => JSON.stringify(i.key));
    expect(keys).toEqual(
      expect.arrayContaining([
        JSON.stringify({ isParent: 1, lastMessageCreatedOn: -1 }),
        JSON.stringify({ 'parent.id': 1 }),
      ]),
    );
    const kitKeys = (await messages.models.KitRequest.collection.indexes()).map((i) => JSON.stringify(i.key));
    expect(kitKeys).toContain(JSON.stringify({ createdBy: 1, createdOn: -1 }));
    expect(messages.models.KitRequest.collection.collectionName).toBe('kit_requests');
  });

  it('lists threads of the user accounts, latest activity first, and replies by parent', async () => {
    const filter = encodeURIComponent(JSON.stringify({ isParent: 'eq(true)' }));
    const body = (await get('npi', `/cns/api/v1/messages?filter=${filter}`)).json();
    expect(body.content.map((m: any) => m.subject)).toEqual(['Report ready', 'Sample question']);
    expect(body.content[1]).toMatchObject({
      testOrderForm: { testRequisitionId: 'TRF-1' },
      patient: { name: 'Ada L' },
      read: false,
      new: true,
    });
    const parentId = body.content[1].id;
    const replies = (
      await get('npi', `/cns/api/v1/messages?filter=${encodeURIComponent(JSON.stringify({ parentId }))}`)
    ).json();
    expect(replies.content).toEqual([
      expect.objectContaining({
        subject: 'Re: Sample question',
        isParent: false,
        parent: { id: parentId, sfdcId: 'SF-1' },
      }),
    ]);
  });

  it('shows users their own messages in other accounts', async () => {
    const body = (await get('patient', '/cns/api/v1/messages')).json();
    expect(body.content.map((m: any) => m.subject)).toEqual(['Mine']);
  });

  it('counts unread threads in scope, narrowed by the filter', async () => {
    expect((await get('npi', '/cns/api/v1/messages/communicationCount')).json()).toEqual({
      unreadMessages: 1,
    });
    expect((await get('patient', '/cns/api/v1/messages/communicationCount')).json()).toEqual({
      unreadMessages: 1,
    });
    expect((await get('admin', '/cns/api/v1/messages/communicationCount')).json()).toEqual({
      unreadMessages: 3,
    });
    const f = encodeURIComponent(JSON.stringify({ accountId: 'acc-C' }));
    expect((await get('admin', `/cns/api/v1/messages/communicationCount?filter=${f}`)).json()).toEqual({
      unreadMessages: 2,
    });
  });

  it('filters read state and searches, in both dialects', async () => {
    const f = encodeURIComponent(JSON.stringify({ read: true }));
    expect(
      (await get('npi', `/cns/api/v1/messages?filter=${f}`)).json().content.map((m: any) => m.subject),
    ).toEqual(['Report ready']);
    expect(
      (await get('npi', '/cns/api/v1/messages?q=kit')).json().content.map((m: any) => m.subject),
    ).toEqual(['Sample question']);
    const res = await get(
      'admin',
      `/cns/api/v1/messages?range=${encodeURIComponent('[0,9]')}&filter=${encodeURIComponent(JSON.stringify({ isParent: true }))}`,
    );
    expect(res.headers['content-range']).toBe('messages 0-3/4');
  });

  it('needs VIEW_MESSAGES_PAGE and a session', async () => {
    expect((await app.inject({ method: 'GET', url: '/cns/api/v1/messages' })).statusCode).toBe(401);
  });
});
