import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { createEvent, safeParseEventJson } from '@onco/events';
import { requisitionModels, type RequisitionModels } from '@onco/requisitions';
import { auditModels, MULTIPART_NO_BOUNDARY, type InboxDoc } from '@onco/platform';
import { multipart, provider, useTestSystem, waitFor } from '@onco/testing';
import { createTestOrdersFromSubmission, labModels, seedDomainPreferences, type LabModels } from '../index';
import { handleAttachmentEvent } from './consumer';
import { parseManifestFile } from './parse';
import { planManifest } from './plan';
import {
  HEADER,
  daysAgo,
  encryptedWorkbook,
  manifestFile,
  readRows,
  row,
  submission,
  withFormula,
  zipBomb,
} from '../../test/manifests';

const PORTAL = '/portal/api/v1';

/**
 * Sample manifests end to end on the real services (Kafka, the store, Redis, the file store): upload through the
 * Attachment Box API -> attachment.changed -> the lab's consumer -> the sample-manifest job -> samples with
 * their `sample` events -> sample-manifest.processed -> the attachment's status. Every format, every error kind,
 * the dry run, the error file, the re-upload, the permissions.
 */
describe('sample manifests: upload -> worker -> samples and events -> attachment status', () => {
  let lab: LabModels;
  let reqs: RequisitionModels;
  const run = randomBytes(3).toString('hex');
  const R1 = `m1-${run}`; // NEXT_DX initial order, acc-M
  const R2 = `m2-${run}`; // NEXT_PERSONAL_DX subsequent order, acc-M (plasma allowed)
  const R3 = `m3-${run}`; // NEXT_DX initial order of another account, acc-X
  const R4 = `m4-${run}`; // NEXT_DX initial order, acc-M: gets only a tumor (reconciliation)
  const {
    sys,
    h,
    collector: samplesTopic,
  } = useTestSystem({
    kafka: { ensureTopics: true },
    config: { WORKERS: 'true', WORKER_MODULES: 'requisitions,lab' },
    prepare: async () => {
      lab = labModels(sys.ctx.mongo);
      reqs = requisitionModels(sys.ctx.mongo);
    },
    collect: ['sample'],
    users: {
      admin: 'ROLE_ADMINISTRATOR',
      npi: provider({ id: 'acc-M', name: 'Manifest Oncology' }, 'phy-M'),
      other: provider({ id: 'acc-Y', name: 'Other' }, 'phy-Y'),
    },
    seed: async () => {
      await seedDomainPreferences(lab);
      await createTestOrdersFromSubmission(lab, submission(R1));
      await createTestOrdersFromSubmission(
        lab,
        submission(R2, { testType: 'NEXT_PERSONAL_DX', orderType: 'SUBSEQUENT_ORDER' }),
      );
      await createTestOrdersFromSubmission(lab, submission(R3, { accountId: 'acc-X' }));
      await createTestOrdersFromSubmission(lab, submission(R4));
    },
    timeout: 180_000,
  });
  type Who = keyof typeof h;
  const trf = (id: string) => `TRF-${id}`;
  const tube = (s: string) => `${s}-${run}`;

  async function upload(name: string, data: Buffer, who: Who = 'admin') {
    const body = multipart([
      { name: 'type', value: 'SAMPLE_MANIFEST' },
      { name: 'accountId', value: 'acc-M' },
      { name: 'file', filename: name, data },
    ]);
    const res = await sys.app.inject({
      method: 'POST',
      url: `${PORTAL}/attachments/upload`,
      headers: { ...h[who], ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  }
  /** the attachment's verdict, as the Box lists it (the whole chain has run) */
  async function verdict(id: string) {
    return waitFor(
      async () => {
        const a = await reqs.Attachment.findById(id).lean().exec();
        return a && a.status !== 'UPLOADED' ? a : null;
      },
      { what: `the verdict of ${id}`, timeoutMs: 90_000, intervalMs: 200 },
    );
  }
  const manifest = async (id: string, who: Who = 'admin') =>
    sys.app.inject({ method: 'GET', url: `${PORTAL}/sampleManifests/${id}`, headers: h[who] });
  const sampleCount = () => lab.Sample.countDocuments({}).exec();
  async function expectError(name: string, data: Buffer, message: RegExp | string) {
    const before = await sampleCount();
    const id = await upload(name, data);
    const a = await verdict(id);
    expect(a.status, `${name}: ${a.errorDetails}`).toBe('ERROR');
    expect(a.errorDetails).toMatch(message);
    expect(a.processedOn).toBeInstanceOf(Date);
    expect(await sampleCount()).toBe(before);
    return { id, a };
  }

  let firstCsv: Buffer;
  let firstId = '';

  it('a valid .csv manifest creates the samples with their sample events; PROCESSED with counts and reconciliation', async () => {
    firstCsv = manifestFile(
      [
        HEADER,
        row(trf(R1), 'TUMOR', tube('T1')),
        row(trf(R1), 'NORMAL', tube('N1'), {
          Status: '',
          'Accession ID': 'A1',
          'Sample Group ID': `SG-${run}`,
        }),
        [],
        row(trf(R2), 'PLASMA', tube('P1'), { 'Collection Date': daysAgo(6), 'Received Date': daysAgo(3) }),
        row(trf(R4), 'TUMOR', tube('T4')),
      ],
      'csv',
    );
    firstId = await upload('first.csv', firstCsv);
    const a = await verdict(firstId);
    expect(a.status, a.errorDetails ?? '').toBe('PROCESSED');
    expect(a.errorDetails).toBeNull();
    const res = await manifest(firstId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      attachmentId: firstId,
      progress: null, // it has its verdict
      status: 'PROCESSED',
      rows: 4,
      created: 4,
      updated: 0,
      errors: [],
      missing: [
        { testOrderFormId: R4, testRequisitionId: trf(R4), expected: ['TUMOR', 'NORMAL'], found: ['TUMOR'] },
      ],
    });
    const made = await lab.Sample.find({
      specimenId: { $in: [tube('T1'), tube('N1'), tube('P1'), tube('T4')] },
    })
      .lean()
      .exec();
    expect(made).toHaveLength(4);
    const normal = made.find((s) => s.specimenId === tube('N1'))!;
    // a blank status with accession and group on an order that may proceed: PROCEED (the Samples tab's default)
    expect(normal).toMatchObject({
      type: 'NORMAL',
      status: 'PROCEED',
      sampleGroupId: `SG-${run}`,
      testOrderForm: { id: R1 },
    });
    expect(normal.workOrderNumber).toMatch(/^WO-PSNL/);
    expect(
      await lab.SampleGroup.findOne({ sampleGroupId: `SG-${run}` })
        .lean()
        .exec(),
    ).toMatchObject({ normals: [normal._id] });
    // each sample's `sample` event (created), published by the relay
    await waitFor(
      () => {
        const ids = samplesTopic.messages
          .map((m) => safeParseEventJson(m.value))
          .filter((p) => p.ok)
          .map((p) => (p as any).event.data);
        return made.every((s) => ids.some((d: any) => d.sampleId === s._id && d.change === 'created'));
      },
      { what: 'the sample events', timeoutMs: 30_000 },
    );
    // the order's Samples tab shows them (the same service)
    const tab = await sys.app.inject({
      method: 'GET',
      url: `/oms/api/v1/testOrderForms/${R1}/samples`,
      headers: h.admin,
    });
    expect(tab.json().tumors.map((s: any) => s.specimenId)).toEqual([tube('T1')]);
    // the uploader's role travelled with the attachment event (schemaVersion 2) to the lab's record of the
    // manifest, and its apply's audit entries name it (this system runs no chainer: they wait in the inbox)
    expect((await lab.SampleManifest.findById(firstId).lean().exec())!.uploaderRole).toBe(
      'ROLE_ADMINISTRATOR',
    );
    const applied = await auditModels(sys.ctx.mongo)
      .Inbox.find({ 'from.requestId': firstId, route: 'WORKER sample-manifest' })
      .lean<InboxDoc[]>()
      .exec();
    expect(applied.map((e) => e.what.type).sort()).toEqual([
      'sample',
      'sample',
      'sample',
      'sample',
      'sample-group',
    ]);
    for (const e of applied) expect(e.who.role).toBe('ROLE_ADMINISTRATOR');
  });

  it('a .xlsx manifest with date cells updates a sample by its Specimen ID (blank cells keep values) and creates one', async () => {
    const before = await lab.Sample.findOne({ specimenId: tube('T1') })
      .lean()
      .exec();
    const rows = [
      [...HEADER, 'Sample Name'],
      [
        ...row(trf(R1), 'TUMOR', tube('T1'), {
          'Specimen Type': '',
          'Sample Site': '',
          'Collection Date': '',
          'Received Date': '',
          'LIMS Project ID': '',
        }),
        'Block A',
      ],
      [
        ...row(trf(R4), 'NORMAL', tube('N4'), {
          'Collection Date': new Date(Date.now() - 9 * 86_400_000),
          'Received Date': new Date(Date.now() - 2 * 86_400_000),
        }),
        '',
      ],
    ];
    const id = await upload('second.xlsx', manifestFile(rows, 'xlsx'));
    const a = await verdict(id);
    expect(a.status, a.errorDetails ?? '').toBe('PROCESSED');
    expect((await manifest(id)).json()).toMatchObject({ created: 1, updated: 1, missing: [] });
    const after = await lab.Sample.findOne({ specimenId: tube('T1') })
      .lean()
      .exec();
    expect(after).toMatchObject({
      _id: before!._id,
      name: 'Block A',
      sampleSite: 'Lung',
      specimenType: 'FFPE_BLOCK',
      version: before!.version + 1,
    });
    expect(after!.collectedOn).toEqual(before!.collectedOn);
    const n4 = await lab.Sample.findOne({ specimenId: tube('N4') })
      .lean()
      .exec();
    expect(n4!.collectedOn!.toISOString().slice(0, 10)).toBe(daysAgo(9));
  });

  it('a .xls manifest (BIFF8) is read too, by Test ID', async () => {
    const rows = [HEADER.map((x) => (x === 'TRF #' ? 'Test ID' : x)), row(`TO-${R2}`, 'NORMAL', tube('N2'))];
    const a = await verdict(await upload('third.xls', manifestFile(rows, 'xls')));
    expect(a.status, a.errorDetails ?? '').toBe('PROCESSED');
    expect(
      await lab.Sample.findOne({ specimenId: tube('N2') })
        .lean()
        .exec(),
    ).toMatchObject({ testOrderForm: { id: R2 } });
  });

  it('every row error kind: ERROR with row-numbered details, nothing changed; the error file adds an Error column, neutralised', async () => {
    const rows = [
      [...HEADER, 'Notes'],
      [...row('TRF-NOPE', 'TUMOR', tube('E1')), '=HYPERLINK("http://x")'], // 2 unknown TRF
      [...row(trf(R3), 'TUMOR', tube('E2')), '+1'], // 3 out of scope? no: admin sees all; another account is fine
      [...row(trf(R1), 'TUMOR', tube('E3'), { 'Collection Date': '31/02/2025' }), '@SUM(A1)'], // 4 bad date
      [...row(trf(R1), 'TUMOR', tube('E3')), '-2'], // 5 duplicate tube id
      [...row(trf(R1), 'PLASMA', tube('E5')), ''], // 6 rule refused: plasma on a NEXT_DX initial order
      [...row(trf(R1), 'TUMOR', tube('E6'), { 'Collection Date': daysAgo(-5) }), ''], // 7 rule: in the future
      [...row(trf(R1), 'BONE' as 'TUMOR', tube('E7')), ''], // 8 bad sample type
      [...row(trf(R1), 'NORMAL', tube('E8'), { Status: 'CANCELLED' }), ''], // 9 rule: CANCELLED not offered on add
      [...row(trf(R1), 'TUMOR', '', {}), ''], // 10 missing tube id
    ];
    const csv = manifestFile(rows, 'csv');
    const { id, a } = await expectError('errors.csv', csv, /Row 2, TRF #: TRF # TRF-NOPE was not found/);
    const text = a.errorDetails!;
    expect(text).toContain('Row 4, Collection Date: Invalid date "31/02/2025"');
    expect(text).toMatch(/Row 5, Specimen ID: Specimen ID E3-\w+ appears twice in the file \(also row 4\)/);
    expect(text).toContain('Row 6, Sample Type: PLASMA samples cannot be added to this requisition.');
    expect(text).toMatch(/Row 7, Collection Date: Date must be no later than \d\d\/\d\d\/\d{4}/);
    expect(text).toContain('Row 8, Sample Type: Invalid sample type "BONE"');
    expect(text).toContain('Row 9, Status: The status CANCELLED cannot be chosen');
    expect(text).toContain('Row 10, Specimen ID: Specimen ID is required.');
    expect(text).not.toMatch(/Row 3\b/);
    const m = (await manifest(id)).json();
    expect(m).toMatchObject({ status: 'ERROR', created: 0, updated: 0, rows: 9 });
    expect(m.errors[0]).toEqual({ row: 2, column: 'TRF #', message: expect.stringContaining('TRF-NOPE') });

    const file = await sys.app.inject({
      method: 'GET',
      url: `${PORTAL}/sampleManifests/${id}/errors`,
      headers: h.admin,
    });
    expect(file.statusCode, file.body).toBe(200);
    expect(file.headers['content-type']).toMatch(/text\/csv/);
    expect(file.headers['content-disposition']).toContain('errors - errors.csv');
    const back = readRows(file.rawPayload);
    expect(back[0]).toEqual([...HEADER, 'Notes', 'Error']);
    expect(back[1][HEADER.length]).toBe(`'=HYPERLINK("http://x")`);
    expect(back[2][HEADER.length]).toBe("'+1");
    expect(back[3][HEADER.length]).toBe("'@SUM(A1)");
    expect(back[4][HEADER.length]).toBe("'-2");
    expect(back[1][HEADER.length + 1]).toContain('TRF # TRF-NOPE was not found');
    expect(back[2][HEADER.length + 1]).toBe('');
    // a PROCESSED manifest has no error file
    expect(
      (
        await sys.app.inject({
          method: 'GET',
          url: `${PORTAL}/sampleManifests/${firstId}/errors`,
          headers: h.admin,
        })
      ).statusCode,
    ).toBe(409);
  });

  it('the xlsx error file keeps the format', async () => {
    const { id } = await expectError(
      'bad.xlsx',
      manifestFile([HEADER, row('TRF-NOPE2', 'TUMOR', tube('X1'))], 'xlsx'),
      /not found/,
    );
    const file = await sys.app.inject({
      method: 'GET',
      url: `${PORTAL}/sampleManifests/${id}/errors`,
      headers: h.admin,
    });
    expect(file.headers['content-type']).toMatch(/spreadsheetml/);
    expect(readRows(file.rawPayload)[1].at(-1)).toContain('TRF-NOPE2');
  });

  it('a missing column, and bad files of every kind: ERROR with a clear reason, the worker keeps working', async () => {
    await expectError(
      'nocol.csv',
      manifestFile(
        [
          ['TRF #', 'Sample Type'],
          [trf(R1), 'TUMOR'],
        ],
        'csv',
      ),
      'Missing column: Specimen ID',
    );
    await expectError(
      'pdf.xlsx',
      Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF\n'),
      'The file is named .xlsx but is a PDF document',
    );
    await expectError('bomb.xlsx', zipBomb(), /unpacks to more than 400 MB/);
    await expectError('locked.xlsx', encryptedWorkbook(), /password-protected/);
    const wide = [Array.from({ length: 1000 }, (_, i) => (i < HEADER.length ? HEADER[i] : `C${i}`))];
    await expectError('wide.xlsx', manifestFile(wide, 'xlsx'), /Too many columns: the sheet has 1000/);
    await expectError(
      'formula.xlsx',
      withFormula([HEADER, row(trf(R1), 'TUMOR', tube('F1'))]),
      /Row 2, TRF #: Formulas are not accepted/,
    );
    const many = [
      'TRF #,Sample Type,Specimen ID',
      ...Array.from({ length: 200_000 }, (_, i) => `${trf(R1)},TUMOR,BIG-${i}`),
    ].join('\n');
    await expectError('many.csv', Buffer.from(many), /Too many rows: a manifest may have at most 100,000/);
    await expectError(
      'header-only.csv',
      Buffer.from(`${HEADER.join(',')}\n`),
      'The manifest has no sample rows',
    );
    await expectError(
      'latin1.csv',
      Buffer.from(`${HEADER.join(',')}\nTRF-1,TUMOR,Caf\u00e9\n`, 'latin1'),
      /not UTF-8 text/,
    );
    await expectError(
      'semicolon.csv',
      Buffer.from(`${HEADER.join(';')}\n${row(trf(R1), 'TUMOR', 'S1').join(';')}\n`),
      /separated by ";"/,
    );
    // an empty file is refused at upload
    const body = multipart([
      { name: 'type', value: 'SAMPLE_MANIFEST' },
      { name: 'accountId', value: 'acc-M' },
      { name: 'file', filename: 'empty.csv', data: Buffer.alloc(0) },
    ]);
    const res = await sys.app.inject({
      method: 'POST',
      url: `${PORTAL}/attachments/upload`,
      headers: { ...h.admin, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(400);
    // and the worker still applies a good one after all that
    const a = await verdict(
      await upload('after.csv', manifestFile([HEADER, row(trf(R4), 'TUMOR', tube('T4b'))], 'csv')),
    );
    expect(a.status, a.errorDetails ?? '').toBe('PROCESSED');
  }, 240_000);

  it('re-uploading the same content is recognised and not applied twice', async () => {
    const before = await sampleCount();
    const id = await upload('first-again.csv', firstCsv);
    const a = await verdict(id);
    expect(a.status).toBe('ERROR');
    expect(a.errorDetails).toMatch(
      /This file was already applied as first\.csv on \d{4}-\d{2}-\d{2} \(same content\): nothing was changed\./,
    );
    expect(await sampleCount()).toBe(before);
  });

  it('dry run: counts what would be created, updated and refused; applies nothing', async () => {
    const before = await sampleCount();
    const csv = manifestFile(
      [
        HEADER,
        row(trf(R1), 'TUMOR', tube('T1')),
        row(trf(R2), 'TUMOR', tube('D1')),
        row('TRF-NOPE', 'TUMOR', tube('D2')),
      ],
      'csv',
    );
    const body = multipart([{ name: 'file', filename: 'dry.csv', data: csv }]);
    // the same body without its boundary in the Content-Type: a 400 naming it (was a 500)
    const noBoundary = await sys.app.inject({
      method: 'POST',
      url: `${PORTAL}/sampleManifests/check`,
      headers: { ...h.admin, 'content-type': 'multipart/form-data' },
      payload: body.payload,
    });
    expect(noBoundary.statusCode, noBoundary.body).toBe(400);
    expect(noBoundary.json().message).toBe(MULTIPART_NO_BOUNDARY);
    const res = await sys.app.inject({
      method: 'POST',
      url: `${PORTAL}/sampleManifests/check`,
      headers: { ...h.admin, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      rows: 3,
      create: 1,
      update: 1,
      refused: 1,
      errors: [{ row: 4, column: 'TRF #' }],
      samples: [
        { row: 2, action: 'update', testOrderFormId: R1, testRequisitionId: trf(R1), type: 'TUMOR' },
        { row: 3, action: 'create', testOrderFormId: R2, type: 'TUMOR', name: tube('D1') },
      ],
    });
    expect(await sampleCount()).toBe(before);
    // the existing samples read one document each when the store cannot group them (an answer past 16 MB):
    // the same answer
    const grouped = vi.spyOn(lab.Sample.collection, 'aggregate').mockImplementationOnce(() => {
      throw new Error('BSONObjectTooLarge (test)');
    });
    const again = multipart([{ name: 'file', filename: 'dry.csv', data: csv }]);
    const res2 = await sys.app.inject({
      method: 'POST',
      url: `${PORTAL}/sampleManifests/check`,
      headers: { ...h.admin, ...again.headers },
      payload: again.payload,
    });
    expect(grouped).toHaveBeenCalledTimes(1);
    grouped.mockRestore();
    expect(res2.json()).toEqual(res.json());
    // the planned samples are listed up to samplesMax (the route's CHECK_SAMPLES_MAX); the counts are all rows'
    const short = await planManifest(
      lab,
      { by: { id: 'test', name: 'Test' }, scope: { allAccounts: true, accountIds: [], physicianIds: [] } },
      await parseManifestFile(csv, 'csv'),
      { now: new Date(), dryRun: true, samplesMax: 1 },
    );
    expect(short.samples.map((x) => [x.row, x.action])).toEqual([[2, 'update']]);
    expect([short.creates.length, short.updates.length, short.refused]).toEqual([1, 1, 1]);
    // an unreadable file: 200 with the reason on row 0
    const pdf = multipart([{ name: 'file', filename: 'x.xlsx', data: Buffer.from('%PDF-1.4 nothing') }]);
    const bad = await sys.app.inject({
      method: 'POST',
      url: `${PORTAL}/sampleManifests/check`,
      headers: { ...h.admin, ...pdf.headers },
      payload: pdf.payload,
    });
    expect(bad.json()).toMatchObject({
      rows: 0,
      errors: [{ row: 0, message: expect.stringContaining('PDF') }],
    });
  });

  it('permissions and scope: template, check needs VIEW_SAMPLE_ACTIONS, an uploader without it gets ERROR, 404 outside the scope', async () => {
    const tpl = await sys.app.inject({
      method: 'GET',
      url: `${PORTAL}/sampleManifests/template?format=csv`,
      headers: h.npi,
    });
    expect(tpl.statusCode).toBe(200);
    expect(readRows(tpl.rawPayload)[0]).toContain('Specimen ID');
    const x = await sys.app.inject({
      method: 'GET',
      url: `${PORTAL}/sampleManifests/template?format=xlsx`,
      headers: h.npi,
    });
    expect(readRows(x.rawPayload)[0][0]).toBe('TRF #');
    expect(
      (await sys.app.inject({ method: 'GET', url: `${PORTAL}/sampleManifests/template` })).statusCode,
    ).toBe(401);
    const body = multipart([{ name: 'file', filename: 'dry.csv', data: firstCsv }]);
    const check = await sys.app.inject({
      method: 'POST',
      url: `${PORTAL}/sampleManifests/check`,
      headers: { ...h.npi, ...body.headers },
      payload: body.payload,
    });
    expect(check.statusCode).toBe(403);
    const id = await upload(
      'npi.csv',
      manifestFile([HEADER, row(trf(R1), 'TUMOR', tube('Z1'))], 'csv'),
      'npi',
    );
    const a = await verdict(id);
    expect(a.errorDetails).toBe('File: You may not change samples (permission VIEW_SAMPLE_ACTIONS).');
    expect((await manifest(id, 'npi')).statusCode).toBe(200); // their own upload, their account
    expect((await manifest(firstId, 'npi')).statusCode).toBe(200); // acc-M is theirs
    expect((await manifest(firstId, 'other')).statusCode).toBe(404);
    expect((await manifest('no-such-manifest')).statusCode).toBe(404);
  });

  it("a row of a requisition outside the uploader's accounts reads as unknown", async () => {
    const csv = manifestFile(
      [HEADER, row(trf(R3), 'TUMOR', tube('S1')), row(trf(R1), 'TUMOR', tube('S2'))],
      'csv',
    );
    const stored = await sys.ctx.blobs.put(Readable.from([csv]));
    const attachmentId = `scoped-${run}`;
    // what an uploader of acc-M with the sample permission sends (no role has both today; the rule still holds)
    const event = createEvent('attachment', {
      data: {
        attachmentId,
        change: 'uploaded',
        type: 'SAMPLE_MANIFEST',
        name: 'scoped.csv',
        contentType: 'text/csv',
        size: stored.size,
        sha256: createHash('sha256').update(csv).digest('hex'),
        blobId: stored.id,
        accountId: 'acc-M',
        accountName: 'Manifest Oncology',
        requisitionId: null,
        uploadedBy: { id: 'u-scoped', name: 'Scoped' },
        uploaderScope: { allAccounts: false, accountIds: ['acc-M'], physicianIds: [], mayEditSamples: true },
        changedBy: { id: 'u-scoped', name: 'Scoped' },
        changedOn: new Date().toISOString(),
      },
    });
    const queues = (await import('../index')).defineSampleManifestQueue(sys.ctx, { models: lab });
    expect(await handleAttachmentEvent(lab, queues, event)).toBe('queued');
    expect(await handleAttachmentEvent(lab, queues, event)).toBe('queued'); // a redelivery: same record, same job
    const m = await waitFor(
      async () => {
        const d = await lab.SampleManifest.findById(attachmentId).lean().exec();
        return d && d.status !== 'UPLOADED' ? d : null;
      },
      { what: 'the scoped verdict', timeoutMs: 60_000 },
    );
    expect(m.status).toBe('ERROR');
    expect(m.errors).toEqual([
      {
        row: 2,
        column: 'TRF #',
        message: `TRF # ${trf(R3)} was not found among the submitted requisitions of your accounts.`,
      },
    ]);
    expect(await lab.Sample.countDocuments({ specimenId: tube('S2') }).exec()).toBe(0);
  });
});
