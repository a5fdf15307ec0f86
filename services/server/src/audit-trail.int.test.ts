import { describe, expect, it } from 'vitest';
import { auditModels, verifyStoredChain, type AuditModels } from '@onco/platform';
import { completeForm } from '@onco/requisitions/testing';
import { eventsIn, provider, useTestSystem, waitFor, type CollectedEvent } from '@onco/testing';
import { submitThroughApi } from '../../requisitions/test/submit';

/**
 * The audit trail end to end, everything running (relay, consumers, the chainer): the lab's and billing's PHI
 * reads leave entries too, the chainer appends every entry to the hash chain (which checks intact) and the relay
 * publishes each once on the `audit` topic; portal administrators search them (GET /uam/api/v1/audit, filters,
 * one entry, CSV), nobody else.
 */
const UAM = '/uam/api/v1';
const enc = (v: unknown) => encodeURIComponent(JSON.stringify(v));
let models: AuditModels;
let requisitionId = '';
let testOrderId = '';
const { sys, h, users, call, collector } = useTestSystem({
  kafka: { ensureTopics: true },
  config: { WORKERS: 'true', WORKER_MODULES: 'requisitions,lab,billing,audit' },
  collect: ['audit'],
  prepare: async () => {
    models = auditModels(sys.ctx.mongo);
  },
  users: {
    npi: provider({ id: 'acc-A', name: 'Alpha' }, 'phy-A'),
    admin: 'ROLE_PORTAL_ADMIN',
    lab: 'ROLE_ADMINISTRATOR',
  },
  seed: async () => {
    const submitted = await submitThroughApi(
      sys,
      h.npi,
      completeForm({ accountId: 'acc-A', physicianId: 'phy-A' }),
    );
    requisitionId = submitted.id;
    testOrderId = submitted.testOrders[0].id;
  },
});

const chained = () => models.Entry.find().sort({ seq: 1 }).lean();

