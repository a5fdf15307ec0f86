import type { BillingType } from '../enums';
import type { RequisitionForm } from './schema';
import { medicareDataMissing, type MedicareDataField } from './validate';

/**
 * The billing summary of a requisition (events: requisition-submitted and requisition-changed schemaVersion 4):
 * what the billing service checks a claim with, without patient demographics. Pure; used by the requisitions
 * service when it writes its events.
 */
export interface RequisitionBillingSummary {
  billingType: BillingType | null;
  payorId: string | null;
  payorName: string | null;
  patientAddressComplete: boolean;
  /** schemaVersion 5 (submitted) / 8 (changed): what Medicare needs and the form lacks (medicareDataMissing) */
  medicareDataMissing: MedicareDataField[];
}

interface BillingEntry {
  billingType?: BillingType | null;
  preference?: string | null;
  payorId?: string | null;
  insuranceProvider?: string | null;
}
interface Address {
  street?: string | null;
  city?: string | null;
  state?: string | null;
  postalCode?: string | null;
}

const filled = (v: string | null | undefined) => typeof v === 'string' && v.trim() !== '';

/** The entry a claim is billed to: the one marked PRIMARY, else the first with a billing type. */
export function primaryBilling<T extends BillingEntry>(billings: readonly T[] | null | undefined): T | null {
  const list = (billings ?? []).filter((b) => b && b.billingType);
  return list.find((b) => b.preference === 'PRIMARY') ?? list[0] ?? null;
}

/** Street, city, state and postal code all present (what a Medicare claim needs of the patient's address). */
export const addressComplete = (a: Address | null | undefined): boolean =>
  !!a && filled(a.street) && filled(a.city) && filled(a.state) && filled(a.postalCode);

export function requisitionBillingSummary(
  doc: {
    billings?: readonly BillingEntry[] | null;
    patient?: { address?: Address | null } | null;
  } & Pick<RequisitionForm, 'orderInformation' | 'tumorSpecimen'>,
): RequisitionBillingSummary {
  const b = primaryBilling(doc.billings);
  return {
    billingType: b?.billingType ?? null,
    payorId: filled(b?.payorId) ? b!.payorId!.trim() : null,
    payorName: filled(b?.insuranceProvider) ? b!.insuranceProvider!.trim() : null,
    patientAddressComplete: addressComplete(doc.patient?.address),
    medicareDataMissing: medicareDataMissing(doc as RequisitionForm),
  };
}
