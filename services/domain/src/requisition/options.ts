import {
  NORMAL_SPECIMEN_TYPES,
  TUMOR_SPECIMEN_TYPES,
  type BillingType,
  type OrderType,
  type TestType,
} from '../enums';
import { REQUISITION_UPLOAD_TYPES } from '../box';
import {
  INSURANCE_BASE_FIELDS,
  INSURANCE_REQUIRED_FIELDS,
  hasInsuranceFields,
} from '../billing/billing-fields';

export interface OrderInfoInput {
  nextDx?: boolean | null;
  nextPersonalDx?: boolean | null;
  orderType?: OrderType | null;
}

/**
 * The order type the personalized (NEXT_PERSONAL_DX) test effectively has. Its order-type option is disabled
 * when the tumor-informed test is chosen (spec 1 section 4), so with nextDx it is always INITIAL_ORDER;
 * otherwise its own order type, default INITIAL_ORDER. Null when the personalized test is not chosen.
 */
export function personalOrderType(info: OrderInfoInput): OrderType | null {
  if (!info.nextPersonalDx) return null;
  if (info.nextDx) return 'INITIAL_ORDER';
  return info.orderType ?? 'INITIAL_ORDER';
}

/** The personalized test's order-type option is disabled when the tumor-informed test is chosen. */
export function orderTypeEnabled(info: OrderInfoInput): boolean {
  return !!info.nextPersonalDx && !info.nextDx;
}

/**
 * Spec 1 section 4 "Order information change rebuilds the test orders": nextDx gives a NEXT_DX order
 * (decision: always INITIAL_ORDER, order types belong to the personalized test); nextPersonalDx gives a
 * NEXT_PERSONAL_DX order with its order type, default initial. "Except when the order is subsequent and
 * nextDx is also set" — decision: the personalized order is then INITIAL_ORDER, because its order-type
 * option is disabled while the tumor-informed test is chosen (it is never dropped while its box is ticked).
 * In draft existing orders are not reused: the caller replaces the test orders with this list.
 */
export function plannedTestOrders(info: OrderInfoInput): { testType: TestType; orderType: OrderType }[] {
  const out: { testType: TestType; orderType: OrderType }[] = [];
  if (info.nextDx) out.push({ testType: 'NEXT_DX', orderType: 'INITIAL_ORDER' });
  const personal = personalOrderType(info);
  if (personal) out.push({ testType: 'NEXT_PERSONAL_DX', orderType: personal });
  return out;
}

/** Tumor and matched normal are both required for a NEXT_DX + NEXT_PERSONAL_DX initial order. */
export function requiresTumorAndNormal(info: OrderInfoInput): boolean {
  return !!info.nextDx && personalOrderType(info) === 'INITIAL_ORDER';
}

/**
 * Decision: a tumor specimen is needed by NEXT_DX (tumor-informed) and by an initial NEXT_PERSONAL_DX (its variants come from the tumor).
 * A subsequent personalized order (monitoring time point) needs blood only.
 */
export function needsTumor(info: OrderInfoInput): boolean {
  return !!info.nextDx || personalOrderType(info) === 'INITIAL_ORDER';
}

/** Spec 1 section 5: FRESH_FROZEN_TISSUE is removed when a NEXT_PERSONAL_DX order also exists. */
export function tumorSpecimenTypeOptions(info: OrderInfoInput): string[] {
  return TUMOR_SPECIMEN_TYPES.filter((t) => !(info.nextPersonalDx && t === 'FRESH_FROZEN_TISSUE'));
}

/**
 * Spec 1 section 5 "Blood specimen": with the personalized test only BLOOD is offered; PLASMA is offered
 * only for subsequent orders and not for a single tumor-informed order. So:
 * - personalized subsequent order: BLOOD, PLASMA
 * - personalized initial order (alone or with NEXT_DX): BLOOD
 * - NEXT_DX alone or nothing chosen: BLOOD, SALIVA, BUFFY_COAT
 */
export function normalSpecimenTypeOptions(info: OrderInfoInput): string[] {
  const personal = personalOrderType(info);
  const plasma = personal === 'SUBSEQUENT_ORDER';
  const base: string[] = personal ? ['BLOOD'] : NORMAL_SPECIMEN_TYPES.filter((t) => t !== 'PLASMA');
  return plasma ? [...base, 'PLASMA'] : base;
}

export { BILLING_FIELD_LABELS } from '../billing/billing-fields';

/**
 * Spec 1 section 5 billing table. Decisions: MEDICARE/MEDICAID also show patientStatus (optional); the
 * dischargeDate shows, and is required, only with patientStatus INPATIENT_DISCHARGED (otherwise it is
 * cleared on save). The table's "tumor collection location" has no field in the stored billing and is left out.
 */
export function billingFields(
  billingType: BillingType | string | null | undefined,
  patientStatus?: string | null,
): { visible: string[]; required: string[] } {
  switch (billingType) {
    case 'INSURANCE':
      return { visible: [...INSURANCE_BASE_FIELDS], required: [...INSURANCE_REQUIRED_FIELDS] };
    case 'MEDICARE':
    case 'MEDICAID': {
      const discharged = patientStatus === 'INPATIENT_DISCHARGED';
      return {
        visible: [...INSURANCE_BASE_FIELDS, 'patientStatus', ...(discharged ? ['dischargeDate'] : [])],
        required: [...INSURANCE_REQUIRED_FIELDS, ...(discharged ? ['dischargeDate'] : [])],
      };
    }
    case 'FACILITY':
      return { visible: ['facilityTypeName'], required: ['facilityTypeName'] };
    case 'OTHER':
      return { visible: ['otherTypeName'], required: [] };
    default:
      // SELF and no type: no fields
      return { visible: [], required: [] };
  }
}

/** Insurance fields are hidden for SELF, FACILITY and OTHER (and when no type is chosen). */
export const insuranceFieldsVisible = hasInsuranceFields;

/**
 * Attachment kinds the Attachments step offers (spec 1 section 5): FINANCIAL_ASSISTANCE only for the one
 * configured account; INSURANCE and ABN hidden when the primary billing is INSURANCE. TRF and the lab's
 * report kinds are created by the system, not offered for upload.
 */
export function attachmentKindOptions(input: {
  primaryBillingType?: string | null;
  /** the order has financial assistance: its account is the configured one (the server's `financialAssistance` action) */
  financialAssistance?: boolean;
}): string[] {
  const out: string[] = REQUISITION_UPLOAD_TYPES.filter(
    (k) =>
      k !== 'FINANCIAL_ASSISTANCE' &&
      !(input.primaryBillingType === 'INSURANCE' && (k === 'INSURANCE' || k === 'ABN')),
  );
  if (input.financialAssistance) {
    out.push('FINANCIAL_ASSISTANCE');
  }
  return out;
}
