import type { BillingCaseDoc } from '../models';

/**
 * The claim sent to the billing system (docs/billing-gateway.md, "The claim"), built only from what the billing
 * case holds. Deterministic for one submission generation (submittedOn is when Submit queued it), so a re-sent
 * claim is the same claim. The payor and the ICD-10 codes come from the requisition's events (the case's
 * claimInfo, schemaVersion 4); patient demographics (address, date of birth, policy numbers) never travel on
 * events and are not in the claim (docs/billing-gateway.md "What the claim does not carry").
 */
export interface Claim {
  claimKey: string;
  billingCaseId: string;
  generation: number;
  submittedOn: string;
  accession: string | null;
  testOrderId: string;
  requisition: { id: string | null; number: string | null };
  patient: { id: string | null; name: string | null };
  orderingProvider: { id: string | null; name: string | null };
  account: { id: string | null; name: string | null };
  test: {
    type: string | null;
    orderType: string | null;
    timePoint: string | null;
    status: string | null;
  };
  billingCode: string;
  dates: { caseQualified: string | null; caseCreated: string | null };
  /** who the claim is billed to: the requisition's primary billing entry; null when it has none */
  payor: { billingType: string; payorId: string | null; name: string | null } | null;
  diagnosisCodes: string[];
}

/** The idempotency key of a submission: the case id and its generation. */
export const claimKey = (caseId: string, generation: number) => `${caseId}:${generation}`;

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

export function buildClaim(c: BillingCaseDoc, generation: number): Claim {
  return {
    claimKey: claimKey(c._id, generation),
    billingCaseId: c._id,
    generation,
    submittedOn: iso(c.submission?.queuedOn) ?? new Date(0).toISOString(),
    accession: c.testId,
    testOrderId: c.testOrderId,
    requisition: { id: c.testOrderFormId, number: c.testRequisitionId },
    patient: { id: c.patient?.id ?? null, name: c.patient?.name ?? null },
    orderingProvider: { id: c.physician?.id ?? null, name: c.physician?.name ?? null },
    account: { id: c.account?.id ?? null, name: c.account?.name ?? c.accountName ?? null },
    test: { type: c.testType, orderType: c.orderType, timePoint: c.timePoint, status: c.testStatus },
    billingCode: c.billingCode ?? '',
    dates: { caseQualified: iso(c.caseQualifiedDate), caseCreated: iso(c.createdOn) },
    payor: c.claimInfo?.billingType
      ? {
          billingType: c.claimInfo.billingType,
          payorId: c.claimInfo.payorId ?? null,
          name: c.claimInfo.payorName ?? null,
        }
      : null,
    diagnosisCodes: c.claimInfo?.diagnosisCodes ?? [],
  };
}
