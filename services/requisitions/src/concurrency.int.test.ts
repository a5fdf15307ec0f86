import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createEvent, EXAMPLE_DATA } from '@onco/events';
import { apiWith, TEST_PASSWORD, user, useTestSystem } from '@onco/testing';
import { completeForm, TEST_ORDER_FORMS as API } from '../test/fixtures';
import { requisitionModels, type RequisitionModels } from './models';
import { linkAttachment } from './models/attachment';
import { applyTestStatus } from './projections/test-status';

const A = { accountId: 'acc-A', physicianId: 'phy-A' };

/**
 * Concurrent writes of one requisition, with no lock anywhere: each write is one conditional single-document
 * update (its filter carries the version or state it checked), so the database decides who wins (DocumentDB
 * here, MongoDB under Docker).
 */
describe('requisitions under concurrent writes (real DocumentDB)', () => {
  let models: RequisitionModels;
  const { sys, h } = useTestSystem({
    prepare: async () => {
      models = requisitionModels(sys.ctx.mongo);
    },
    users: {
      admin: user('ROLE_ADMINISTRATOR', {
        account: { id: 'acc-A', name: 'Alpha Oncology' },
        physicianId: null,
      }),
    },
  });
  const call = apiWith(() => sys, h.admin);
  async function draft() {
    const res = await call('POST', API, completeForm(A));
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }
  const stored = (id: string) => models.Requisition.findById(id).lean().exec();

  it('30 saves of one draft at the same version: exactly one 200, the rest 409, the version up by one', async () => {
    const d = await draft();
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        call('PUT', `${API}/${d.id}`, { status: 'DRAFT', version: d.version, comment: `edit ${i}` }),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(29);
    const winner = results.find((r) => r.statusCode === 200)!.json();
    const doc = await stored(d.id);
    expect(doc!.version).toBe(d.version + 1);
    expect(doc!.comment).toBe(winner.comment);
  });

  it('saves without a version are each applied once (a lost race is re-done on the new state)', async () => {
    const d = await draft();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call('PUT', `${API}/${d.id}`, { status: 'DRAFT', comment: `c${i}` }),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    expect((await stored(d.id))!.version).toBe(d.version + 8);
  });

  it('submits of one draft at once: one wins with one number and one event, the others are 409', async () => {
    const d = await draft();
    expect((await call('POST', `${API}/${d.id}/sign`, { password: TEST_PASSWORD })).statusCode).toBe(200);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => call('POST', `${API}/submit`, { id: d.id })),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(5);
    const doc = await stored(d.id);
    expect(doc!.status).toBe('SUBMITTED');
    expect(doc!.testRequisitionId).toBe(results.find((r) => r.statusCode === 200)!.json().testRequisitionId);
    // no relay in this system: the pending events are still on the document
    expect(doc!.outbox.map((e) => e.type)).toEqual(['requisition.submitted']);
  });

  it('a stale version is a 409 and changes nothing', async () => {
    const d = await draft();
    expect(
      (await call('PUT', `${API}/${d.id}`, { status: 'DRAFT', version: d.version, comment: 'x' })).statusCode,
    ).toBe(200);
    const stale = await call('PUT', `${API}/${d.id}`, { status: 'DRAFT', version: d.version, comment: 'y' });
    expect(stale.statusCode).toBe(409);
    expect((await stored(d.id))!.comment).toBe('x');
  });

  it("test-status events at once: every test lands on the requisition's list, the newest change wins", async () => {
    const id = randomUUID();
    await models.Requisition.create({ _id: id, status: 'SUBMITTED', testOrders: [] } as never);
    const event = (testOrderId: string, status: string, changedOn: string) =>
      createEvent('test-status', {
        data: {
          ...EXAMPLE_DATA['test-status'],
          requisitionId: id,
          testOrderId,
          status,
          changedOn,
        } as never,
      });
    const tests = Array.from({ length: 6 }, (_, i) => `t${i}`);
    // six tests, each with three changes delivered at once, out of order
    const events = tests.flatMap((t) => [
      event(t, 'IN_PROGRESS', '2025-03-03T10:00:00.000Z'),
      event(t, 'REPORT_COMPLETE', '2025-03-03T12:00:00.000Z'),
      event(t, 'TEST_ORDERED', '2025-03-03T09:00:00.000Z'),
    ]);
    await Promise.all(events.map((e) => applyTestStatus(models, e)));
    const doc = await stored(id);
    expect(doc!.testOrders.map((t) => t.id).sort()).toEqual(tests);
    expect(doc!.testOrders.every((t) => t.status === 'REPORT_COMPLETE')).toBe(true);
  });

  it('links of attachments at once: each listed exactly once, none lost', async () => {
    const id = randomUUID();
    await models.Requisition.create({ _id: id, status: 'SUBMITTED', attachments: [] } as never);
    const ref = (n: number) => ({
      _id: `${id}-${n}`,
      name: `${n}.pdf`,
      type: 'NOTE' as const,
      size: 10,
      contentType: 'application/pdf',
      createdOn: new Date(),
    });
    // ten attachments, each linked three times at once
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => linkAttachment(models.Requisition, id, ref(i % 10), 'system')),
    );
    expect(results.every(Boolean)).toBe(true);
    const listed = (await stored(id))!.attachments.map((a) => a.id).sort();
    expect(listed).toEqual(Array.from({ length: 10 }, (_, n) => `${id}-${n}`).sort());
  });
});