describe('audit trail: lab and billing reads, the chain, the audit topic and the search', () => {
  it('the test, its samples, its report and its billing case each leave an entry naming the patient', async () => {
    await waitFor(
      async () => (await call('GET', `/oms/api/v1/testOrders/${testOrderId}`, 'lab')).statusCode === 200,
      {
        what: 'the lab test order',
      },
    );
    const caseId = await waitFor(
      async () => (await sys.ctx.mongo.collection('billing_cases').findOne({ testOrderId }))?._id,
      { what: 'the billing case', timeoutMs: 45_000 },
    );
    const since = new Date();
    expect((await call('GET', `/oms/api/v1/testOrders/${testOrderId}`, 'lab')).statusCode).toBe(200);
    expect((await call('GET', `/oms/api/v1/testOrderForms/${requisitionId}/samples`, 'lab')).statusCode).toBe(
      200,
    );
    expect(
      (await call('GET', `/oms/api/v1/testOrders/${testOrderId}/reports/download`, 'lab')).statusCode,
    ).toBe(404);
    expect((await call('GET', `/bis/api/v1/billingCases/${caseId}`, 'lab')).statusCode).toBe(200);
    const entries = await waitFor(
      async () => {
        // the lab user's own (the system's changes the submission set off may still be landing)
        const found = await models.Entry.find({ when: { $gte: since }, 'who.userId': users.lab._id })
          .sort({ seq: 1 })
          .lean();
        return found.length >= 4 ? found : null;
      },
      { what: 'the four entries in the chain' },
    );
    expect(entries.map((e) => [e.what.type, e.action, e.outcome, e.what.patientId, e.who.userId])).toEqual([
      ['test', 'read', 'allowed', 'pat-1', users.lab._id],
      ['sample', 'read', 'allowed', 'pat-1', users.lab._id],
      ['report', 'download', 'refused', null, users.lab._id],
      ['billing-case', 'read', 'allowed', 'pat-1', users.lab._id],
    ]);
    expect(entries.map((e) => e.what.id)).toEqual([testOrderId, requisitionId, testOrderId, caseId]);
    expect(entries[0].onBehalfOf).toEqual(['acc-A']);
  });

  it('every entry is chained (the check passes) and published once on the audit topic, each with its seq to order by', async () => {
    await waitFor(async () => (await models.Inbox.countDocuments()) === 0, { what: 'an empty inbox' });
    const chain = await chained();
    expect(chain.map((e) => e.seq)).toEqual(chain.map((_, i) => i + 1));
    const check = await verifyStoredChain(models);
    expect(check).toMatchObject({ ok: true, checked: chain.length, head: { seq: chain.length } });
    // the changes of the seed's submission are in the chain too (create, sign, submit)
    expect(chain.filter((e) => e.what.id === requisitionId).map((e) => e.action)).toEqual(
      expect.arrayContaining(['create', 'update']),
    );
    const events = await waitFor(
      () => {
        const got = eventsIn<CollectedEvent>(collector.messages);
        return got.length >= chain.length ? got : null;
      },
      { what: 'the audit events' },
    );
    await collector.drained();
    const all = eventsIn<CollectedEvent>(collector.messages);
    const bySeq = new Map(all.map((e) => [e.data.seq, e]));
    expect(bySeq.size).toBe(all.length); // each once
    for (const e of chain) {
      expect(bySeq.get(e.seq)).toMatchObject({
        id: e._id,
        type: 'audit.recorded',
        subject: e._id,
        data: { hash: e.hash, prevHash: e.prevHash, what: e.what },
      });
    }
    // keyed by entry id, so spread over partitions: no order across them; consumers order by data.seq
    expect(Math.min(...events.map((e) => e.data.seq))).toBe(1);
  });

  it('portal administrators search the trail: by patient, record, user, action and date range; one entry; CSV', async () => {
    await waitFor(async () => (await models.Inbox.countDocuments()) === 0, { what: 'an empty inbox' });
    const all = await call('GET', `${UAM}/audit?page=0&size=500`, 'admin');
    expect(all.statusCode, all.body).toBe(200);
    const body = all.json();
    expect(body.totalElements).toBeGreaterThan(5);
    const seqs = body.content.map((r: { seq: number }) => r.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a)); // newest first

    const byRecord = (
      await call('GET', `${UAM}/audit?filter=${enc({ recordId: testOrderId })}`, 'admin')
    ).json();
    expect(byRecord.content.every((r: any) => r.what.id === testOrderId)).toBe(true);
    expect(byRecord.content.length).toBeGreaterThanOrEqual(2);
    const byUser = (
      await call('GET', `${UAM}/audit?filter=${enc({ userId: users.npi._id, action: 'update' })}`, 'admin')
    ).json();
    expect(byUser.content.length).toBeGreaterThan(0);
    expect(byUser.content.every((r: any) => r.who.userId === users.npi._id && r.action === 'update')).toBe(
      true,
    );
    const byPatient = (
      await call('GET', `${UAM}/audit?filter=${enc({ patientId: 'pat-1' })}`, 'admin')
    ).json();
    expect(byPatient.totalElements).toBeGreaterThanOrEqual(4);
    const refused = (await call('GET', `${UAM}/audit?filter=${enc({ outcome: 'refused' })}`, 'admin')).json();
    expect(refused.content.map((r: any) => r.what.type)).toContain('report');
    const future = Date.now() + 86_400_000;
    const none = await call(
      'GET',
      `${UAM}/audit?filter=${enc({ when: `between(${future},${future + 1})` })}`,
      'admin',
    );
    expect(none.json().totalElements).toBe(0);

    // react-admin's dialect, and one entry
    const ra = await call('GET', `${UAM}/audit?range=${enc([0, 4])}&sort=${enc(['seq', 'ASC'])}`, 'admin');
    expect(ra.headers['content-range']).toMatch(/^audit 0-4\/\d+$/);
    expect(ra.json()[0].seq).toBe(1);
    const one = await call('GET', `${UAM}/audit/${ra.json()[0].id}`, 'admin');
    expect(one.json()).toMatchObject({ seq: 1, hash: ra.json()[0].hash });

    const csv = await call('GET', `${UAM}/audit/export?filter=${enc({ recordId: testOrderId })}`, 'admin');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toContain('Seq,When,User id,User,Role');
    expect(lines.length - 1).toBe(byRecord.totalElements);
    // the export of the trail is itself recorded
    const exports = await waitFor(
      async () => models.Entry.findOne({ 'what.type': 'audit-trail', action: 'export' }).lean(),
      { what: 'the export entry' },
    );
    expect(exports).toMatchObject({ who: { userId: users.admin._id }, count: lines.length - 1 });
  });

  it('nobody else reads the trail, and no route changes it', async () => {
    for (const who of ['npi', 'lab'] as const) {
      expect((await call('GET', `${UAM}/audit`, who)).statusCode).toBe(403);
      expect((await call('GET', `${UAM}/audit/export`, who)).statusCode).toBe(403);
    }
    const [first] = await chained();
    for (const method of ['PUT', 'DELETE', 'PATCH'] as const)
      expect((await call(method, `${UAM}/audit/${first._id}`, 'admin', {})).statusCode).toBe(404);
    expect((await call('POST', `${UAM}/audit`, 'admin', {})).statusCode).toBe(404);
  });
});
