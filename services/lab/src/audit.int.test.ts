import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createEvent, EXAMPLE_DATA, type RequisitionChangedData } from '@onco/events';
import { MSG_AUDIT_UNAVAILABLE, type InboxDoc } from '@onco/platform';
import {
  auditEntriesSince,
  multipart,
  provider,
  useTestSystem,
  waitFor,
  withAuditEntriesRefused,
} from '@onco/testing';
import { isoDaysAgo } from '@onco/requisitions/testing';
import { oneTestSubmission } from '../test/events';
import { recordedManifest, row } from '../test/manifests';
import {
  applyRequisitionState,
  createLabModule,
  createTestOrdersFromSubmission,
  recordRequisitionChange,
  seedDomainPreferences,
  type LabModule,
  type SampleDoc,
  type SampleGroupDoc,
  type TestOrderDoc,
} from './index';
import { processManifest, type SampleManifestQueueHooks } from './manifests/process-manifest';
import { PENDING_REPORT_TTL_MS, sweepExpiredReportUploads, writeDecision } from './use-cases';

/**
 * A lab user's changes to a test order, a report or a sample commit with their audit entry (docs/audit.md
 * "Changes"), on the real store: one entry a change, naming who (and from which route), the record, its patient
 * and account, and the NAMES of the fields it changed, never their values; a change refused or lost records
 * nothing. The entries stay in the inbox (this system runs no chainer).
 */
const OMS = '/oms/api/v1';
const API = `${OMS}/testOrders`;
const run = randomBytes(3).toString('hex');
const ACCOUNT = 'acc-A';
/** values that must never appear in an entry (the patient's name is "Ada Lovelace" in the submission) */
const SECRET = { name: 'Lovelace', lims: `LP-SECRET-${run}`, file: `Lovelace-report-${run}.pdf` };

let lab: LabModule;
const { sys, h, users, call } = useTestSystem({
  prepare: async () => {
    lab = createLabModule(sys.ctx);
    await seedDomainPreferences(lab.models);
  },
  users: {
    // a portal administrator holds every permission (the lab's actions, samples and reports)
    admin: 'ROLE_PORTAL_ADMIN',
    npi: provider({ id: ACCOUNT, name: 'Alpha' }, 'phy-A'),
    other: provider({ id: 'acc-B', name: 'Beta' }, 'phy-B'),
  },
});

/** A requisition the lab knows through one NEXT_DX test order (made as its consumer makes it): its ids. */
async function labRequisition(n: number, patientId = `pat-${run}`) {
  const requisitionId = `req-audit-${run}-${n}`;
  await createTestOrdersFromSubmission(
    lab.models,
    oneTestSubmission(requisitionId, {
      accountId: ACCOUNT,
      accountName: 'Alpha Oncology',
      physicianId: 'phy-A',
      patientId,
      testType: 'NEXT_DX',
      orderType: 'INITIAL_ORDER',
      review: null,
      diagnosis: 'LUNG',
    }),
  );
  return { requisitionId, testId: `${requisitionId}-t1`, patientId };
}

/** the changes recorded since `since` (reads left out), oldest first */
const changesSince = (since: Date) => auditEntriesSince(sys.ctx.mongo, since, { changes: true });

/** exactly one change recorded since `since`, and it is about `id` */
async function oneChange(since: Date, id: string): Promise<InboxDoc> {
  const entries = await changesSince(since);
  expect(entries.map((e) => [e.what.type, e.what.id, e.action])).toHaveLength(1);
  expect(entries[0].what.id).toBe(id);
  return entries[0];
}

/** entries of one transaction share their instant: in the order of the record types given */
const byType = (entries: InboxDoc[], types: string[]) =>
  [...entries].sort((a, b) => types.indexOf(a.what.type) - types.indexOf(b.what.type));

/** `run` while the inbox refuses the entries `fails` picks (as a store that lost them would) */
const failingEntries = <T>(fails: (doc: InboxDoc) => boolean, run: () => Promise<T>): Promise<T> =>
  withAuditEntriesRefused(sys.ctx, run, fails);

const noValues = (entries: InboxDoc[]) => {
  const text = JSON.stringify(entries);
  for (const v of Object.values(SECRET)) expect(text).not.toContain(v);
};

const pdf = () =>
  Buffer.concat([Buffer.from('%PDF-1.7\n', 'latin1'), randomBytes(2_000), Buffer.from('\n%%EOF\n')]);
const upload = (testId: string, query = '') => {
  const { payload, contentType } = multipart(
    [{ name: 'file', filename: SECRET.file, data: pdf() }],
    'application/pdf',
  );
  return sys.app.inject({
    method: 'POST',
    url: `${API}/${testId}/reports/upload${query}`,
    headers: { ...h.admin, 'content-type': contentType },
    payload,
  });
};

