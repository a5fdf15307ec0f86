import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { auditEntriesSince, provider, useTestSystem } from '@onco/testing';
import { createTestOrdersFromSubmission, labModels, seedDomainPreferences, type LabModels } from '../index';
import { oneTestSubmission } from '../../test/events';
import { recordedManifest, row } from '../../test/manifests';
import { processManifest } from './process-manifest';

const PORTAL = '/portal/api/v1';

/**
 * GET /portal/api/v1/sampleManifests (spec 2 section 7 "Samples": filtered by archived false, patientId,
 * testOrderFormId) on the real store: manifests recorded by the lab's consumer and processed by the worker's own
 * code (processManifest, without the queue), then listed with the spec's filters, in each user's data scope.
 */
describe('sample manifest list: filters archived, patientId, testOrderFormId; the data scope', () => {
  let lab: LabModels;
  const run = randomBytes(3).toString('hex');
  const R1 = `l1-${run}`; // acc-M, phy-M, patient P1
  const R2 = `l2-${run}`; // acc-M, phy-M, patient P2
  const R3 = `l3-${run}`; // acc-X, phy-X, patient P3
  const P1 = `p1-${run}`;
  const P2 = `p2-${run}`;
  const P3 = `p3-${run}`;
  const ids = { A: `A-${run}`, B: `B-${run}`, C: `C-${run}`, D: `D-${run}`, E: `E-${run}` };

  const base = {
    accountName: 'Manifest Oncology',
    testType: 'NEXT_DX',
    orderType: 'INITIAL_ORDER',
    review: null,
    diagnosis: null,
  } as const;
  const { sys, h, users } = useTestSystem({
    prepare: async () => {
      lab = labModels(sys.ctx.mongo);
    },
    users: {
      admin: 'ROLE_ADMINISTRATOR',
      npiM: provider({ id: 'acc-M', name: 'Manifest Oncology' }, 'phy-M'),
      npiX: provider({ id: 'acc-X', name: 'Other Oncology' }, 'phy-X'),
      npiY: provider({ id: 'acc-Y', name: 'Third Oncology' }, 'phy-Y'),
    },
    seed: async () => {
      await seedDomainPreferences(lab);
      const reqs = [
        [R1, 'acc-M', 'phy-M', P1],
        [R2, 'acc-M', 'phy-M', P2],
        [R3, 'acc-X', 'phy-X', P3],
      ] as const;
      for (const [id, accountId, physicianId, patientId] of reqs)
        await createTestOrdersFromSubmission(
          lab,
          oneTestSubmission(id, { ...base, accountId, physicianId, patientId }),
        );
      // A: samples of R1 (two) and R3 (one); B: one of R2; C: refused (an unknown TRF #); D: updates R1's tumor,
      // then archived; E: removed from the Box before it was processed
      await manifestProcessed(ids.A, [
        row(`TRF-${R1}`, 'TUMOR', `T1-${run}`),
        row(`TRF-${R3}`, 'TUMOR', `T3-${run}`),
        row(`TRF-${R1}`, 'NORMAL', `N1-${run}`),
      ]);
      await manifestProcessed(ids.B, [row(`TRF-${R2}`, 'TUMOR', `T2-${run}`)]);
      await manifestProcessed(ids.C, [row(`TRF-nope-${run}`, 'TUMOR', `TX-${run}`)]);
      await manifestProcessed(ids.D, [
        row(`TRF-${R1}`, 'TUMOR', `T1-${run}`, { 'Sample Site': 'Right lung' }),
      ]);
      await lab.SampleManifest.updateOne({ _id: ids.D }, { $set: { archived: true } }).exec();
      await recorded(ids.E, [row(`TRF-${R2}`, 'TUMOR', `T5-${run}`)]);
      await lab.SampleManifest.updateOne({ _id: ids.E }, { $set: { deleted: true } }).exec();
    },
  });

  /** The lab's consumer records an uploaded SAMPLE_MANIFEST (the job's add is left out: no queue here). */
  const recorded = (attachmentId: string, rows: unknown[][]) =>
    recordedManifest(sys.ctx, lab, {
      attachmentId,
      rows,
      uploader: { id: users.admin._id, name: 'Lab Admin' },
    });

  /** ...and the worker's code processes it to its verdict. */
  async function manifestProcessed(attachmentId: string, rows: unknown[][]) {
    const m = await recorded(attachmentId, rows);
    await processManifest({ ctx: sys.ctx, models: lab }, m, () => undefined);
  }

  type Who = keyof typeof h;
  const list = async (who: Who, filter?: Record<string, unknown>, extra = '') => {
    const qs = filter ? `?filter=${encodeURIComponent(JSON.stringify(filter))}${extra}` : extra;
    return sys.app.inject({ method: 'GET', url: `${PORTAL}/sampleManifests${qs}`, headers: h[who] });
  };
  const idsOf = async (who: Who, filter?: Record<string, unknown>) => {
    const res = await list(who, filter);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().content as { id: string }[]).map((m) => m.id).sort();
  };
  const sorted = (...xs: string[]) => [...xs].sort();

  it('records which requisitions a processed manifest changed, with their patient and counts', async () => {
    const since = new Date();
    const res = await list('admin', { archived: false, testOrderFormId: R1 });
    expect(res.statusCode, res.body).toBe(200);
    // the page served is an audit read naming the patients of the requisitions it shows
    const [read] = await auditEntriesSince(sys.ctx.mongo, since);
    expect(read).toMatchObject({ action: 'read', count: 1, what: { type: 'sample', id: null } });
    expect([...read.what.patientIds!].sort()).toEqual([P1, P3].sort());
    const body = res.json();
    expect(body.totalElements).toBe(1);
    expect(body.content).toEqual([
      {
        id: ids.A,
        name: `${ids.A}.csv`,
        status: 'PROCESSED',
        archived: false,
        account: { id: 'acc-LAB', name: 'Lab' },
        uploadedBy: { id: users.admin._id, name: 'Lab Admin' },
        uploadedOn: expect.any(String),
        processedOn: expect.any(String),
        createdOn: expect.any(String),
        updatedOn: expect.any(String),
        // in the order of their first row; the lab user sees every requisition
        requisitions: [
          { testOrderFormId: R1, testRequisitionId: `TRF-${R1}`, patientId: P1, created: 2, updated: 0 },
          { testOrderFormId: R3, testRequisitionId: `TRF-${R3}`, patientId: P3, created: 1, updated: 0 },
        ],
      },
    ]);
    // the archived manifest D updated R1's tumor: found when archived ones are asked for
    const archived = (await list('admin', { archived: 'eq(true)', testOrderFormId: R1 })).json();
    expect(archived.content.map((m: { id: string }) => m.id)).toEqual([ids.D]);
    expect(archived.content[0].requisitions).toEqual([
      { testOrderFormId: R1, testRequisitionId: `TRF-${R1}`, patientId: P1, created: 0, updated: 1 },
    ]);
  });

  it('filters by archived, patientId and testOrderFormId (both list dialects); a removed manifest is left out', async () => {
    expect(await idsOf('admin', { archived: false })).toEqual(sorted(ids.A, ids.B, ids.C));
    expect(await idsOf('admin', { archived: true })).toEqual([ids.D]);
    expect(await idsOf('admin')).toEqual(sorted(ids.A, ids.B, ids.C, ids.D));
    expect(await idsOf('admin', { archived: false, patientId: P2 })).toEqual([ids.B]);
    expect(await idsOf('admin', { patientId: `in(${P2}, ${P3})` })).toEqual(sorted(ids.A, ids.B));
    expect(await idsOf('admin', { archived: false, patientId: P1, testOrderFormId: R1 })).toEqual([ids.A]);
    // the requisition filters hold for one requisition: A changed R1 (P1) and R3 (P3), but no requisition of
    // P3 is R1
    expect(await idsOf('admin', { patientId: P3, testOrderFormId: R1 })).toEqual([]);
    // the ERROR manifest changed nothing: it belongs to no requisition
    expect(await idsOf('admin', { status: 'ERROR' })).toEqual([ids.C]);
    expect((await list('admin', { status: 'ERROR' })).json().content[0].requisitions).toEqual([]);
    // the removed one only when deleted ones are asked for
    expect(await idsOf('admin', { deleted: true })).toContain(ids.E);
    // ra-data-simple-rest: an array and Content-Range
    const simple = await sys.app.inject({
      method: 'GET',
      url: `${PORTAL}/sampleManifests?filter=${encodeURIComponent(JSON.stringify({ testOrderFormId: R2 }))}&range=[0,9]&sort=["uploadedOn","DESC"]`,
      headers: h.admin,
    });
    expect(simple.statusCode, simple.body).toBe(200);
    expect(simple.json().map((m: { id: string }) => m.id)).toEqual([ids.B]);
    expect(simple.headers['content-range']).toMatch(/\/1$/);
    // spec dialect paging: size 1, zero-based page, sorted by name
    const page = await list('admin', { archived: false }, '&size=1&page=1&sort=name,ASC');
    expect(page.json()).toMatchObject({
      totalElements: 3,
      content: [{ id: [ids.A, ids.B, ids.C].sort()[1] }],
    });
  });

  it("shows a provider the manifests that changed their requisitions, and only their requisitions' entries", async () => {
    // acc-M: A (R1) and B (R2), and D when archived ones are asked for; not C (no requisition of theirs)
    expect(await idsOf('npiM', { archived: false })).toEqual(sorted(ids.A, ids.B));
    expect(await idsOf('npiM')).toEqual(sorted(ids.A, ids.B, ids.D));
    const a = (await list('npiM', { testOrderFormId: R1, archived: false })).json().content;
    expect(a).toHaveLength(1);
    // R3 is acc-X's: not listed to them
    expect(a[0].requisitions).toEqual([
      { testOrderFormId: R1, testRequisitionId: `TRF-${R1}`, patientId: P1, created: 2, updated: 0 },
    ]);
    // a filter never finds a manifest through a requisition outside their scope (A changed R3 too)
    expect(await idsOf('npiM', { testOrderFormId: R3 })).toEqual([]);
    expect(await idsOf('npiM', { patientId: P3 })).toEqual([]);
    // acc-X sees A through R3, with R3's entry only
    const x = (await list('npiX', { patientId: P3 })).json().content;
    expect(x.map((m: { id: string }) => m.id)).toEqual([ids.A]);
    expect(x[0].requisitions.map((r: { testOrderFormId: string }) => r.testOrderFormId)).toEqual([R3]);
    // acc-Y: nothing of theirs
    expect(await idsOf('npiY')).toEqual([]);
    expect(await idsOf('npiY', { testOrderFormId: R1 })).toEqual([]);
  });

  it('refuses an unknown filter field, a bad value and an unknown sort as the other lists do (400)', async () => {
    const unknown = await list('admin', { archived: false, specimenId: 'x' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'BAD_REQUEST', details: { field: 'specimenId' } });
    expect(unknown.json().message).toMatch(/Filtering by specimenId is not supported/);
    const bad = await list('admin', { archived: 'maybe' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'BAD_REQUEST', details: { field: 'archived' } });
    const badId = await list('admin', { testOrderFormId: { $ne: 'x' } });
    expect(badId.statusCode).toBe(400);
    const sort = await list('admin', undefined, '?sort=errors,ASC');
    expect(sort.statusCode).toBe(400);
    expect(sort.json()).toMatchObject({ code: 'BAD_REQUEST', details: { field: 'errors' } });
  });
});
