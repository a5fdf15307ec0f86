import { describe, expect, it } from 'vitest';
import { RequisitionFormSchema, stepStates, validateRequisition } from '@onco/domain';
import {
  NEW_PROGRESS,
  emptyForm,
  getPath,
  markUpdated,
  moveTo,
  nextStep,
  previousStep,
  problemsFromError,
  progressFromForm,
  ruleContext,
  setPath,
  stepErrors,
  stepOfPath,
  toSaveBody,
  toSubmitBody,
  todayIso,
} from './model';
import { scrolledToEnd } from './steps/AuthorizationStep';
import { wizardEn, wizardZh } from './i18n';
import { ordersEn, ordersZh } from '../list/i18n';
import { wizardText } from './useWizardT';

describe('form paths', () => {
  it('reads and writes dotted paths immutably, creating objects and arrays', () => {
    const f = emptyForm();
    const g = setPath(f, 'patient.address.city', 'Austin');
    expect(getPath(g, 'patient.address.city')).toBe('Austin');
    expect(f).not.toHaveProperty('patient');
    const h = setPath(g, 'billings.1.billingType', 'SELF');
    expect(h.billings).toHaveLength(2);
    expect(h.billings?.[0]?.preference).toBe('PRIMARY');
    expect(g.billings).toHaveLength(1);
    expect(getPath(h, 'billings.1.billingType')).toBe('SELF');
    expect(getPath(h, 'nothing.here')).toBeUndefined();
  });

  it('maps each field to its wizard step', () => {
    expect(stepOfPath('orderInformation.nextDx')).toBe('patient');
    expect(stepOfPath('hospitalLocation.address.city')).toBe('provider');
    expect(stepOfPath('account.name')).toBe('provider');
    expect(stepOfPath('pathologistLocation.name')).toBe('pathology');
    expect(stepOfPath('additionalPhysician.email')).toBe('additionalProvider');
    expect(stepOfPath('normalSpecimen.collectionDate')).toBe('specimen');
    expect(stepOfPath('billings.0.payorId')).toBe('billing');
    expect(stepOfPath('attachments')).toBe('attachments');
  });
});

describe('bodies', () => {
  it('a save body keeps only the form keys, drops approvals and saves as DRAFT', () => {
    const loaded = {
      ...emptyForm(),
      id: 'r1',
      testRequisitionId: 'TRF-1',
      testOrders: [{ id: 't' }],
      actions: { print: false },
      approvals: [{ approvedBy: { id: 'u', name: 'U' }, createdOn: '2026-01-01' }],
      status: 'DRAFT' as const,
      patient: { firstName: 'Ann' },
    };
    const body = toSaveBody(loaded);
    expect(body).not.toHaveProperty('id');
    expect(body).not.toHaveProperty('testOrders');
    expect(body).not.toHaveProperty('actions');
    expect(body).not.toHaveProperty('approvals');
    expect(body.status).toBe('DRAFT');
    expect(body.patient?.firstName).toBe('Ann');
    expect(RequisitionFormSchema.safeParse(body).success).toBe(true);
  });

  it('a submit body carries the id', () => {
    const body = toSubmitBody({ ...emptyForm(), kitId: 'K1' }, 'r9');
    expect(body.id).toBe('r9');
    expect(body.kitId).toBe('K1');
    expect(body).not.toHaveProperty('status');
  });

  it("flattens the server's submit problems", () => {
    expect(
      problemsFromError({
        details: {
          blocks: {
            patient: { 'patient.firstName': 'This field is required' },
            signature: { approvals: 'x' },
          },
        },
      }),
    ).toEqual({ 'patient.firstName': 'This field is required', approvals: 'x' });
    expect(problemsFromError(null)).toEqual({});
  });
});

describe('progress', () => {
  it('moving marks the step left as passed; editing marks the step updated', () => {
    let p = markUpdated(NEW_PROGRESS, 'patient');
    expect(p.updated).toEqual(['patient']);
    p = moveTo(p, 'provider');
    expect(p).toEqual({ step: 'provider', updated: ['patient'], passed: ['patient'] });
    p = moveTo(moveTo(p, 'specimen'), 'provider');
    expect(p.passed).toEqual(['patient', 'provider', 'specimen']);
    expect(nextStep('summary')).toBe('authorization');
    expect(nextStep('authorization')).toBeNull();
    expect(previousStep('patient')).toBeNull();
    expect(previousStep('provider')).toBe('patient');
  });

  it('a new form: every step inactive; after passing the empty first step it is incomplete', () => {
    const rules = ruleContext([], new Date(2026, 0, 15));
    const f = emptyForm();
    expect(Object.values(stepStates(f, rules, NEW_PROGRESS)).every((s) => s === 'inactive')).toBe(true);
    const states = stepStates(f, rules, moveTo(NEW_PROGRESS, 'provider'));
    expect(states.patient).toBe('incomplete');
    expect(states.provider).toBe('inactive');
  });

  it('a reopened draft without remembered progress resumes at the first step without data', () => {
    const f = setPath(setPath(emptyForm(), 'orderInformation.nextDx', true), 'patient.firstName', 'Ann');
    const p = progressFromForm(f);
    expect(p.step).toBe('provider');
    expect(p.updated).toEqual(['patient']);
    expect(p.passed).toEqual(['patient']);
    expect(progressFromForm(emptyForm()).step).toBe('patient');
  });

  it("a step's errors gather its blocks' field errors", () => {
    const rules = ruleContext([], new Date(2026, 0, 15));
    const errs = stepErrors(validateRequisition(emptyForm(), rules), 'patient');
    expect(errs.orderInformation).toBe('This field is required');
    expect(errs['patient.firstName']).toBe('This field is required');
    expect(errs['physician.firstName']).toBeUndefined();
  });
});

describe('misc', () => {
  it('today is the local calendar date', () => {
    expect(todayIso(new Date(2026, 1, 3, 23, 59))).toBe('2026-02-03');
  });

  it('the consent unlocks within 10 px of the bottom', () => {
    expect(scrolledToEnd({ scrollHeight: 1000, clientHeight: 200, scrollTop: 790 })).toBe(true);
    expect(scrolledToEnd({ scrollHeight: 1000, clientHeight: 200, scrollTop: 789 })).toBe(false);
  });

  it('texts: placeholders filled; every English text has its Chinese (wizard and orders)', () => {
    expect(wizardText('wizard.fields.signedBy', { name: 'Dr A', date: '01/02/2026' })).toBe(
      'Signed by Dr A on 01/02/2026',
    );
    expect(wizardText('wizard.messages.incorrectPassword')).toBe('Incorrect password. Try again.');
    const keys = (o: object, pre = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) =>
        typeof v === 'object' ? keys(v, `${pre}${k}.`) : [`${pre}${k}`],
      );
    expect(keys(wizardZh).sort()).toEqual(keys(wizardEn).sort());
    // the orders texts: every English key has its Chinese (Chinese also names enum values English derives)
    const zh = new Set(keys(ordersZh));
    expect(keys(ordersEn).filter((k) => !zh.has(k))).toEqual([]);
  });
});
