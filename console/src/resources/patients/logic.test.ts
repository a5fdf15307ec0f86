import { describe, expect, it } from 'vitest';
import { formatPhone } from '../../components/format';
import {
  addressText,
  billingBody,
  billingDraft,
  billingDraftErrors,
  billingDraftFields,
  conflictRows,
  hasReport,
  MERGE_SEARCH_DEBOUNCE_MS,
  MERGE_SEARCH_SIZE,
  mergePercent,
  mergeProgressCount,
  mergeRunning,
  mergeSelectionProblem,
  patientLabel,
  patientsBaseFilter,
  payorTyped,
  primaryProblem,
  primaryResults,
  primarySearchFilter,
  reportOf,
  testHistoryFilter,
} from './logic';

describe('patients list', () => {
  it('phone as (xxx) xxx-xxxx', () => {
    expect(formatPhone('2065550123')).toBe('(206) 555-0123');
    expect(formatPhone('+1 206 555 0123')).toBe('(206) 555-0123');
    expect(formatPhone(null)).toBe('');
  });
  it('the Created range as between(start, end); nothing when no date is chosen', () => {
    expect(patientsBaseFilter({ start: null, end: null })).toEqual({});
    expect(patientsBaseFilter({ start: 10, end: 20 })).toEqual({ createdOn: 'between(10,20)' });
    expect(patientsBaseFilter({ start: 10, end: null }).createdOn).toMatch(/^between\(10,\d+\)$/);
  });
  it('address text', () => {
    expect(addressText({ street: '1 Main St', city: 'Seattle', state: 'WA', postalCode: '98101' })).toBe(
      '1 Main St, Seattle, WA 98101',
    );
    expect(addressText({ city: 'Seattle' })).toBe('Seattle');
    expect(addressText(null)).toBe('');
  });
});

describe('patient test history', () => {
  it('asks for the SUBMITTED forms of the patient', () => {
    expect(testHistoryFilter('p1')).toEqual({ patientId: 'p1', status: 'SUBMITTED' });
  });
  it('the newest report of a test; a reported status shows View even before the report list has it', () => {
    const reports = [
      { id: 'r1', testOrderId: 't1', createdOn: '2025-01-01T00:00:00Z' },
      { id: 'r2', testOrderId: 't1', createdOn: '2025-02-01T00:00:00Z' },
      { id: 'r3', testOrderId: 't2', createdOn: '2025-03-01T00:00:00Z' },
    ];
    expect(reportOf('t1', reports)?.id).toBe('r2');
    expect(reportOf('t9', reports)).toBeNull();
    expect(hasReport('IN_PROGRESS', null)).toBe(false);
    expect(hasReport('REPORT_COMPLETE', null)).toBe(true);
  });
});

describe('Add or Edit Billing Information', () => {
  const today = new Date('2025-06-01T12:00:00Z');
  it('a new entry defaults to INSURANCE and self; the insurance fields show, dates typed MM/DD/YYYY', () => {
    const d = billingDraft();
    expect(d).toMatchObject({ billingType: 'INSURANCE', relationshipToPatient: 'SELF', insuredDob: '' });
    expect(billingDraftFields(d)).toContain('payorId');
    expect(billingDraftFields(d)).not.toContain('patientStatus');
    expect(billingDraftFields({ ...d, billingType: 'FACILITY' })).toEqual([
      'billingType',
      'preference',
      'facilityTypeName',
    ]);
    expect(billingDraft({ billingType: 'INSURANCE', insuredDob: '1970-01-02' }).insuredDob).toBe(
      '01/02/1970',
    );
  });
  it('picking a payor fills the payor id; free text clears it', () => {
    const d = billingDraft();
    const picked = payorTyped(d, 'Aet', { name: 'Aetna', payorId: '60054' });
    expect(picked).toMatchObject({ insuranceProvider: 'Aetna', payorId: '60054' });
    expect(payorTyped(picked, 'Aetna X')).toMatchObject({ insuranceProvider: 'Aetna X', payorId: '' });
  });
  it('live errors from the domain rule; the body sends empty fields as null', () => {
    const d = {
      ...billingDraft(),
      insuranceProvider: 'Aetna',
      payorId: '60054',
      insuredName: 'A',
      policyNumber: '1',
    };
    expect(billingDraftErrors({ ...d, insuredDob: '02/30/1990' }, today)).toEqual({
      insuredDob: 'Enter a valid date (MM/DD/YYYY)',
    });
    expect(billingDraftErrors({ ...d, insuredDob: '02/28/1990' }, today)).toEqual({});
    expect(billingBody({ ...d, insuredDob: '02/28/1990' })).toMatchObject({
      groupNumber: null,
      payorId: '60054',
    });
  });
});

