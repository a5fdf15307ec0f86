/**
 * Financial assistance (spec 3 "Financial assistance outcomes"; spec 1 section 5 and spec 2 "Data scope": the
 * financial assistance attachment and its summary row appear only for one specific account). The lab's billing
 * staff record the outcome of a patient's application on the submitted order (CAN_EDIT_BILLING); decision
 * 2026-11-28 in docs/decisions.md.
 */
export const FINANCIAL_ASSISTANCE_OUTCOMES = [
  'APPROVED_UP_TO_100',
  'APPROVED_UP_TO_200',
  'APPROVED_UP_TO_250',
  'APPROVED_UP_TO_295',
  'FULL_COVERAGE',
  'DENIED',
  'MISSING_HOUSEHOLD_MEMBERS',
  'MISSING_INCOME',
  'MISSING_BOTH',
  'PATIENT_REFUSED',
  'PAPER_COPY_NOT_PROCESSED',
] as const;
export type FinancialAssistanceOutcome = (typeof FINANCIAL_ASSISTANCE_OUTCOMES)[number];

/** The outcomes as the spec words them (English; the console has the Chinese). */
export const FINANCIAL_ASSISTANCE_OUTCOME_LABELS: Record<FinancialAssistanceOutcome, string> = {
  APPROVED_UP_TO_100: 'Approved up to $100',
  APPROVED_UP_TO_200: 'Approved up to $200',
  APPROVED_UP_TO_250: 'Approved up to $250',
  APPROVED_UP_TO_295: 'Approved up to $295',
  FULL_COVERAGE: 'Full coverage',
  DENIED: 'Denied',
  MISSING_HOUSEHOLD_MEMBERS: 'Missing household members',
  MISSING_INCOME: 'Missing income',
  MISSING_BOTH: 'Missing both',
  PATIENT_REFUSED: 'Patient refused',
  PAPER_COPY_NOT_PROCESSED: 'Paper copy not yet processed',
};

/** Whether an order of `accountId` has financial assistance (the configured account; none when unset). */
export function financialAssistanceApplies(
  accountId: string | null | undefined,
  financialAssistanceAccountId: string | null | undefined,
): boolean {
  return !!financialAssistanceAccountId && accountId === financialAssistanceAccountId;
}

export const FINANCIAL_ASSISTANCE_MSG = {
  notApplicable:
    'Financial assistance applies only to orders of the financial assistance account; this order belongs to another account.',
  notSubmitted: 'Only a submitted requisition has a financial assistance outcome.',
  permission: 'Only users with CAN_EDIT_BILLING may record a financial assistance outcome.',
} as const;
