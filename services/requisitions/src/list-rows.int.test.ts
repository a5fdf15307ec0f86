import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { connectMongo } from '@onco/platform';
import { createTestSystem } from '../../server/src/test-helper';
import { requisitionModels, type RequisitionModels } from './models';
import {
  ensureListRows,
  currentListRows,
  LIST_ROW_PATHS,
  LIST_ROWS_COLLECTION,
  listRowOf,
  listRowTiming,
  readListRows,
  storedRowOf,
} from './list-rows';

type Sys = Awaited<ReturnType<typeof createTestSystem>>;

describe("the orders list's read model", () => {
  let sys: Sys;
  let models: RequisitionModels;
  const row = async (id: string) => (await readListRows(sys.ctx.mongo)).find((r) => r._id === id) ?? null;

  beforeAll(async () => {
    sys = await createTestSystem();
    models = requisitionModels(sys.ctx.mongo);
  });
  afterAll(async () => {
    await sys?.close();
  });

  it("holds every path the list filters, searches, scopes and facets on, and nothing else of the form's", () => {
    for (const p of [
      '_id',
      'status',
      'deleted',
      'createdBy',
      'account.id',
      'physician.id',
      'patient.mrn',
      'testOrders.status',
      'sampleStatuses',
      'updatedOn',
    ])
      expect(LIST_ROW_PATHS).toContain(p);
    const r = listRowOf({
      _id: 'x',
      status: 'SUBMITTED',
      patient: { id: 'p', name: 'Ada L', firstName: 'Ada', address: { city: 'Menlo' } },
      testOrders: [
        { id: 't', status: 'IN_PROGRESS', testType: 'NEXT_DX', orderType: 'INITIAL_ORDER', dueOn: 'x' },
      ],
      sampleStatuses: ['PROCEED'],
      billings: [{ id: 'b' }],
      updatedOn: new Date(5),
    });
    expect(r).toEqual({
      _id: 'x',
      status: 'SUBMITTED',
      patient: { id: 'p', name: 'Ada L' },
      testOrders: [{ id: 't', status: 'IN_PROGRESS', testType: 'NEXT_DX', orderType: 'INITIAL_ORDER' }],
      sampleStatuses: ['PROCEED'],
      updatedOn: new Date(5),
    });
  });

  it('follows create, update and delete through the model', async () => {
    const created = await models.Requisition.create({
      status: 'DRAFT',
      patient: { id: 'pat-1', firstName: 'Ada', lastName: 'Lovelace', name: 'Ada Lovelace' },
      account: { id: 'acc-1', name: 'Menlo Oncology' },
      createdBy: 'u1',
    });
    const id = String(created._id);
    expect(await row(id)).toMatchObject({
      status: 'DRAFT',
      account: { id: 'acc-1', name: 'Menlo Oncology' },
    });

    await models.Requisition.findOneAndUpdate(
      { _id: id },
      { $set: { status: 'SUBMITTED', sampleStatuses: ['ON_HOLD'] } },
      { returnDocument: 'after' },
    ).exec();
    expect(await row(id)).toMatchObject({ status: 'SUBMITTED', sampleStatuses: ['ON_HOLD'] });

    await models.Requisition.updateOne({ _id: id }, { $set: { 'account.name': 'Renamed' } }).exec();
    expect((await row(id))?.account).toEqual({ id: 'acc-1', name: 'Renamed' });

    await models.Requisition.deleteOne({ _id: id }).exec();
    expect(await row(id)).toBeNull();
  });

  it("a process's cached rows follow the writes of another process", async () => {
    const other = await connectMongo(sys.config.MONGO_URL);
    try {
      const ids = async () => (await currentListRows(other)).map((r) => String(r._id));
      await ids(); // the first call reads every row; the next ones follow the change log
      const created = await models.Requisition.create({ status: 'DRAFT', createdBy: 'u2' });
      const id = String(created._id);
      expect(await ids()).toContain(id);
      await models.Requisition.updateOne({ _id: id }, { $set: { status: 'SUBMITTED' } }).exec();
      expect((await currentListRows(other)).find((r) => r._id === id)?.status).toBe('SUBMITTED');
      await models.Requisition.deleteOne({ _id: id }).exec();
      expect(await ids()).not.toContain(id);
    } finally {
      await other.close();
    }
  });

  it('hands out the same rows until one changes, and a periodic full read catches what the change log missed', async () => {
    const other = await connectMongo(sys.config.MONGO_URL);
    const fullReadMs = listRowTiming.fullReadMs;
    try {
      await currentListRows(other); // the first read: every row
      const a = await currentListRows(other);
      expect(await currentListRows(other)).toBe(a); // nothing changed: the same snapshot (list answers reused)
      const created = await models.Requisition.create({ status: 'DRAFT', createdBy: 'u3' });
      const b = await currentListRows(other);
      expect(b).not.toBe(a);
      expect(b.map((r) => r._id)).toContain(String(created._id));
      // a change already applied, read again within the overlap window, does not make a new snapshot
      expect(await currentListRows(other)).toBe(b);

      // a row written around the model (no change entry) reaches the cache only through a full read, which
      // runs beside the requests and is swapped in by a later refresh
      const raw = randomUUID();
      await sys.ctx.mongo
        .collection(LIST_ROWS_COLLECTION)
        .insertOne(storedRowOf({ _id: raw, status: 'DRAFT', createdBy: 'raw' }) as any);
      expect((await currentListRows(other)).map((r) => r._id)).not.toContain(raw);
      listRowTiming.fullReadMs = 0;
      let seen = false;
      for (let i = 0; i < 100 && !seen; i++) {
        seen = (await currentListRows(other)).some((r) => r._id === raw);
        if (!seen) await new Promise((r) => setTimeout(r, 50));
      }
      expect(seen).toBe(true);
      await sys.ctx.mongo.collection(LIST_ROWS_COLLECTION).deleteOne({ _id: raw as any });
    } finally {
      listRowTiming.fullReadMs = fullReadMs;
      await other.close();
    }
  });

  it('fills in rows missing after raw writes, and drops orphans, on the first list read', async () => {
    const [id, id2] = [randomUUID(), randomUUID()];
    await models.Requisition.collection.insertMany([
      { _id: id as any, status: 'SUBMITTED', account: { id: 'acc-2', name: 'Raw' }, updatedOn: new Date() },
      { _id: id2 as any, status: 'DRAFT', updatedOn: new Date() },
    ]);
    await sys.ctx.mongo
      .collection(LIST_ROWS_COLLECTION)
      .insertOne(storedRowOf({ _id: 'orphan', status: 'DRAFT' }) as any);
    expect(await row(id)).toBeNull();
    // a process starting now (this system's own routes already checked the rows when they were registered)
    const fresh = await connectMongo(sys.config.MONGO_URL);
    try {
      await ensureListRows(fresh);
    } finally {
      await fresh.close();
    }
    expect(await row(id)).toMatchObject({ status: 'SUBMITTED', account: { id: 'acc-2', name: 'Raw' } });
    expect(await row(id2)).toMatchObject({ status: 'DRAFT' });
    expect(await row('orphan')).toBeNull();
    // dates come back as dates
    expect((await row(id))?.updatedOn).toBeInstanceOf(Date);
  });
});