describe('Merge Patients', () => {
  const ok = { id: 'a', userId: 'u-a', canEdit: true };
  it('needs at least one selected duplicate, each editable, none with a DUL number', () => {
    expect(mergeSelectionProblem([])).toBe('none');
    expect(mergeSelectionProblem([ok])).toBeNull();
    expect(mergeSelectionProblem([ok, { id: 'b', userId: 'u-b', canEdit: true }])).toBeNull();
    expect(mergeSelectionProblem([ok, { id: 'b', userId: 'u-b', canEdit: false }])).toBe('canEdit');
    expect(mergeSelectionProblem([ok, { id: 'b', userId: 'u-b' }])).toBe('canEdit');
    expect(mergeSelectionProblem([ok, { id: 'b', userId: 'x-DUL-1', canEdit: true }])).toBe('dul');
  });
  it('the primary search: debounced 400 ms, 20 results, q and the duplicates excluded', () => {
    expect(MERGE_SEARCH_DEBOUNCE_MS).toBe(400);
    expect(MERGE_SEARCH_SIZE).toBe(20);
    expect(primarySearchFilter('  Smith ', ['a', 'b'])).toEqual({ q: 'Smith', id: '!in(a,b)' });
    expect(primarySearchFilter('', ['a'])).toEqual({ id: '!in(a)' });
    const rows = Array.from({ length: 25 }, (_, i) => ({ id: `p${i}` }));
    const out = primaryResults([{ id: 'a' }, ...rows], ['a']);
    expect(out).toHaveLength(20);
    expect(out.map((r) => r.id)).not.toContain('a');
  });
  it('a primary is neither a duplicate nor uneditable nor a DUL number', () => {
    expect(primaryProblem({ id: 't', userId: 'u', canEdit: true }, ['a'])).toBeNull();
    expect(primaryProblem({ id: 'a', userId: 'u', canEdit: true }, ['a'])).toBe('duplicate');
    expect(primaryProblem({ id: 't', userId: 'u', canEdit: false }, ['a'])).toBe('canEdit');
    expect(primaryProblem({ id: 't', userId: 'DUL-u', canEdit: true }, ['a'])).toBe('dul');
  });
  it('progress: integer percent of moved/total; 100 only when the server says DONE or UNDONE', () => {
    expect(mergePercent(null)).toBe(0);
    expect(mergePercent({ status: 'RUNNING', total: 3, moved: 1 })).toBe(33);
    expect(mergePercent({ status: 'RUNNING', total: 3, moved: 2 })).toBe(66);
    expect(mergePercent({ status: 'RUNNING', total: 3, moved: 3 })).toBe(99);
    expect(mergePercent({ status: 'RUNNING', total: 3, moved: 7 })).toBe(99);
    expect(mergePercent({ status: 'RUNNING', total: 0, moved: 0 })).toBe(0);
    expect(mergePercent({ status: 'DONE', total: 0, moved: 0 })).toBe(100);
    expect(mergePercent({ status: 'DONE', total: 4, moved: 2 })).toBe(100);
    // an undo: moved counts the requisitions still on the primary
    expect(mergePercent({ status: 'UNDOING', total: 4, moved: 4 })).toBe(0);
    expect(mergePercent({ status: 'UNDOING', total: 4, moved: 1 })).toBe(75);
    expect(mergePercent({ status: 'UNDONE', total: 4, moved: 4 })).toBe(100);
    expect(mergeProgressCount({ status: 'RUNNING', total: 4, moved: 1 })).toEqual({ done: 1, total: 4 });
    expect(mergeProgressCount({ status: 'UNDOING', total: 4, moved: 1 })).toEqual({ done: 3, total: 4 });
    expect(mergeProgressCount({ status: 'UNDONE', total: 4, moved: 4 })).toEqual({ done: 4, total: 4 });
    expect(mergeRunning({ status: 'RUNNING' })).toBe(true);
    expect(mergeRunning({ status: 'UNDOING' })).toBe(true);
    expect(mergeRunning({ status: 'DONE' })).toBe(false);
    expect(mergeRunning(null)).toBe(false);
  });
  it("the conflicts table: the primary's value then each duplicate's, dates and sexes as shown", () => {
    const rows = conflictRows(
      [
        {
          field: 'dateOfBirth',
          label: 'Date of Birth',
          target: '1970-01-02',
          sources: [
            { id: 'b', value: '1971-03-04' },
            { id: 'a', value: '1970-01-02' },
          ],
        },
        { field: 'sex', label: 'Birth Sex', target: 'FEMALE', sources: [{ id: 'a', value: 'MALE' }] },
        { field: 'mrn', label: 'MRN', target: null, sources: [{ id: 'a', value: 'M-1' }] },
      ],
      ['a', 'b'],
      (v) => (v === 'FEMALE' ? 'Female' : v === 'MALE' ? 'Male' : (v ?? '')),
    );
    expect(rows[0]).toEqual({
      field: 'dateOfBirth',
      label: 'Date of Birth',
      primary: '01/02/1970',
      duplicates: ['01/02/1970', '03/04/1971'],
      differs: [false, true],
    });
    expect(rows[1]).toMatchObject({ primary: 'Female', duplicates: ['Male', ''], differs: [true, true] });
    expect(rows[2]).toMatchObject({ primary: '', duplicates: ['M-1', ''], differs: [true, false] });
  });
  it('a patient as "First Last (number)"', () => {
    expect(patientLabel({ firstName: 'Ann', lastName: 'Lee', userId: 'n1' })).toBe('Ann Lee (n1)');
    expect(patientLabel({ firstName: 'Ann', lastName: 'Lee', patientNumber: 'n2' })).toBe('Ann Lee (n2)');
    expect(patientLabel({ name: 'Ann Lee' })).toBe('Ann Lee');
    expect(patientLabel({ userId: 'n3' })).toBe('n3');
  });
});
