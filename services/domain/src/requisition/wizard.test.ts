import { describe, expect, it } from 'vitest';
import {
  canContinueToConsent,
  canJumpTo,
  canSubmitOrder,
  showSaveAndExit,
  stepStates,
  STEP_KEYS,
  WIZARD_STEPS,
} from './wizard';
import type { StepKey, StepState } from './wizard';
import { completeForm, ctx } from './test-fixtures';
import { BLOCK_NAMES } from './validate';

const none = { updated: [] as StepKey[], passed: [] as StepKey[] };

describe('WIZARD_STEPS', () => {
  it('has the nine steps of spec 1 section 2 in order', () => {
    expect(WIZARD_STEPS.map((s) => s.label)).toEqual([
      'Patient',
      'Provider',
      'Pathology',
      'Additional Provider',
      'Specimen',
      'Billing',
      'Attachments',
      'Summary',
      'Authorization',
    ]);
    expect(WIZARD_STEPS.map((s) => s.key)).toEqual([...STEP_KEYS]);
  });
  it('places every block in exactly one step', () => {
    const placed = WIZARD_STEPS.flatMap((s) => s.blocks);
    expect([...placed].sort()).toEqual([...BLOCK_NAMES].sort());
  });
  it('Save & Exit is absent on the first and last steps', () => {
    expect(STEP_KEYS.filter(showSaveAndExit)).toEqual(STEP_KEYS.slice(1, -1));
  });
});

describe('stepStates', () => {
  it('given nothing updated or passed, then every step is inactive (and cannot be clicked)', () => {
    const states = stepStates({}, ctx(), none);
    for (const k of STEP_KEYS) expect(states[k]).toBe('inactive');
    expect(canJumpTo(states, 'billing')).toBe(false);
  });
  it('given an updated step with missing required fields, then incomplete; a passed one too', () => {
    const states = stepStates({}, ctx(), { updated: ['patient'], passed: ['provider'] });
    expect(states.patient).toBe('incomplete');
    expect(states.provider).toBe('incomplete');
    expect(states.billing).toBe('inactive');
    expect(canJumpTo(states, 'patient')).toBe(true);
  });
  it('given an updated or passed step without problems, then complete', () => {
    const states = stepStates(completeForm(), ctx(), {
      updated: ['patient', 'specimen'],
      passed: ['provider', 'summary'],
    });
    expect(states.patient).toBe('complete');
    expect(states.specimen).toBe('complete');
    expect(states.provider).toBe('complete');
    expect(states.summary).toBe('complete');
    expect(states.billing).toBe('inactive');
  });
  it('given optional blocks (pathology, additional provider, attachments) passed empty, then complete', () => {
    const states = stepStates({}, ctx(), {
      updated: [],
      passed: ['pathology', 'additionalProvider', 'attachments'],
    });
    expect([states.pathology, states.additionalProvider, states.attachments]).toEqual([
      'complete',
      'complete',
      'complete',
    ]);
  });
  it('given an invalid value (not just a missing one), then the step is incomplete', () => {
    const f = completeForm();
    f.pathologist = { phone: '12' };
    expect(stepStates(f, ctx(), { updated: ['pathology'], passed: [] }).pathology).toBe('incomplete');
  });
  it('given IS_PATIENT_INFO_OPTIONAL and IS_TEST_SELECTION_OPTIONAL, then an empty patient step passed is complete', () => {
    const states = stepStates({}, ctx('IS_PATIENT_INFO_OPTIONAL', 'IS_TEST_SELECTION_OPTIONAL'), {
      updated: [],
      passed: ['patient'],
    });
    expect(states.patient).toBe('complete');
  });
  it('given no approval, then the visited Authorization step is incomplete; signed it is complete', () => {
    const unsigned = { ...completeForm(), approvals: [] };
    expect(stepStates(unsigned, ctx(), { updated: ['authorization'], passed: [] }).authorization).toBe(
      'incomplete',
    );
    expect(stepStates(completeForm(), ctx(), { updated: ['authorization'], passed: [] }).authorization).toBe(
      'complete',
    );
  });
});

describe('Continue to Consent and Submit Order', () => {
  const all = (s: StepState) =>
    Object.fromEntries(STEP_KEYS.map((k) => [k, s])) as Record<StepKey, StepState>;
  it('Continue to Consent is enabled only when no step is incomplete', () => {
    expect(canContinueToConsent(all('complete'))).toBe(true);
    expect(canContinueToConsent(all('inactive'))).toBe(true);
    expect(canContinueToConsent({ ...all('complete'), billing: 'incomplete' })).toBe(false);
  });
  it('the Authorization step itself does not block Continue to Consent', () => {
    expect(canContinueToConsent({ ...all('complete'), authorization: 'incomplete' })).toBe(true);
  });
  it('Submit Order is enabled only when approvals exist', () => {
    expect(canSubmitOrder(completeForm())).toBe(true);
    expect(canSubmitOrder({ approvals: [] })).toBe(false);
    expect(canSubmitOrder({})).toBe(false);
  });
});
