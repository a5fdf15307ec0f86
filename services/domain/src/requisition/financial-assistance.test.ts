import { describe, expect, it } from 'vitest';
import {
  FINANCIAL_ASSISTANCE_OUTCOME_LABELS,
  FINANCIAL_ASSISTANCE_OUTCOMES,
  financialAssistanceApplies,
} from './financial-assistance';
import { attachmentKindOptions } from './options';

describe('financial assistance', () => {
  it('has the eleven outcomes the spec lists, each with its wording', () => {
    expect(FINANCIAL_ASSISTANCE_OUTCOMES).toHaveLength(11);
    expect(Object.values(FINANCIAL_ASSISTANCE_OUTCOME_LABELS)).toEqual([
      'Approved up to $100',
      'Approved up to $200',
      'Approved up to $250',
      'Approved up to $295',
      'Full coverage',
      'Denied',
      'Missing household members',
      'Missing income',
      'Missing both',
      'Patient refused',
      'Paper copy not yet processed',
    ]);
  });

  it('applies to the one configured account only, as the attachment kind does', () => {
    expect(financialAssistanceApplies('acc-FA', 'acc-FA')).toBe(true);
    expect(financialAssistanceApplies('acc-B', 'acc-FA')).toBe(false);
    expect(financialAssistanceApplies('acc-FA', '')).toBe(false);
    expect(financialAssistanceApplies(null, null)).toBe(false);
    // the requisition's actions carry the verdict; the attachment kinds follow it
    expect(
      attachmentKindOptions({ financialAssistance: financialAssistanceApplies('acc-FA', 'acc-FA') }),
    ).toContain('FINANCIAL_ASSISTANCE');
  });
});
