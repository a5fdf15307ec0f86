import {
  BILLING_MESSAGES,
  PAYOR_BILLING_TYPES,
  submitCaseProblems,
  type BillingCaseStatus,
} from '@onco/domain';
import type { BillingCaseDoc } from '../models';

/**
 * Submit rules for one billing case, pure. `submitRefusal` is spec 3 section 4.3's state rule (caseStatus,
 * testStatus, reviewStatus; answered 409), from @onco/domain's `submitCaseProblems` (the rule the console's Submit
 * button uses) plus the in-flight retry statuses; `claimProblems` are the pre-submit checks of what the case holds,
 * a list of what to fix before anything is sent (answered 400). The billing code is both a section 4.3 condition
 * and a pre-submit check: it is reported with the pre-submit checks, as something to fix, so the user gets one list.
 */

/**
 * Statuses in which a submission is in flight, which section 4.3 does not list (it predates the retry
 * statuses): a second Submit while a retry is scheduled, sending or recording its answer would race the worker, so
 * it is refused too. RETRY_FAILED is a resting state and may be submitted again (a new generation).
 */
export const IN_FLIGHT: readonly BillingCaseStatus[] = [
  'RETRY_SCHEDULED',
  'RETRY_IN_PROGRESS',
  'RETRY_SUCCEEDED',
];

/** Why section 4.3 forbids submitting the case now, or null when it allows it (billing code aside). */
export function submitRefusal(
  c: Pick<BillingCaseDoc, 'caseStatus' | 'testStatus' | 'reviewStatus'>,
): string | null {
  if (IN_FLIGHT.includes(c.caseStatus))
    return `The billing case is being submitted (status ${c.caseStatus}); wait for the answer.`;
  // the billing code is checked by claimProblems (400 with the list of what to fix)
  const reasons = submitCaseProblems({ ...c, billingCode: 'checked-by-claimProblems' });
  return reasons.length ? reasons.join(' ') : null;
}

export interface ClaimProblem {
  field: string;
  message: string;
}

const blank = (v: string | null | undefined) => !v || !v.trim();

/**
 * What the case must hold for a claim the billing system would not reject anyway (issue 13's pre-submit checks):
 * the case's own fields, and from the requisition (claimInfo, events of schemaVersion 4) a billing type, a payor
 * for the billing types that bill one (PAYOR_BILLING_TYPES), at least one ICD-10 code that is a valid billable
 * code (`invalidCodes`: the codes the ICD-10-CM catalog does not hold, from the caller), for Medicare the
 * patient's complete address, and the drug name and stage Medicare needs with a NEXT_PERSONAL_DX test (the
 * summary's `medicareDataMissing`, from requisition events of schemaVersion 5 / 8). Pure; the order is the order a person fixes them in.
 */
export function claimProblems(c: BillingCaseDoc, invalidCodes: readonly string[] = []): ClaimProblem[] {
  const out: ClaimProblem[] = [];
  const m = BILLING_MESSAGES;
  if (blank(c.billingCode)) out.push({ field: 'billingCode', message: m.billingCodeRequired });
  if (blank(c.testId)) out.push({ field: 'testId', message: 'Test # is missing' });
  if (!c.testType) out.push({ field: 'testType', message: 'Test Type is missing' });
  if (!c.patient?.id || blank(c.patient.name)) out.push({ field: 'patient', message: 'Patient is missing' });
  if (!c.account?.id) out.push({ field: 'account', message: 'Account is missing' });
  if (!c.physician?.id || blank(c.physician.name))
    out.push({ field: 'physician', message: 'Ordering Provider is missing' });
  if (c.orderType === 'SUBSEQUENT_ORDER' && blank(c.timePoint))
    out.push({ field: 'timePoint', message: 'Timepoint is required for a subsequent order' });
  const info = c.claimInfo;
  if (!info?.billingType) out.push({ field: 'billingType', message: m.billingTypeMissing });
  else if (PAYOR_BILLING_TYPES.includes(info.billingType) && blank(info.payorId))
    out.push({ field: 'payor', message: m.payorMissing(info.billingType) });
  if (!info?.diagnosisCodes?.length) out.push({ field: 'diagnosisCodes', message: m.diagnosisMissing });
  for (const code of invalidCodes)
    out.push({ field: 'diagnosisCodes', message: m.diagnosisNotBillable(code) });
  if (info?.billingType === 'MEDICARE' && !info.patientAddressComplete)
    out.push({ field: 'patientAddress', message: m.medicareAddressMissing });
  // spec 1 section 5 (the wizard's Medicare warning): the drug name and stage; the ICD-10 codes are checked above
  const medicare = info?.medicareDataMissing ?? [];
  if (medicare.includes('drugName')) out.push({ field: 'drugName', message: m.medicareDrugNameMissing });
  if (medicare.includes('stage')) out.push({ field: 'stage', message: m.medicareStageMissing });
  return out;
}

/** Which of a case's ICD-10 codes a catalog does not hold as billable (none without codes). */
export interface DiagnosisCodeCatalog {
  invalidCodes(codes: readonly string[]): Promise<string[]>;
}

/** The pre-submit checks of a case, with its ICD-10 codes looked up in the catalog. */
export async function checkClaim(c: BillingCaseDoc, catalog: DiagnosisCodeCatalog): Promise<ClaimProblem[]> {
  const codes = c.claimInfo?.diagnosisCodes ?? [];
  return claimProblems(c, codes.length ? await catalog.invalidCodes(codes) : []);
}