/** The test order IN_PROGRESS (a report may be uploaded to it). */
async function inProgress(testId: string) {
  const res = await call('POST', `${API}/updateTestsStatus`, 'admin', {
    uuids: [testId],
    status: 'IN_PROGRESS',
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe('audit: changes of the lab commit with their entry', () => {
  it('a test order made from a submission is recorded as created by the system', async () => {
    const since = new Date();
    const { testId, patientId } = await labRequisition(1);
    const entry = await oneChange(since, testId);
    expect(entry).toMatchObject({
      who: { userId: 'system', role: 'SYSTEM' },
      what: { type: 'test', id: testId, patientId },
      action: 'create',
      outcome: 'allowed',
      onBehalfOf: [ACCOUNT],
      route: null,
    });
    expect(entry.changes).toEqual(expect.arrayContaining(['status', 'testType', 'testHistories']));
    for (const f of ['version', 'outbox', 'createdOn', 'updatedOn']) expect(entry.changes).not.toContain(f);
    noValues([entry]);
  });

  it('status, due date and LIMS project changes each leave one entry naming the fields changed', async () => {
    const { testId, patientId } = await labRequisition(2);
    const who = { userId: users.admin._id, role: 'ROLE_PORTAL_ADMIN' };
    const subject = { type: 'test', id: testId, patientId };

    let since = new Date();
    const status = await call('POST', `${API}/updateTestsStatus`, 'admin', {
      uuids: [testId],
      status: 'IN_PROGRESS',
    });
    expect(status.statusCode, status.body).toBe(200);
    const statusEntry = await oneChange(since, testId);
    expect(statusEntry).toMatchObject({
      who,
      what: subject,
      action: 'update',
      outcome: 'allowed',
      onBehalfOf: [ACCOUNT],
      route: `POST ${API}/updateTestsStatus`,
      from: { requestId: status.headers['x-request-id'] },
    });
    expect(statusEntry.changes).toEqual(['status', 'testHistories']);

    since = new Date();
    const dueOn = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
    const due = await call('POST', `${API}/updateDueDate`, 'admin', { uuid: testId, dueOn });
    expect(due.statusCode, due.body).toBe(200);
    const dueEntry = await oneChange(since, testId);
    expect(dueEntry).toMatchObject({
      who,
      what: subject,
      onBehalfOf: [ACCOUNT],
      route: `POST ${API}/updateDueDate`,
    });
    expect(dueEntry.changes).toEqual(['dueOn', 'testHistories']);

    since = new Date();
    const lims = await call('POST', `${API}/updateLimsProjectId`, 'admin', {
      uuid: testId,
      limsProjectId: SECRET.lims,
    });
    expect(lims.statusCode, lims.body).toBe(200);
    const limsEntry = await oneChange(since, testId);
    expect(limsEntry).toMatchObject({ who, what: subject, route: `POST ${API}/updateLimsProjectId` });
    expect(limsEntry.changes).toEqual(['limsProjectId', 'testHistories']);

    const all = [statusEntry, dueEntry, limsEntry];
    noValues(all);
    expect(JSON.stringify(all)).not.toContain(dueOn);
  });

  it('a report upload records the report created; its submit records the test changed', async () => {
    const { testId, patientId } = await labRequisition(3);
    await inProgress(testId);
    const who = { userId: users.admin._id, role: 'ROLE_PORTAL_ADMIN' };

    // step 1: the file, pending: the report itself is created (the test order does not change)
    let since = new Date();
    const up = await upload(testId);
    expect(up.statusCode, up.body).toBe(200);
    const uploaded = await oneChange(since, testId);
    expect(uploaded).toMatchObject({
      who,
      what: { type: 'report', id: testId, patientId },
      action: 'create',
      onBehalfOf: [ACCOUNT],
      route: `POST ${API}/:id/reports/upload`,
    });
    expect(uploaded.changes).toEqual(expect.arrayContaining(['fileName', 'blobId', 'testOrderId', 'size']));
    expect(uploaded.changes).not.toContain('createdOn');

    // step 2: submitted, in one transaction: the test order changes (its status, report versions and history)
    // and the pending report is marked submitted
    since = new Date();
    const filePath = up.json().filePath as string;
    const sub = await call('POST', `${API}/${testId}/reports/submit?filePath=${filePath}`, 'admin');
    expect(sub.statusCode, sub.body).toBe(200);
    const [submitted, marked] = byType(await changesSince(since), ['test', 'report']);
    expect(submitted).toMatchObject({
      who,
      what: { type: 'test', id: testId, patientId },
      action: 'update',
      onBehalfOf: [ACCOUNT],
      route: `POST ${API}/:id/reports/submit`,
    });
    expect(submitted.changes).toEqual([
      'report.path',
      'reports',
      'status',
      'testDuration',
      'testHistories',
      'testResult.contentType',
      'testResult.id',
      'testResult.path',
    ]);
    expect(marked).toMatchObject({
      who,
      what: { type: 'report', id: testId, patientId },
      action: 'update',
      onBehalfOf: [ACCOUNT],
      route: `POST ${API}/:id/reports/submit`,
      from: { requestId: sub.headers['x-request-id'] },
    });
    expect(marked.changes).toEqual(['submittedOn']);
    // submitted again: refused (409), nothing written, nothing recorded
    since = new Date();
    const again = await call('POST', `${API}/${testId}/reports/submit?filePath=${filePath}`, 'admin');
    expect(again.statusCode, again.body).toBe(409);
    expect(await changesSince(since)).toEqual([]);

    // the one-call upload (?submit=true) is all three: the report created, then the test changed and the report
    // marked submitted
    since = new Date();
    const both = await upload(testId, '?submit=true');
    expect(both.statusCode, both.body).toBe(200);
    const [created, ...rest] = await changesSince(since);
    expect(created).toMatchObject({ what: { type: 'report', id: testId }, action: 'create' });
    const three = [created, ...byType(rest, ['test', 'report'])];
    expect(three.map((e) => [e.what.type, e.what.id, e.action])).toEqual([
      ['report', testId, 'create'],
      ['test', testId, 'update'],
      ['report', testId, 'update'],
    ]);
    // a second version of the same name and flags: the status, file name and duration stay as they were
    expect(three[1].changes).toEqual(['reports', 'testHistories', 'testResult.id']);
    expect(three[2].changes).toEqual(['submittedOn']);
    noValues([uploaded, submitted, marked, ...three]);
  });

  it('when the pending report cannot be marked with its entry the submit is rolled back: a 503, the test order and the upload as they were', async () => {
    const { testId } = await labRequisition(8);
    await inProgress(testId);
    const up = await upload(testId);
    expect(up.statusCode, up.body).toBe(200);
    const filePath = up.json().filePath as string;
    const order = await lab.models.TestOrder.findById(testId).lean<TestOrderDoc>().exec();
    const pending = await lab.models.PendingReport.findById(filePath).lean().exec();
    const since = new Date();
    // the report's entry fails (the store lost it): the test order's, written before it in the transaction, too
    const res = await failingEntries(
      (doc) => doc.what.type === 'report',
      () => call('POST', `${API}/${testId}/reports/submit?filePath=${filePath}`, 'admin'),
    );
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json()).toMatchObject({ code: 'AUDIT_UNAVAILABLE', message: MSG_AUDIT_UNAVAILABLE });
    expect(await lab.models.TestOrder.findById(testId).lean<TestOrderDoc>().exec()).toEqual(order);
    expect(await lab.models.PendingReport.findById(filePath).lean().exec()).toEqual(pending);
    expect(await changesSince(since)).toEqual([]);
    // the store back: the same submit goes through once
    const retry = await call('POST', `${API}/${testId}/reports/submit?filePath=${filePath}`, 'admin');
    expect(retry.statusCode, retry.body).toBe(200);
    expect((await changesSince(since)).map((e) => [e.what.type, e.action]).sort()).toEqual([
      ['report', 'update'],
      ['test', 'update'],
    ]);
  });

  it("a pending report's preview is a download of the test's report; a patient's LIMS projects a read of the patient", async () => {
    const { testId, patientId } = await labRequisition(40);
    await inProgress(testId);
    const up = await upload(testId);
    expect(up.statusCode, up.body).toBe(200);
    const since = new Date();
    const preview = await call('GET', `${API}/reports/file?filePath=${up.json().filePath}`, 'admin');
    expect(preview.statusCode).toBe(200);
    const lims = await call('POST', `${OMS}/getLimsInfo`, 'admin', { id: patientId });
    expect(lims.statusCode, lims.body).toBe(200);
    const entries = await auditEntriesSince(sys.ctx.mongo, since);
    expect(entries.map((e) => [e.what.type, e.action, e.what.id, e.what.patientId, e.route])).toEqual([
      ['report', 'download', testId, patientId, `GET ${API}/reports/file`],
      ['patient', 'read', patientId, patientId, `POST ${OMS}/getLimsInfo`],
    ]);
    expect(entries[0].onBehalfOf).toEqual([ACCOUNT]);
    expect(JSON.stringify(entries)).not.toContain(SECRET.file);
  });

  it('expired pending reports swept leave one report delete each, by the system; a sweep of what is gone records nothing', async () => {
    const { testId, patientId } = await labRequisition(9);
    await inProgress(testId);
    const filePathOf = async (query = '') => {
      const up = await upload(testId, query);
      expect(up.statusCode, up.body).toBe(200);
      return up.json().filePath as string;
    };
    // one left pending, one submitted: both expire
    const open = await filePathOf();
    const done = await filePathOf('?submit=true');
    const expire = (ids: string[]) =>
      lab.models.PendingReport.updateMany(
        { _id: { $in: ids } },
        { $set: { expiresOn: new Date(Date.now() - PENDING_REPORT_TTL_MS) } },
      ).exec();
    await expire([open, done]);
    const system = { userId: 'system', role: 'SYSTEM', name: '' };
    const removal = {
      who: system,
      what: { type: 'report', id: testId, patientId },
      action: 'delete',
      outcome: 'allowed',
      onBehalfOf: [ACCOUNT],
      from: { ip: null, userAgent: null, requestId: null },
      route: null,
    };

    let since = new Date();
    // two sweeps at once: each upload is removed, and recorded, once
    await Promise.all([
      sweepExpiredReportUploads(lab, sys.ctx.blobs),
      sweepExpiredReportUploads(lab, sys.ctx.blobs),
    ]);
    expect(await lab.models.PendingReport.countDocuments({ _id: { $in: [open, done] } }).exec()).toBe(0);
    const swept = (await changesSince(since)).sort(
      (a, b) => a.changes!.length - b.changes!.length, // the submitted one also names submittedOn
    );
    expect(swept).toHaveLength(2);
    for (const e of swept) expect(e).toMatchObject(removal);
    expect(swept[0].changes).toEqual(
      expect.arrayContaining(['blobId', 'expiresOn', 'fileName', 'testOrderId']),
    );
    expect(swept[0].changes).not.toContain('submittedOn');
    expect(swept[1].changes).toEqual([...swept[0].changes!, 'submittedOn'].sort());
    for (const f of ['_id', 'createdOn']) expect(swept[1].changes).not.toContain(f);
    // a sweep again: nothing left to remove, nothing recorded
    since = new Date();
    expect(await sweepExpiredReportUploads(lab, sys.ctx.blobs)).toBe(0);
    expect(await changesSince(since)).toEqual([]);

    // the sweep an upload runs beside its answer is the system's too, not the uploader's
    const stale = await filePathOf();
    await expire([stale]);
    since = new Date();
    const beside = await waitFor(
      async () => {
        const removed = (await changesSince(since)).filter((e) => e.action === 'delete');
        if (removed.length) return removed;
        // an upload (again, when a sweep an earlier upload started was still running: the route runs one at a time)
        await filePathOf();
        return null;
      },
      { what: 'the sweep beside an upload', timeoutMs: 10_000 },
    );
    expect(beside).toHaveLength(1);
    expect(beside[0]).toMatchObject(removal);
    expect(await lab.models.PendingReport.exists({ _id: stale }).exec()).toBeNull();
    noValues([...swept, ...beside]);
  });

  it('a sweep whose entry cannot be written removes nothing', async () => {
    const { testId } = await labRequisition(10);
    await inProgress(testId);
    const up = await upload(testId);
    expect(up.statusCode, up.body).toBe(200);
    const filePath = up.json().filePath as string;
    await lab.models.PendingReport.updateOne(
      { _id: filePath },
      { $set: { expiresOn: new Date(Date.now() - PENDING_REPORT_TTL_MS) } },
    ).exec();
    const since = new Date();
    await expect(
      failingEntries(
        () => true,
        () => sweepExpiredReportUploads(lab, sys.ctx.blobs),
      ),
    ).rejects.toMatchObject({ statusCode: 503, code: 'AUDIT_UNAVAILABLE' });
    expect(await lab.models.PendingReport.exists({ _id: filePath }).exec()).not.toBeNull();
    expect(await changesSince(since)).toEqual([]);
    // the next sweep removes it, recorded once
    expect(await sweepExpiredReportUploads(lab, sys.ctx.blobs)).toBe(1);
    expect((await changesSince(since)).map((e) => [e.what.type, e.what.id, e.action])).toEqual([
      ['report', testId, 'delete'],
    ]);
  });

  it('a sample created, changed and copied each leave one entry naming the fields changed', async () => {
    const { requisitionId, patientId } = await labRequisition(4);
    const target = await labRequisition(5, patientId);
    const who = { userId: users.admin._id, role: 'ROLE_PORTAL_ADMIN' };
    const tumor = {
      status: 'ON_HOLD',
      specimenId: 'BLK-2026_01',
      specimenType: 'FFPE_BLOCK',
      sampleSite: 'Right upper lobe',
      limsProjectId: 'LP-100',
      collectedOn: isoDaysAgo(10),
      receivedOn: isoDaysAgo(5),
    };

    let since = new Date();
    const created = await call('POST', `${OMS}/createSampleSource`, 'admin', {
      id: requisitionId,
      tumors: [tumor],
    });
    expect(created.statusCode, created.body).toBe(200);
    const sample = created.json().tumors[0] as { id: string; version: number };
    const create = await oneChange(since, sample.id);
    expect(create).toMatchObject({
      who,
      what: { type: 'sample', id: sample.id, patientId },
      action: 'create',
      onBehalfOf: [ACCOUNT],
      route: `POST ${OMS}/createSampleSource`,
    });
    expect(create.changes).toEqual(
      expect.arrayContaining(['patient.firstName', 'patient.lastName', 'sampleSite', 'status', 'type']),
    );
    for (const f of ['version', 'outbox', 'createdOn', 'createdBy']) expect(create.changes).not.toContain(f);

    since = new Date();
    const changed = await call('PUT', `${OMS}/updateSampleSource`, 'admin', {
      id: requisitionId,
      tumors: [{ ...tumor, id: sample.id, version: sample.version, sampleSite: 'Left lower lobe' }],
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const update = await oneChange(since, sample.id);
    expect(update).toMatchObject({
      who,
      what: { type: 'sample', id: sample.id, patientId },
      action: 'update',
      onBehalfOf: [ACCOUNT],
      route: `PUT ${OMS}/updateSampleSource`,
    });
    expect(update.changes).toEqual(['sampleSite']);

    since = new Date();
    const copied = await call('POST', `${OMS}/copySampleSource`, 'admin', {
      sourceMergeTrfId: requisitionId,
      toTestOrderForm: { id: target.requisitionId, tumors: [{ id: sample.id }] },
    });
    expect(copied.statusCode, copied.body).toBe(200);
    const copyId = copied.json().tumors[0].id as string;
    const copy = await oneChange(since, copyId);
    expect(copy).toMatchObject({
      who,
      what: { type: 'sample', id: copyId, patientId },
      action: 'create',
      route: `POST ${OMS}/copySampleSource`,
    });
    expect(copy.changes).toEqual(expect.arrayContaining(['copiedFrom.sampleId', 'testOrderForm.id']));
    // a retried copy adds nothing, and records nothing
    since = new Date();
    const again = await call('POST', `${OMS}/copySampleSource`, 'admin', {
      sourceMergeTrfId: requisitionId,
      toTestOrderForm: { id: target.requisitionId, tumors: [{ id: sample.id }] },
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(await changesSince(since)).toEqual([]);
    noValues([create, update, copy]);
    expect(JSON.stringify([create, update, copy])).not.toContain('lobe');
  });

  it("a sample joining, leaving or changing its sample group leaves the group's entry in the sample's transaction", async () => {
    const { requisitionId, patientId } = await labRequisition(11);
    const target = await labRequisition(12, patientId);
    const who = { userId: users.admin._id, role: 'ROLE_PORTAL_ADMIN' };
    const [first, second] = [`SG-${run}-a`, `SG-${run}-b`];
    const groupOf = async (sampleGroupId: string) =>
      (await lab.models.SampleGroup.findOne({ sampleGroupId }).lean<SampleGroupDoc>().exec())!;
    const tumor = {
      status: 'ON_HOLD',
      specimenId: 'BLK-2026_11',
      specimenType: 'FFPE_BLOCK',
      sampleSite: 'Right upper lobe',
      limsProjectId: 'LP-100',
      sampleGroupId: first,
      collectedOn: isoDaysAgo(10),
      receivedOn: isoDaysAgo(5),
    };
    const ofGroup = (id: string, route: string, res: { headers: Record<string, unknown> }) => ({
      who,
      what: { type: 'sample-group', id, patientId },
      onBehalfOf: [ACCOUNT],
      outcome: 'allowed',
      route,
      from: { requestId: res.headers['x-request-id'] },
    });
    const entries = async (since: Date) => byType(await changesSince(since), ['sample', 'sample-group']);

    // a tumor in a new group: the sample and the group created
    let since = new Date();
    const made = await call('POST', `${OMS}/createSampleSource`, 'admin', {
      id: requisitionId,
      tumors: [tumor],
    });
    expect(made.statusCode, made.body).toBe(200);
    const sample = made.json().tumors[0] as { id: string; version: number };
    const a = await groupOf(first);
    expect(a.tumors).toEqual([sample.id]);
    let [ofSample, ofA, ofB] = await entries(since);
    expect(ofSample).toMatchObject({ what: { type: 'sample', id: sample.id }, action: 'create' });
    expect(ofA).toMatchObject({
      ...ofGroup(a._id, `POST ${OMS}/createSampleSource`, made),
      action: 'create',
    });
    expect(ofA.changes).toEqual(
      expect.arrayContaining(['normals', 'plasmas', 'sampleGroupId', 'testOrderForm.id', 'tumors']),
    );
    for (const f of ['createdOn', 'createdBy', 'updatedOn', 'version']) expect(ofA.changes).not.toContain(f);

    // a normal joins it: the group changed, its normals
    since = new Date();
    const normal = await call('POST', `${OMS}/createSampleSource`, 'admin', {
      id: requisitionId,
      normals: [
        {
          status: 'PROCEED',
          specimenType: 'BLOOD',
          limsProjectId: 'LP-100',
          accessionId: 'N11',
          sampleGroupId: first,
          collectedOn: isoDaysAgo(4),
          receivedOn: isoDaysAgo(2),
        },
      ],
    });
    expect(normal.statusCode, normal.body).toBe(200);
    [ofSample, ofA] = await entries(since);
    expect(ofSample).toMatchObject({ what: { type: 'sample' }, action: 'create' });
    expect(ofA).toMatchObject({
      ...ofGroup(a._id, `POST ${OMS}/createSampleSource`, normal),
      action: 'update',
    });
    expect(ofA.changes).toEqual(['normals']);

    // the tumor moves to another group: it leaves the first (its tumors), the second is made
    since = new Date();
    const moved = await call('PUT', `${OMS}/updateSampleSource`, 'admin', {
      id: requisitionId,
      tumors: [{ ...tumor, id: sample.id, version: sample.version, sampleGroupId: second }],
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const b = await groupOf(second);
    expect((await groupOf(first)).tumors).toEqual([]);
    [ofSample, ...[ofA, ofB]] = await entries(since);
    if (ofA.what.id !== a._id) [ofA, ofB] = [ofB, ofA];
    expect(ofSample).toMatchObject({ what: { type: 'sample', id: sample.id }, action: 'update' });
    expect(ofSample.changes).toEqual(['sampleGroupId']);
    expect(ofA).toMatchObject({
      ...ofGroup(a._id, `PUT ${OMS}/updateSampleSource`, moved),
      action: 'update',
    });
    expect(ofA.changes).toEqual(['tumors']);
    expect(ofB).toMatchObject({
      ...ofGroup(b._id, `PUT ${OMS}/updateSampleSource`, moved),
      action: 'create',
    });

    // a change that keeps its group: the group is not written, nothing recorded for it
    since = new Date();
    const site = await call('PUT', `${OMS}/updateSampleSource`, 'admin', {
      id: requisitionId,
      tumors: [
        { ...tumor, id: sample.id, version: sample.version + 1, sampleGroupId: second, sampleSite: 'Hilum' },
      ],
    });
    expect(site.statusCode, site.body).toBe(200);
    expect((await changesSince(since)).map((e) => [e.what.type, e.action])).toEqual([['sample', 'update']]);
    expect((await groupOf(second)).updatedOn).toEqual(b.updatedOn);

    // a copy joins the group of its source; a retried copy adds and records nothing
    since = new Date();
    const copy = () =>
      call('POST', `${OMS}/copySampleSource`, 'admin', {
        sourceMergeTrfId: requisitionId,
        toTestOrderForm: { id: target.requisitionId, tumors: [{ id: sample.id }] },
      });
    const copied = await copy();
    expect(copied.statusCode, copied.body).toBe(200);
    const copyId = copied.json().tumors[0].id as string;
    expect((await groupOf(second)).tumors).toEqual([sample.id, copyId]);
    [ofSample, ofB] = await entries(since);
    expect(ofSample).toMatchObject({ what: { type: 'sample', id: copyId }, action: 'create' });
    expect(ofB).toMatchObject({
      ...ofGroup(b._id, `POST ${OMS}/copySampleSource`, copied),
      action: 'update',
    });
    expect(ofB.changes).toEqual(['tumors']);
    since = new Date();
    expect((await copy()).statusCode).toBe(200);
    expect(await changesSince(since)).toEqual([]);
    noValues([ofA, ofB]);
    for (const v of ['lobe', 'Hilum', 'BLK-2026']) expect(JSON.stringify([ofA, ofB])).not.toContain(v);
  });

  it('the first samples of one new group at once: the group made once, one entry each', async () => {
    const group = `SG-${run}-d`;
    const reqs = await Promise.all([14, 15, 16].map((n) => labRequisition(n)));
    const since = new Date();
    const made = await Promise.all(
      reqs.map(({ requisitionId }, i) =>
        call('POST', `${OMS}/createSampleSource`, 'admin', {
          id: requisitionId,
          tumors: [
            {
              status: 'ON_HOLD',
              specimenId: `BLK-2026_1${4 + i}`,
              specimenType: 'FFPE_BLOCK',
              sampleSite: 'Right upper lobe',
              limsProjectId: 'LP-100',
              sampleGroupId: group,
              collectedOn: isoDaysAgo(10),
              receivedOn: isoDaysAgo(5),
            },
          ],
        }),
      ),
    );
    for (const res of made) expect(res.statusCode, res.body).toBe(200);
    const ids = made.map((res) => res.json().tumors[0].id as string);
    const doc = (await lab.models.SampleGroup.findOne({ sampleGroupId: group })
      .lean<SampleGroupDoc>()
      .exec())!;
    expect([...doc.tumors].sort()).toEqual([...ids].sort());
    const entries = (await changesSince(since)).filter((e) => e.what.type === 'sample-group');
    expect(entries.map((e) => [e.what.id, e.action]).sort()).toEqual([
      [doc._id, 'create'],
      [doc._id, 'update'],
      [doc._id, 'update'],
    ]);
    for (const e of entries.filter((x) => x.action === 'update')) expect(e.changes).toEqual(['tumors']);
  });

  it("when a sample group's entry cannot be written the sample is rolled back too: a 503, neither written", async () => {
    const { requisitionId } = await labRequisition(13);
    const group = `SG-${run}-c`;
    const since = new Date();
    const res = await failingEntries(
      (doc) => doc.what.type === 'sample-group',
      () =>
        call('POST', `${OMS}/createSampleSource`, 'admin', {
          id: requisitionId,
          tumors: [
            {
              status: 'ON_HOLD',
              specimenId: 'BLK-2026_13',
              specimenType: 'FFPE_BLOCK',
              sampleSite: 'Right upper lobe',
              limsProjectId: 'LP-100',
              sampleGroupId: group,
              collectedOn: isoDaysAgo(10),
              receivedOn: isoDaysAgo(5),
            },
          ],
        }),
    );
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json()).toMatchObject({ code: 'AUDIT_UNAVAILABLE', message: MSG_AUDIT_UNAVAILABLE });
    expect(await lab.models.Sample.countDocuments({ 'testOrderForm.id': requisitionId }).exec()).toBe(0);
    expect(await lab.models.SampleGroup.exists({ sampleGroupId: group }).exec()).toBeNull();
    expect(await changesSince(since)).toEqual([]);
  });

  it('a change refused or lost records nothing', async () => {
    const { requisitionId, testId } = await labRequisition(6);
    const created = await call('POST', `${OMS}/createSampleSource`, 'admin', {
      id: requisitionId,
      tumors: [
        {
          status: 'ON_HOLD',
          specimenId: 'BLK-2026_02',
          specimenType: 'FFPE_BLOCK',
          sampleSite: 'Right upper lobe',
          limsProjectId: 'LP-100',
          collectedOn: isoDaysAgo(10),
          receivedOn: isoDaysAgo(5),
        },
      ],
    });
    expect(created.statusCode, created.body).toBe(200);
    const sample = created.json().tumors[0] as { id: string; version: number };
    const since = new Date();

    // refused: no permission (403), outside the scope (404), a rule (409 a transition, 400 a due date)
    const status = (who: 'admin' | 'npi' | 'other', to: string) =>
      call('POST', `${API}/updateTestsStatus`, who, { uuids: [testId], status: to });
    expect((await status('npi', 'IN_PROGRESS')).statusCode).toBe(403);
    expect((await status('other', 'IN_PROGRESS')).statusCode).toBe(403);
    expect((await status('admin', 'TEST_SELECTED')).statusCode).toBe(409);
    const farOff = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
    expect(
      (await call('POST', `${API}/updateDueDate`, 'admin', { uuid: testId, dueOn: farOff })).statusCode,
    ).toBe(400);
    expect(
      (await call('POST', `${API}/updateDueDate`, 'admin', { uuid: 'no-such-test', dueOn: null })).statusCode,
    ).toBe(404);
    // a report on a test not started yet is refused before a byte is stored
    expect((await upload(testId)).statusCode).toBe(409);
    // a stale sample change (the version read is behind)
    const stale = await call('PUT', `${OMS}/updateSampleSource`, 'admin', {
      id: requisitionId,
      tumors: [{ id: sample.id, version: sample.version + 1, status: 'ON_HOLD', specimenType: 'FFPE_BLOCK' }],
    });
    expect(stale.statusCode, stale.body).toBe(409);

    // lost: the test order changed after it was read (another user's write won): nothing written or recorded
    const read = (await lab.models.TestOrder.findById(testId).lean<TestOrderDoc>().exec())!;
    await lab.models.TestOrder.updateOne({ _id: testId }, { $inc: { version: 1 } }).exec();
    const lost = await writeDecision(
      { models: lab.models },
      read,
      { change: 'status', status: 'IN_PROGRESS' },
      { id: users.admin._id, name: 'Admin' },
      new Date(),
    );
    expect(lost).toBeNull();
    expect((await lab.models.TestOrder.findById(testId).lean<TestOrderDoc>().exec())!.status).toBe(
      'TEST_ORDERED',
    );

    expect(await changesSince(since)).toEqual([]);
  });
  it('when the entry cannot be written the change is rolled back: a 503, the test order as it was', async () => {
    const { testId } = await labRequisition(7);
    const before = await lab.models.TestOrder.findById(testId).lean<TestOrderDoc>().exec();
    const res = await failingEntries(
      () => true,
      () => call('POST', `${API}/updateTestsStatus`, 'admin', { uuids: [testId], status: 'IN_PROGRESS' }),
    );
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json()).toMatchObject({ code: 'AUDIT_UNAVAILABLE', message: MSG_AUDIT_UNAVAILABLE });
    // status, history and the test-status event in its outbox: none of them written
    expect(await lab.models.TestOrder.findById(testId).lean<TestOrderDoc>().exec()).toEqual(before);
  });
});

describe("audit: the lab's bulk and system writes commit with their entries", () => {
  const uploader = () => ({ id: users.admin._id, name: 'Lab Admin', role: 'ROLE_PORTAL_ADMIN' });

  /**
   * A SAMPLE_MANIFEST as the lab's consumer records it (no queue here; its attachment event of `schemaVersion`,
   * the current by default), then the worker's code on it.
   */
  async function manifest(
    attachmentId: string,
    rows: unknown[][],
    hooks?: SampleManifestQueueHooks,
    schemaVersion?: number,
  ) {
    const m = await recordedManifest(sys.ctx, lab.models, {
      attachmentId,
      rows,
      uploader: uploader(),
      schemaVersion,
    });
    return processManifest({ ctx: sys.ctx, models: lab.models, hooks }, m, () => undefined);
  }
  const trf = (requisitionId: string) => `TRF-${requisitionId}`;
  const tube = (s: string) => `${s}-${run}`;
  const samplesOf = (specimenIds: string[]) =>
    lab.models.Sample.find({ specimenId: { $in: specimenIds } })
      .lean<SampleDoc[]>()
      .exec();

  it("a manifest applied leaves one entry a sample it creates or changes, by its uploader, naming the sample's patient", async () => {
    const a = await labRequisition(20, `pat-${run}-20`);
    const b = await labRequisition(21, `pat-${run}-21`);
    // the uploader's role as the attachment event carried it
    const who = { userId: users.admin._id, role: 'ROLE_PORTAL_ADMIN', name: 'Lab Admin' };
    const worker = (attachmentId: string) => ({
      who,
      onBehalfOf: [ACCOUNT],
      outcome: 'allowed',
      from: { ip: null, userAgent: null, requestId: attachmentId },
      route: 'WORKER sample-manifest',
    });

    // three new samples of two requisitions (two patients)
    let since = new Date();
    const first = `audit-manifest-${run}-1`;
    const res = await manifest(first, [
      row(trf(a.requisitionId), 'TUMOR', tube('AT1')),
      row(trf(a.requisitionId), 'NORMAL', tube('AN1')),
      row(trf(b.requisitionId), 'TUMOR', tube('BT1')),
    ]);
    expect(res).toMatchObject({ outcome: 'PROCESSED', created: 3, updated: 0 });
    const made = await samplesOf([tube('AT1'), tube('AN1'), tube('BT1')]);
    expect(made).toHaveLength(3);
    const created = await changesSince(since);
    expect(created.map((e) => e.what.id).sort()).toEqual(made.map((s) => s._id).sort());
    for (const e of created) {
      const sample = made.find((s) => s._id === e.what.id)!;
      expect(e).toMatchObject({
        ...worker(first),
        what: { type: 'sample', id: sample._id, patientId: sample.patient!.id },
        action: 'create',
      });
      expect(e.changes).toEqual(
        expect.arrayContaining([
          'patient.firstName',
          'patient.id',
          'patient.lastName',
          'specimenId',
          'specimenType',
          'status',
          'testOrderForm.id',
          'type',
        ]),
      );
      for (const f of ['version', 'outbox', 'createdOn', 'createdBy', 'updatedOn', 'updatedBy'])
        expect(e.changes).not.toContain(f);
    }
    expect(created.map((e) => e.what.patientId).sort()).toEqual([a.patientId, a.patientId, b.patientId]);

    // one sample changed (its site), one more created
    since = new Date();
    const second = `audit-manifest-${run}-2`;
    const res2 = await manifest(second, [
      row(trf(a.requisitionId), 'TUMOR', tube('AT1'), { 'Sample Site': 'Left lower lobe' }),
      row(trf(b.requisitionId), 'NORMAL', tube('BN1')),
    ]);
    expect(res2).toMatchObject({ outcome: 'PROCESSED', created: 1, updated: 1 });
    const [changed] = await samplesOf([tube('AT1')]);
    const [added] = await samplesOf([tube('BN1')]);
    const entries = await changesSince(since);
    expect(entries.map((e) => [e.what.id, e.action]).sort()).toEqual(
      [
        [changed._id, 'update'],
        [added._id, 'create'],
      ].sort(),
    );
    const update = entries.find((e) => e.action === 'update')!;
    expect(update).toMatchObject({
      ...worker(second),
      what: { type: 'sample', id: changed._id, patientId: a.patientId },
    });
    expect(update.changes).toEqual(['sampleSite']);
    expect(entries.find((e) => e.action === 'create')).toMatchObject({
      ...worker(second),
      what: { type: 'sample', id: added._id, patientId: b.patientId },
    });
    // names of fields, never their values (the patient's name is on every sample; the tube ids, the site)
    const all = [...created, ...entries];
    noValues(all);
    for (const v of ['Ada', 'lobe', 'Lung', tube('AT1'), tube('BN1'), 'LP-1'])
      expect(JSON.stringify(all)).not.toContain(v);
  });

  it("a manifest's sample groups each leave one entry by its uploader; a group it leaves as it was, none", async () => {
    const a = await labRequisition(24, `pat-${run}-24`);
    const [first, second] = [`MG-${run}-1`, `MG-${run}-2`];
    const groupOf = async (sampleGroupId: string) =>
      (await lab.models.SampleGroup.findOne({ sampleGroupId }).lean<SampleGroupDoc>().exec())!;
    const byUploader = (attachmentId: string) => ({
      who: { userId: users.admin._id, role: 'ROLE_PORTAL_ADMIN', name: 'Lab Admin' },
      onBehalfOf: [ACCOUNT],
      outcome: 'allowed',
      from: { ip: null, userAgent: null, requestId: attachmentId },
      route: 'WORKER sample-manifest',
    });
    const groupEntries = async (since: Date) =>
      (await changesSince(since)).filter((e) => e.what.type === 'sample-group');

    // a tumor and a normal of one patient in a new group: the group created once
    let since = new Date();
    const one = `audit-manifest-${run}-g1`;
    const res = await manifest(one, [
      row(trf(a.requisitionId), 'TUMOR', tube('GT1'), { 'Sample Group ID': first }),
      row(trf(a.requisitionId), 'NORMAL', tube('GN1'), { 'Sample Group ID': first }),
    ]);
    expect(res).toMatchObject({ outcome: 'PROCESSED', created: 2 });
    const g1 = await groupOf(first);
    const [tumor] = await samplesOf([tube('GT1')]);
    const [normal] = await samplesOf([tube('GN1')]);
    expect(g1).toMatchObject({ tumors: [tumor._id], normals: [normal._id] });
    const created = await groupEntries(since);
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({
      ...byUploader(one),
      what: { type: 'sample-group', id: g1._id, patientId: a.patientId },
      action: 'create',
    });
    expect(created[0].changes).toEqual(
      expect.arrayContaining(['normals', 'plasmas', 'sampleGroupId', 'testOrderForm.id', 'tumors']),
    );
    for (const f of ['createdOn', 'createdBy', 'updatedOn', 'version'])
      expect(created[0].changes).not.toContain(f);

    // the tumor moves to a new group, the normal changes in its group (already in it): the first group loses its
    // tumor (one entry naming tumors only), the second is made
    since = new Date();
    const two = `audit-manifest-${run}-g2`;
    const res2 = await manifest(two, [
      row(trf(a.requisitionId), 'TUMOR', tube('GT1'), { 'Sample Group ID': second }),
      row(trf(a.requisitionId), 'NORMAL', tube('GN1'), { 'Sample Group ID': first, 'Accession ID': 'ACC-9' }),
    ]);
    expect(res2).toMatchObject({ outcome: 'PROCESSED', updated: 2 });
    const g2 = await groupOf(second);
    expect(await groupOf(first)).toMatchObject({ tumors: [], normals: [normal._id] });
    expect(g2).toMatchObject({ tumors: [tumor._id] });
    const changed = await groupEntries(since);
    expect(changed.map((e) => [e.what.id, e.action]).sort()).toEqual(
      [
        [g1._id, 'update'],
        [g2._id, 'create'],
      ].sort(),
    );
    for (const e of changed)
      expect(e).toMatchObject({ ...byUploader(two), what: { type: 'sample-group', patientId: a.patientId } });
    expect(changed.find((e) => e.what.id === g1._id)!.changes).toEqual(['tumors']);
    noValues([...created, ...changed]);
    for (const v of [tube('GT1'), tube('GN1'), 'ACC-9'])
      expect(JSON.stringify([...created, ...changed])).not.toContain(v);
  });

  it('a manifest recorded from an older attachment event (schemaVersion 1, no role) is applied under the role UNKNOWN', async () => {
    const { requisitionId, patientId } = await labRequisition(25);
    const older = `audit-manifest-${run}-v1`;
    const current = `audit-manifest-${run}-v2`;
    const since = new Date();
    expect(
      await manifest(older, [row(trf(requisitionId), 'TUMOR', tube('VT1'))], undefined, 1),
    ).toMatchObject({
      outcome: 'PROCESSED',
      created: 1,
    });
    expect(await manifest(current, [row(trf(requisitionId), 'NORMAL', tube('VN1'))])).toMatchObject({
      outcome: 'PROCESSED',
      created: 1,
    });
    // what the manifest records keep of the uploader
    const kept = await lab.models.SampleManifest.find({ _id: { $in: [older, current] } }, { uploaderRole: 1 })
      .lean()
      .exec();
    expect(Object.fromEntries(kept.map((m) => [m._id, m.uploaderRole]))).toEqual({
      [older]: null,
      [current]: 'ROLE_PORTAL_ADMIN',
    });
    const entries = await changesSince(since);
    expect(entries.map((e) => [e.from.requestId, e.what.type, e.who.role])).toEqual([
      [older, 'sample', 'UNKNOWN'],
      [current, 'sample', 'ROLE_PORTAL_ADMIN'],
    ]);
    for (const e of entries)
      expect(e).toMatchObject({ who: { userId: users.admin._id, name: 'Lab Admin' }, what: { patientId } });
  });

  it('a manifest refused, or one whose apply is rolled back, records nothing', async () => {
    const { requisitionId } = await labRequisition(22);
    const before = await lab.models.Sample.countDocuments({ 'testOrderForm.id': requisitionId }).exec();
    const since = new Date();
    // refused: a row names an unknown requisition (nothing of the file is applied)
    const refused = await manifest(`audit-manifest-${run}-3`, [
      row(trf(requisitionId), 'TUMOR', tube('CT1')),
      row(`TRF-nope-${run}`, 'TUMOR', tube('CT2')),
    ]);
    expect(refused).toMatchObject({ outcome: 'ERROR' });
    // rolled back: the apply fails halfway through its transaction, after the first samples and their entries
    // were written in it
    const killed = `audit-manifest-${run}-4`;
    await expect(
      manifest(
        killed,
        [row(trf(requisitionId), 'TUMOR', tube('CT3')), row(trf(requisitionId), 'NORMAL', tube('CN3'))],
        {
          midApply: async () => {
            throw new Error('the worker died halfway (test)');
          },
        },
      ),
    ).rejects.toThrow(/died halfway/);
    expect((await lab.models.SampleManifest.findById(killed).lean().exec())!.status).toBe('UPLOADED');
    expect(await lab.models.Sample.countDocuments({ 'testOrderForm.id': requisitionId }).exec()).toBe(before);
    expect(await changesSince(since)).toEqual([]);
  });

  /** A requisition-changed event for a requisition of `labRequisition`, its parties as its test order shows them. */
  function changed(
    order: TestOrderDoc,
    over: Partial<RequisitionChangedData> & Pick<RequisitionChangedData, 'requisitionVersion'>,
  ) {
    const f = order.testOrderForm;
    return createEvent('requisition-changed', {
      data: {
        ...EXAMPLE_DATA['requisition-changed'],
        requisitionId: f.id,
        testRequisitionId: f.testRequisitionId!,
        changes: ['parties-changed'],
        status: 'SUBMITTED',
        deleted: false,
        clinicalReviewStatus: f.reviewStatus ?? null,
        previousClinicalReviewStatus: f.reviewStatus ?? null,
        accountId: f.account!.id!,
        accountName: f.account!.name ?? 'Alpha Oncology',
        physicianId: f.physician!.id!,
        physicianName: f.physician?.name ?? 'Dr. One',
        hospitalLocationId: null,
        hospitalLocationName: null,
        patientId: f.patient!.id!,
        patientName: f.patient?.name ?? 'Ada Lovelace',
        patientNumber: f.patient?.userId ?? null,
        testOrders: [{ id: order._id, testOrderId: order.testOrderId! }],
        changedBy: { id: 'user-2', name: 'Dr. Two' },
        changedOn: new Date().toISOString(),
        ...over,
      },
    });
  }
  /** What the requisition-changed consumer does with an event: record the state, copy it into the test orders. */
  async function consume(event: ReturnType<typeof changed>) {
    expect(await recordRequisitionChange(lab.models, event)).toBe(true);
    return applyRequisitionState(lab.models, event.data.requisitionId);
  }

  it('a requisition change the consumer copies into its test orders leaves test updates by the system naming the copied fields; samples moved to another patient, sample updates', async () => {
    const { requisitionId, testId, patientId } = await labRequisition(23);
    const order = async () => (await lab.models.TestOrder.findById(testId).lean<TestOrderDoc>().exec())!;
    const system = { userId: 'system', role: 'SYSTEM', name: '' };
    const made = await call('POST', `${OMS}/createSampleSource`, 'admin', {
      id: requisitionId,
      tumors: [
        {
          status: 'ON_HOLD',
          specimenId: 'BLK-2026_23',
          specimenType: 'FFPE_BLOCK',
          sampleSite: 'Right upper lobe',
          limsProjectId: 'LP-100',
          collectedOn: isoDaysAgo(10),
          receivedOn: isoDaysAgo(5),
        },
      ],
    });
    expect(made.statusCode, made.body).toBe(200);
    const sampleId = made.json().tumors[0].id as string;
    await lab.models.TestOrder.updateOne(
      { _id: testId },
      { $set: { dueOn: new Date('2030-01-15T00:00:00Z') } },
    ).exec();

    // 1. the clinical review DISQUALIFIED: the review status copied, the due date removed (with its history)
    let since = new Date();
    const first = changed(await order(), { requisitionVersion: 2, clinicalReviewStatus: 'DISQUALIFIED' });
    expect(await consume(first)).toEqual([testId]);
    const review = await oneChange(since, testId);
    expect(review).toMatchObject({
      who: system,
      what: { type: 'test', id: testId, patientId },
      action: 'update',
      outcome: 'allowed',
      onBehalfOf: [ACCOUNT],
      route: null,
      from: { ip: null, userAgent: null, requestId: null },
    });
    // (the physician's name too: the test order made from the submission had none)
    expect(review.changes).toEqual([
      'dueOn',
      'testHistories',
      'testOrderForm.physician.name',
      'testOrderForm.reviewStatus',
    ]);

    // 2. the requisition moved to another patient (a merge): the test order's patient, and its samples'
    since = new Date();
    const moved = `pat-${run}-23b`;
    const second = changed(await order(), {
      requisitionVersion: 3,
      patientId: moved,
      patientName: 'Ada King',
      patientNumber: 'PAT-23',
    });
    expect(await consume(second)).toEqual([testId]);
    // one transaction's entries share their instant: in the order of their record type here
    const entries = (await changesSince(since)).sort((x, y) => y.what.type.localeCompare(x.what.type));
    expect(entries.map((e) => [e.what.type, e.what.id, e.action])).toEqual([
      ['test', testId, 'update'],
      ['sample', sampleId, 'update'],
    ]);
    expect(entries[0]).toMatchObject({ who: system, what: { patientId: moved }, onBehalfOf: [ACCOUNT] });
    expect(entries[0].changes).toEqual([
      'testOrderForm.patient.id',
      'testOrderForm.patient.name',
      'testOrderForm.patient.userId',
    ]);
    expect(entries[1]).toMatchObject({
      who: system,
      what: { type: 'sample', patientId: moved },
      onBehalfOf: [ACCOUNT],
    });
    expect(entries[1].changes).toEqual(['patient.id']);
    expect((await lab.models.Sample.findById(sampleId).lean<SampleDoc>().exec())!.patient!.id).toBe(moved);

    // 3. a save that changes nothing the lab copies: the version moves on the test order, no entry
    since = new Date();
    expect(await consume(changed(await order(), { requisitionVersion: 4 }))).toEqual([testId]);
    expect((await order()).testOrderForm.requisitionVersion).toBe(4);
    // and a state applied again (a redelivery) writes and records nothing
    expect(await applyRequisitionState(lab.models, requisitionId)).toEqual([]);
    expect(await changesSince(since)).toEqual([]);

    const all = [review, ...entries];
    noValues(all);
    for (const v of ['Ada', 'King', 'PAT-23', 'DISQUALIFIED', '2030'])
      expect(JSON.stringify(all)).not.toContain(v);
  });
});
