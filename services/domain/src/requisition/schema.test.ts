import { describe, expect, it } from 'vitest';
import { RequisitionFormSchema } from './schema';
import { completeForm } from './test-fixtures';

describe('RequisitionFormSchema (the wire shape)', () => {
  it('given an empty body (a new draft), then it parses', () => {
    expect(RequisitionFormSchema.parse({})).toEqual({});
  });
  it('given a complete requisition, then it round-trips unchanged', () => {
    expect(RequisitionFormSchema.parse(completeForm())).toEqual(completeForm());
  });
  it('given null blocks, then they parse (drafts are partial)', () => {
    const body = { patient: null, tumorSpecimen: null, billings: null, orderInformation: null };
    expect(RequisitionFormSchema.parse(body)).toEqual(body);
  });
  it('given unknown and server-owned keys, then they are stripped', () => {
    const parsed = RequisitionFormSchema.parse({
      _id: 'x',
      testRequisitionId: 'TRF-1',
      testOrders: [{ id: 't' }],
      outbox: [],
      deleted: true,
      createdBy: 'u',
      patient: { firstName: 'A', hacked: true },
      billings: [{ billingType: 'SELF', version: 3, archived: true, createdBy: 'u' }],
    });
    expect(parsed).toEqual({ patient: { firstName: 'A' }, billings: [{ billingType: 'SELF' }] });
  });
  it('given an unknown enumeration value, then it is refused at that path', () => {
    const r = RequisitionFormSchema.safeParse({
      patient: { birthSex: 'X' },
      billings: [{ billingType: 'CASH' }],
    });
    expect(r.success).toBe(false);
    const paths = r.error!.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['patient.birthSex', 'billings.0.billingType']));
  });
  it('given a date that is not a YYYY-MM-DD calendar date, then "Invalid date"; empty is accepted', () => {
    for (const bad of ['2026-02-30', '05/04/1960', '2026-1-1']) {
      const r = RequisitionFormSchema.safeParse({ tumorSpecimen: { collectionDate: bad } });
      expect(r.success, bad).toBe(false);
      expect(r.error!.issues[0]).toMatchObject({
        path: ['tumorSpecimen', 'collectionDate'],
        message: 'Invalid date',
      });
    }
    expect(RequisitionFormSchema.safeParse({ patient: { dateOfBirth: '' } }).success).toBe(true);
  });
  it('accepts PLASMA as a normal specimen type', () => {
    expect(RequisitionFormSchema.parse({ normalSpecimen: { specimenType: 'PLASMA' } })).toEqual({
      normalSpecimen: { specimenType: 'PLASMA' },
    });
  });
  it('accepts timestamps as text or Date (approvals, attachments)', () => {
    const at = new Date('2026-11-21T10:00:00Z');
    const parsed = RequisitionFormSchema.parse({
      approvals: [{ approvedBy: { id: 'u', name: 'U' }, createdOn: at }],
      attachments: [{ id: 'a', createdOn: '2026-11-21T10:00:00Z' }],
    });
    expect(parsed.approvals![0].createdOn).toEqual(at);
    expect(RequisitionFormSchema.safeParse({ attachments: [{ id: '' }] }).success).toBe(false);
  });
});
