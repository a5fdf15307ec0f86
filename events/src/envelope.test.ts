import { describe, expect, it } from 'vitest';
import {
  CURRENT_SCHEMA_VERSION,
  EVENT_FAMILIES,
  EVENT_TYPES,
  EXAMPLE_DATA,
  createEvent,
  familyOfType,
  isEventOf,
  parseEvent,
  safeParseEvent,
  safeParseEventJson,
  type EventFamily,
} from './index';

const fixed = {
  now: () => new Date('2025-03-01T14:05:00.000Z'),
  newId: () => '0f8fad5b-d9cb-469f-a165-70867728950e',
};

function example<F extends EventFamily>(family: F) {
  return createEvent(family, { data: structuredClone(EXAMPLE_DATA[family]), traceId: 'trace-1' }, fixed);
}

describe('createEvent', () => {
  it('builds an envelope with the injected clock and id', () => {
    const event = createEvent(
      'test-status',
      {
        subject: 'to-1',
        data: { ...EXAMPLE_DATA['test-status'], testOrderId: 'to-1' },
        source: '/lab/x',
        traceId: 't-9',
      },
      fixed,
    );
    expect(event).toEqual({
      id: '0f8fad5b-d9cb-469f-a165-70867728950e',
      type: 'test.status-changed',
      source: '/lab/x',
      subject: 'to-1',
      time: '2025-03-01T14:05:00.000Z',
      schemaVersion: 2,
      traceId: 't-9',
      data: { ...EXAMPLE_DATA['test-status'], testOrderId: 'to-1' },
    });
  });

  it.each(EVENT_FAMILIES)('defaults subject, source and traceId for %s', (family) => {
    const event = example(family);
    expect(event.type).toBe(EVENT_TYPES[family]);
    expect(event.schemaVersion).toBe(CURRENT_SCHEMA_VERSION[family]);
    expect(event.source.startsWith('/')).toBe(true);
    expect(event.traceId).toBe('trace-1');
    const subjectByFamily = {
      'requisition-submitted': EXAMPLE_DATA['requisition-submitted'].requisitionId,
      'requisition-changed': EXAMPLE_DATA['requisition-changed'].requisitionId,
      'test-status': EXAMPLE_DATA['test-status'].testOrderId,
      sample: EXAMPLE_DATA.sample.sampleId,
      'billing-case': EXAMPLE_DATA['billing-case'].billingCaseId,
      attachment: EXAMPLE_DATA.attachment.attachmentId,
      'sample-manifest': EXAMPLE_DATA['sample-manifest'].attachmentId,
      patient: EXAMPLE_DATA.patient.patientId,
      'patient-requisitions': EXAMPLE_DATA['patient-requisitions'].mergeId,
      audit: EXAMPLE_DATA.audit.entryId,
    };
    expect(event.subject).toBe(subjectByFamily[family]);
    // round trip through JSON (what the outbox stores and Kafka carries)
    expect(parseEvent(JSON.parse(JSON.stringify(event)))).toEqual(event);
  });

  it('uses the event id as traceId when none is given, and random uuids by default', () => {
    const a = createEvent('sample', { data: EXAMPLE_DATA.sample });
    const b = createEvent('sample', { data: EXAMPLE_DATA.sample });
    expect(a.id).not.toBe(b.id);
    expect(a.traceId).toBe(a.id);
    expect(a.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('rejects invalid data so an invalid event is never stored', () => {
    expect(() =>
      createEvent(
        'test-status',
        { data: { ...EXAMPLE_DATA['test-status'], status: 'DONE' as never } },
        fixed,
      ),
    ).toThrow();
    expect(() =>
      createEvent('sample', { data: { ...EXAMPLE_DATA.sample, type: 'BLOOD' as never } }, fixed),
    ).toThrow();
    expect(() =>
      createEvent('sample', { data: EXAMPLE_DATA.sample }, { ...fixed, newId: () => 'not-a-uuid' }),
    ).toThrow();
  });
});

describe('schemas', () => {
  it('accepts nullable fields as null', () => {
    expect(() =>
      createEvent(
        'billing-case',
        {
          data: {
            ...EXAMPLE_DATA['billing-case'],
            previousStatus: null,
            billingCode: null,
            errorDetails: null,
          },
        },
        fixed,
      ),
    ).not.toThrow();
    expect(() =>
      createEvent(
        'test-status',
        { data: { ...EXAMPLE_DATA['test-status'], previousStatus: null, dueOn: null } },
        fixed,
      ),
    ).not.toThrow();
    expect(() =>
      createEvent('sample', { data: { ...EXAMPLE_DATA.sample, status: null, limsId: null } }, fixed),
    ).not.toThrow();
    expect(() =>
      createEvent(
        'requisition-submitted',
        {
          data: {
            ...EXAMPLE_DATA['requisition-submitted'],
            clinicalReviewStatus: null,
            icd10Codes: [],
            testOrders: [],
          },
        },
        fixed,
      ),
    ).not.toThrow();
  });

  it('rejects missing fields, wrong enums and malformed values', () => {
    const bad: [EventFamily, Record<string, unknown>][] = [
      ['requisition-submitted', { ...EXAMPLE_DATA['requisition-submitted'], patientId: undefined }],
      ['requisition-submitted', { ...EXAMPLE_DATA['requisition-submitted'], icd10Codes: ['lung cancer'] }],
      ['requisition-submitted', { ...EXAMPLE_DATA['requisition-submitted'], createPdf: 'yes' }],
      [
        'requisition-submitted',
        {
          ...EXAMPLE_DATA['requisition-submitted'],
          testOrders: [{ ...EXAMPLE_DATA['requisition-submitted'].testOrders[0], testType: 'NEXT_GEN' }],
        },
      ],
      ['test-status', { ...EXAMPLE_DATA['test-status'], dueOn: '03/20/2025' }],
      ['test-status', { ...EXAMPLE_DATA['test-status'], changedOn: 'yesterday' }],
      ['test-status', { ...EXAMPLE_DATA['test-status'], orderType: 'FOLLOW_UP' }],
      ['sample', { ...EXAMPLE_DATA.sample, change: 'deleted' }],
      ['sample', { ...EXAMPLE_DATA.sample, status: 'HOLD' }],
      ['billing-case', { ...EXAMPLE_DATA['billing-case'], caseStatus: 'PAID' }],
      ['billing-case', { ...EXAMPLE_DATA['billing-case'], changedBy: 'system' }],
    ];
    for (const [family, data] of bad) {
      const envelope = { ...example(family), data };
      const r = safeParseEvent(JSON.parse(JSON.stringify(envelope)));
      expect(r.ok, `${family} ${JSON.stringify(data).slice(0, 80)}`).toBe(false);
    }
  });

  it('accepts every billing case status in the full list', () => {
    const statuses = [
      'NOT_SUBMITTED',
      'READY_TO_SUBMIT',
      'QUEUED_FOR_SUBMISSION',
      'SUBMITTED_TO_XIFIN',
      'ACCEPTED_BY_XIFIN',
      'PARTIALLY_ACCEPTED',
      'REJECTED_BY_XIFIN',
      'DUPLICATE_ACCESSION',
      'PAYOR_SYSTEM_DOWN',
      'UPDATE_NOT_ALLOWED',
      'ON_HOLD_EXTERNAL',
      'RETRY_SCHEDULED',
      'RETRY_IN_PROGRESS',
      'RETRY_SUCCEEDED',
      'RETRY_FAILED',
      'CANCELLED',
      'RETIRED_FROM_BILLING',
      'BILLING_COMPLETE',
      'FIXED_IN_XIFIN',
      'DOC_UPLOAD_SUCCEEDED',
      'DOC_UPLOAD_PARTIAL',
      'DOC_UPLOAD_FAILED',
    ] as const;
    for (const caseStatus of statuses) {
      expect(() =>
        createEvent('billing-case', { data: { ...EXAMPLE_DATA['billing-case'], caseStatus } }, fixed),
      ).not.toThrow();
    }
  });
});

describe('parsing envelopes', () => {
  it('rejects a bad envelope', () => {
    const good = JSON.parse(JSON.stringify(example('sample')));
    for (const patch of [
      { id: 'nope' },
      { time: '2025-13-01' },
      { schemaVersion: 0 },
      { schemaVersion: 1.5 },
      { subject: '' },
      { traceId: undefined },
      { type: 'sample.deleted' },
    ]) {
      const r = safeParseEvent({ ...good, ...patch });
      expect(r.ok, JSON.stringify(patch)).toBe(false);
    }
    expect(safeParseEvent(null).ok).toBe(false);
    expect(safeParseEvent('x').ok).toBe(false);
  });

  it('parses JSON, reports non-JSON and empty values', () => {
    const event = example('billing-case');
    const ok = safeParseEventJson(Buffer.from(JSON.stringify(event)));
    expect(ok.ok && ok.family).toBe('billing-case');
    const notJson = safeParseEventJson('{"id":');
    expect(notJson.ok).toBe(false);
    if (!notJson.ok) expect(notJson.error.message).toMatch(/not JSON/);
    expect(safeParseEventJson(null).ok).toBe(false);
    expect(safeParseEventJson('').ok).toBe(false);
  });

  it('is forward compatible: unknown fields are stripped and newer schemaVersions parse', () => {
    const event = JSON.parse(JSON.stringify(example('test-status')));
    event.schemaVersion = 3;
    event.extra = 'x';
    event.data.newField = 'added in v3';
    const parsed = parseEvent(event);
    expect(parsed.schemaVersion).toBe(3);
    expect('extra' in parsed).toBe(false);
    expect('newField' in parsed.data).toBe(false);
  });

  it('requisition-submitted schemaVersion 2 adds the names; a schemaVersion 1 event without them still parses', () => {
    const v2 = JSON.parse(JSON.stringify(example('requisition-submitted')));
    expect(v2.schemaVersion).toBe(5);
    v2.schemaVersion = 2;
    delete v2.data.diagnosis;
    delete v2.data.billing;
    expect(parseEvent(v2).data).toMatchObject({
      accountName: 'Pacific Oncology Associates',
      patientNumber: 'PAT-000123',
    });
    const v1 = structuredClone(v2);
    v1.schemaVersion = 1;
    for (const k of [
      'accountName',
      'physicianName',
      'hospitalLocationId',
      'hospitalLocationName',
      'patientName',
      'patientNumber',
    ])
      delete v1.data[k];
    const parsed = parseEvent(v1);
    expect(parsed.schemaVersion).toBe(1);
    expect('accountName' in parsed.data).toBe(false);
    // a v1 consumer (the v1 schema) reading a v2 event drops the names and keeps the rest
    const asV1 = parseEvent({ ...v2, schemaVersion: 1 });
    expect('patientName' in asV1.data).toBe(false);
  });

  it('test-status v2, requisition-changed v2 and requisition-submitted v3 are additive: older readers still parse them', () => {
    const ts = JSON.parse(JSON.stringify(example('test-status')));
    expect(ts.schemaVersion).toBe(2);
    expect(parseEvent(ts).data).toMatchObject({ change: 'status', limsProjectId: 'LP-2025-0042' });
    const tsV1 = parseEvent({ ...ts, schemaVersion: 1 });
    expect('change' in tsV1.data).toBe(false);
    expect(tsV1.data).toMatchObject({ status: 'IN_PROGRESS' });
    const rc = JSON.parse(JSON.stringify(example('requisition-changed')));
    expect(rc.schemaVersion).toBeGreaterThanOrEqual(2);
    expect('mergedInto' in parseEvent({ ...rc, schemaVersion: 1 }).data).toBe(false);
    const rs = JSON.parse(JSON.stringify(example('requisition-submitted')));
    expect(parseEvent(rs).data).toMatchObject({ diagnosis: 'LUNG' });
    expect('diagnosis' in parseEvent({ ...rs, schemaVersion: 2 }).data).toBe(false);
  });

  it('requisition-submitted and requisition-changed v4 add the billing summary; v3 readers drop it', () => {
    const rs = JSON.parse(JSON.stringify(example('requisition-submitted')));
    expect(rs.schemaVersion).toBe(5);
    expect((parseEvent({ ...rs, schemaVersion: 4 }).data as { billing?: unknown }).billing).toEqual({
      billingType: 'MEDICARE',
      payorId: 'PAYOR-00431',
      payorName: 'Medicare Part B',
      patientAddressComplete: true,
    });
    expect('billing' in parseEvent({ ...rs, schemaVersion: 3 }).data).toBe(false);
    // a bad billing type is refused
    const bad = { ...rs, data: { ...rs.data, billing: { ...rs.data.billing, billingType: 'BARTER' } } };
    expect(safeParseEvent(bad).ok).toBe(false);
    const rc = JSON.parse(JSON.stringify(example('requisition-changed')));
    expect(rc.schemaVersion).toBe(8);
    const changed = parseEvent({ ...rc, data: { ...rc.data, changes: ['billing-changed'] } });
    expect(changed.data).toMatchObject({ changes: ['billing-changed'], icd10Codes: ['C34.90', 'C78.01'] });
    const asV3 = parseEvent({ ...rc, schemaVersion: 3 }).data;
    expect('billing' in asV3 || 'icd10Codes' in asV3).toBe(false);
  });

  it('requisition-changed v5 adds patient-changed with patientMerge; v4 readers drop patientMerge', () => {
    const rc = JSON.parse(JSON.stringify(example('requisition-changed')));
    const patientMerge = { mergeId: 'm-1', direction: 'merge', fromPatientId: 'pat-1', total: 3 };
    const moved = { ...rc, data: { ...rc.data, changes: ['patient-changed'], patientMerge } };
    expect(parseEvent(moved).data).toMatchObject({ changes: ['patient-changed'], patientMerge });
    expect('patientMerge' in parseEvent({ ...moved, schemaVersion: 4 }).data).toBe(false);
    const bad = {
      ...moved,
      data: { ...moved.data, patientMerge: { ...patientMerge, direction: 'sideways' } },
    };
    expect(safeParseEvent(bad).ok).toBe(false);
  });

  it('requisition-changed v6 adds form-edited with changedFields; v5 readers drop changedFields', () => {
    const rc = JSON.parse(JSON.stringify(example('requisition-changed')));
    const edited = {
      ...rc,
      data: { ...rc.data, changes: ['form-edited'], changedFields: ['tumorSpecimen.stage'] },
    };
    expect(parseEvent(edited).data).toMatchObject({
      changes: ['form-edited'],
      changedFields: ['tumorSpecimen.stage'],
    });
    expect('changedFields' in parseEvent({ ...edited, schemaVersion: 6 }).data).toBe(true);
    expect('changedFields' in parseEvent({ ...edited, schemaVersion: 5 }).data).toBe(false);
  });

  it('requisition-changed v7 adds financial-assistance-changed with the outcome; v6 readers drop it', () => {
    const rc = JSON.parse(JSON.stringify(example('requisition-changed')));
    const fa = {
      ...rc,
      data: { ...rc.data, changes: ['financial-assistance-changed'], financialAssistanceOutcome: 'DENIED' },
    };
    expect(parseEvent(fa).data).toMatchObject({
      changes: ['financial-assistance-changed'],
      financialAssistanceOutcome: 'DENIED',
    });
    expect('financialAssistanceOutcome' in parseEvent({ ...fa, schemaVersion: 6 }).data).toBe(false);
    const bad = { ...fa, data: { ...fa.data, financialAssistanceOutcome: 'MAYBE' } };
    expect(safeParseEvent(bad).ok).toBe(false);
  });

  it("attachment v2 adds the uploader's role; v1 readers drop it, and a v1 event without it still parses", () => {
    const a = JSON.parse(JSON.stringify(example('attachment')));
    expect(a.schemaVersion).toBe(2);
    expect(parseEvent(a).data).toMatchObject({ uploaderRole: 'ROLE_ADMINISTRATOR' });
    expect(parseEvent({ ...a, data: { ...a.data, uploaderRole: null } }).data).toMatchObject({
      uploaderRole: null,
    });
    expect('uploaderRole' in parseEvent({ ...a, schemaVersion: 1 }).data).toBe(false);
    const { uploaderRole: _role, ...v1 } = a.data;
    const older = parseEvent({ ...a, schemaVersion: 1, data: v1 });
    expect(older.schemaVersion).toBe(1);
    expect(older.data).toMatchObject({ uploadedBy: { id: 'usr-7', name: 'Lab Admin' } });
    expect(safeParseEvent({ ...a, data: { ...a.data, uploaderRole: 'R'.repeat(101) } }).ok).toBe(false);
  });

  it('patient and patient-requisitions events parse and are keyed by the target patient and the merge', () => {
    const p = example('patient');
    expect(p).toMatchObject({ type: 'patient.changed', subject: 'pat-3003', source: '/portal/patients' });
    expect(safeParseEvent({ ...p, data: { ...p.data, sourceIds: [] } }).ok).toBe(false);
    const m = example('patient-requisitions');
    expect(m).toMatchObject({ type: 'patient-requisitions.moved', subject: m.data.mergeId });
  });

  it('requisition-changed needs at least one change and a known change kind', () => {
    const e = JSON.parse(JSON.stringify(example('requisition-changed')));
    expect(parseEvent(e).data).toMatchObject({ changes: ['clinical-review-changed'], requisitionVersion: 7 });
    expect(safeParseEvent({ ...e, data: { ...e.data, changes: [] } }).ok).toBe(false);
    expect(safeParseEvent({ ...e, data: { ...e.data, changes: ['renamed'] } }).ok).toBe(false);
  });

  it('narrows by family', () => {
    const e = parseEvent(JSON.parse(JSON.stringify(example('test-status'))));
    expect(familyOfType(e.type)).toBe('test-status');
    expect(familyOfType('constructor')).toBeUndefined();
    if (isEventOf(e, 'test-status')) expect(e.data.status).toBe('IN_PROGRESS');
    else throw new Error('expected a test-status event');
    expect(isEventOf(e, 'sample')).toBe(false);
  });
  it('requisition-submitted v5 and requisition-changed v8 say what Medicare needs and the form lacks; older readers drop it', () => {
    for (const family of ['requisition-submitted', 'requisition-changed'] as const) {
      const e = JSON.parse(JSON.stringify(example(family)));
      e.data.billing.medicareDataMissing = ['drugName', 'stage'];
      expect((parseEvent(e).data as { billing?: { medicareDataMissing?: string[] } }).billing).toMatchObject({
        medicareDataMissing: ['drugName', 'stage'],
      });
      const older = parseEvent({ ...e, schemaVersion: e.schemaVersion - 1 }).data as { billing?: object };
      expect('medicareDataMissing' in older.billing!).toBe(false);
      const bad = {
        ...e,
        data: { ...e.data, billing: { ...e.data.billing, medicareDataMissing: ['mood'] } },
      };
      expect(safeParseEvent(bad).ok).toBe(false);
    }
  });
  it("audit v2: a list read names its rows' patients; a v1 reader drops them; a sign-in is a new action value", () => {
    const e = JSON.parse(JSON.stringify(example('audit')));
    expect(e.schemaVersion).toBe(2);
    const list = {
      ...e,
      data: {
        ...e.data,
        what: { type: 'requisition', id: null, patientId: null, patientIds: ['pat-1', 'pat-2'] },
      },
    };
    expect(parseEvent(list).data).toMatchObject({ what: { patientIds: ['pat-1', 'pat-2'] } });
    expect('patientIds' in (parseEvent({ ...list, schemaVersion: 1 }).data as { what: object }).what).toBe(
      false,
    );
    const signIn = {
      ...e,
      data: { ...e.data, action: 'sign-in', what: { type: 'user', id: 'usr-7', patientId: null } },
    };
    expect(safeParseEvent(signIn).ok).toBe(true);
  });
});
