import { describe, expect, it } from 'vitest';
import type { Role } from '@onco/domain';
import { TEST_PASSWORD, useTestSystem, type UserSpec } from '@onco/testing';
import { completeForm, TEST_ORDER_FORMS as API } from '../../test/fixtures';

const FA = { accountId: 'acc-FA', physicianId: 'phy-FA' };
const OTHER = { accountId: 'acc-B', physicianId: 'phy-B' };

/**
 * Financial assistance (spec 3's outcomes; spec 1: only for one specific account): billing staff record the
 * outcome on a submitted order of FINANCIAL_ASSISTANCE_ACCOUNT, with who and when and a requisition-changed event
 * (schemaVersion 7); any other order, a draft, a user without CAN_EDIT_BILLING or an unknown outcome is refused
 * and nothing changes. The financial assistance attachment goes only on such an order too.
 */
describe('requisition API: financial assistance outcomes (real store)', () => {
  const user = (role: Role, account: string, physicianId: string | null = null): UserSpec => [
    role,
    { account: { id: account, name: account }, physicianId },
  ];
  const { sys, call, h } = useTestSystem({
    config: { FINANCIAL_ASSISTANCE_ACCOUNT: 'acc-FA' },
    users: {
      faProvider: user('ROLE_NPI', 'acc-FA', 'phy-FA'),
      otherProvider: user('ROLE_NPI', 'acc-B', 'phy-B'),
      admin: user('ROLE_ADMINISTRATOR', 'acc-FA'),
    },
  });
  const rawDoc = (id: string) => sys.ctx.mongo.collection('test_order_forms').findOne({ _id: id as any });
  async function submitted(who: 'faProvider' | 'otherProvider', parties: typeof FA) {
    const d = (await call('POST', API, who, completeForm(parties))).json();
    expect((await call('POST', `${API}/${d.id}/sign`, who, { password: TEST_PASSWORD })).statusCode).toBe(
      200,
    );
    const res = await call('POST', `${API}/submit`, who, { id: d.id });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  it('billing staff record an outcome on an order of the account, with who and when and its event', async () => {
    const order = await submitted('faProvider', FA);
    expect(order.actions).toMatchObject({ financialAssistance: true, recordFinancialAssistance: false });
    const asAdmin = (await call('GET', `${API}/${order.id}`, 'admin')).json();
    expect(asAdmin.actions).toMatchObject({ financialAssistance: true, recordFinancialAssistance: true });

    const res = await call('PUT', `${API}/${order.id}/financialAssistance`, 'admin', {
      outcome: 'APPROVED_UP_TO_250',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().financialAssistance).toMatchObject({
      outcome: 'APPROVED_UP_TO_250',
      decidedBy: { name: expect.stringContaining('ADMINISTRATOR') },
    });
    const doc = await rawDoc(order.id);
    const events = (doc!.outbox as { value: string }[]).map((o) => JSON.parse(o.value));
    const fa = events.find((e) => e.data.changes?.includes('financial-assistance-changed'));
    expect(fa).toMatchObject({
      schemaVersion: 8,
      data: { financialAssistanceOutcome: 'APPROVED_UP_TO_250' },
    });
    // the same outcome again changes nothing; another one is a new event; null clears it
    const again = await call('PUT', `${API}/${order.id}/financialAssistance`, 'admin', {
      outcome: 'APPROVED_UP_TO_250',
    });
    expect(again.json().version).toBe(res.json().version);
    const cleared = await call('PUT', `${API}/${order.id}/financialAssistance`, 'admin', { outcome: null });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().financialAssistance).toBeNull();
  });

  it('refuses another account, a provider, a draft and an unknown outcome; nothing changes', async () => {
    const other = await submitted('otherProvider', OTHER);
    expect(other.actions.financialAssistance).toBe(false);
    const elsewhere = await call('PUT', `${API}/${other.id}/financialAssistance`, 'admin', {
      outcome: 'DENIED',
    });
    expect(elsewhere.statusCode).toBe(409);
    expect(elsewhere.json().message).toMatch(/applies only to orders of the financial assistance account/);
    expect((await rawDoc(other.id))!.financialAssistance ?? null).toBeNull();
    const order = await submitted('faProvider', FA);
    const provider = await call('PUT', `${API}/${order.id}/financialAssistance`, 'faProvider', {
      outcome: 'DENIED',
    });
    expect(provider.statusCode).toBe(403);
    const unknown = await call('PUT', `${API}/${order.id}/financialAssistance`, 'admin', {
      outcome: 'MAYBE',
    });
    expect(unknown.statusCode).toBe(400);
    const draft = (await call('POST', API, 'faProvider', completeForm(FA))).json();
    const onDraft = await call('PUT', `${API}/${draft.id}/financialAssistance`, 'admin', {
      outcome: 'DENIED',
    });
    expect(onDraft.statusCode).toBe(409);
    for (const id of [order.id, draft.id]) expect((await rawDoc(id))!.financialAssistance ?? null).toBeNull();
  });

  it('the financial assistance attachment goes only on an order of the account', async () => {
    const other = await submitted('otherProvider', OTHER);
    const upload = async (who: 'faProvider' | 'otherProvider', id: string) => {
      const form = new FormData();
      form.set('testOrderFormId', id);
      form.set('type', 'FINANCIAL_ASSISTANCE');
      form.set('file', new Blob(['%PDF-1.4 assistance']), 'assistance.pdf');
      const req = new Request('http://x', { method: 'POST', body: form });
      return sys.app.inject({
        method: 'POST',
        url: '/portal/api/v1/attachments/upload',
        headers: {
          authorization: h[who].authorization,
          'content-type': req.headers.get('content-type')!,
        },
        payload: Buffer.from(await req.arrayBuffer()),
      });
    };
    const refused = await upload('otherProvider', other.id);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/applies only to orders of the financial assistance account/);
    const order = await submitted('faProvider', FA);
    expect((await upload('faProvider', order.id)).statusCode).toBe(201);
  });
});
