/**
 * The sample rules' constants, messages and the status and type rules (spec 2 sections 2.8, 4 "Sample status",
 * 5 "Sample form", 8, 9). Dates are calendar days 'YYYY-MM-DD'.
 */
import type {
  ClinicalReviewStatus,
  OrderType,
  SampleStatus,
  SpecimenKind,
  TestStatus,
  TestType,
} from '../enums';
import { NORMAL_SPECIMEN_TYPES, SAMPLE_STATUSES, SPECIMEN_TYPES, TUMOR_SPECIMEN_TYPES } from '../enums';
import { REQ_MSG } from '../requisition/messages';
import { isBlank } from '../requisition/issues';

/** The sample kinds of the Samples tab's filter, in the tab's order. */
export const SAMPLE_KINDS: readonly SpecimenKind[] = SPECIMEN_TYPES;

/** Samples table page size (spec 2 section 9). */
export const SAMPLES_PER_PAGE = 7;
/** Sample names are shown cut to 25 characters (spec 2 sections 2.8 and 9). */
export const SAMPLE_NAME_MAX = 25;
/** Plasma must be received within 14 days of its collection (spec 2 section 9). */
export const PLASMA_RECEIPT_DAYS = 14;
/** Earliest collection/received date: 18 years back for tumor, 3 months back for the others. */
export const SAMPLE_MIN_AGE = { tumorYears: 18, otherMonths: 3 } as const;
/** The domain used when an account name names no known domain (spec 2 section 7). */
export const DEFAULT_SAMPLE_DOMAIN = 'PSNL';
/** The work order number of a sample that is not PROCEED (spec 2 section 4). */
export const NOT_PROCEED_WORK_ORDER = 'WO';
/** The testType key of a domain preference when the requisition orders both tests. */
export const DUAL_TEST_TYPE = 'DUAL';

export const SAMPLE_MSG = {
  required: REQ_MSG.required,
  invalidSpecimenId: 'Invalid Specimen #',
  specimenIdLocked: 'The Specimen # of a sample cannot be changed.',
  accessionRequired: 'Accession # is required when the status is PROCEED.',
  sgiError: 'Sample can not be set to Proceed, SGI error',
  invalidDate: REQ_MSG.invalidDate,
  noLaterThan: REQ_MSG.noLaterThan,
  noEarlierThan: REQ_MSG.noEarlierThan,
  collectionBeforeReceived: 'Collection date must be before the Received date.',
  receivedAfterCollection: 'Received date must be after the Collection date.',
  plasmaWindow: 'Received date must be within 14 days of the Collection date for plasma samples.',
  statusNotOffered: (status: string) => `The status ${status} cannot be chosen for this sample.`,
  statusLocked: (status: string) => `The sample is ${status}: its status cannot be changed.`,
  proceedNotAllowed:
    'Sample can not be set to Proceed: the requisition needs an account and tests, and for this account a diagnosis and a completed clinical review.',
  typeNotOffered: (type: string) => `${type} samples cannot be added to this requisition.`,
  specimenTypeNotOffered: (specimenType: string) =>
    `Specimen type ${specimenType} is not offered for this sample.`,
  typeLocked: 'The type of a sample cannot be changed.',
  addNotAllowed: 'Samples cannot be added: every test of this requisition is reported or cancelled.',
  noPreference: 'No domain preference matches this sample (domain, test, order, tissue and specimen type).',
  copyFailed: 'Samples could not be copied',
  copied: 'Samples have been copied successfully',
  copySameRequisition: 'Choose another requisition to copy the samples to.',
  copyOtherPatient: 'Samples can only be copied between requisitions of the same patient.',
  copyNothing: 'Select at least one sample to copy.',
  stale: 'The sample was changed by someone else at the same time. Reload it and try again.',
} as const;

/** What the sample rules need to know about the requisition (the lab knows it from its test orders). */
export interface SampleRequisition {
  accountId: string | null;
  accountName?: string | null;
  testOrders: readonly { testType: TestType; orderType: OrderType; status?: TestStatus | null }[];
  /** the requisition's diagnosis (tumor specimen), null when none */
  diagnosis?: string | null;
  clinicalReviewStatus?: ClinicalReviewStatus | null;
}

export interface SampleRuleConfig {
  /** the one account whose tumor samples need a diagnosis and a completed clinical review to PROCEED */
  reviewAccountId?: string | null;
}

/** A subsequent order: one of its tests is a SUBSEQUENT_ORDER. */
export const isSubsequentOrder = (req: SampleRequisition) =>
  req.testOrders.some((t) => t.orderType === 'SUBSEQUENT_ORDER');

/**
 * Whether a sample of `type` may be PROCEED (spec 2 section 4): the requisition has an account and tests, and,
 * for tumor samples of the configured account, a diagnosis and clinical review REVIEW_COMPLETE. Decision: a
 * subsequent order bypasses the diagnosis/review part (the part that depends on the account); account and
 * tests are always needed (without tests nothing can be processed).
 */
export function proceedAllowed(
  req: SampleRequisition,
  type: SpecimenKind,
  cfg: SampleRuleConfig = {},
): boolean {
  if (!req.accountId || req.testOrders.length === 0) return false;
  if (isSubsequentOrder(req)) return true;
  if (type !== 'TUMOR' || !cfg.reviewAccountId || req.accountId !== cfg.reviewAccountId) return true;
  return !isBlank(req.diagnosis) && req.clinicalReviewStatus === 'REVIEW_COMPLETE';
}

export interface StatusOption {
  status: SampleStatus;
  disabled: boolean;
}

/**
 * The status options of the sample dialog: on add ON_HOLD and PROCEED (CANCELLED is not offered; PROCEED
 * disabled unless allowed); on edit every status, but a sample already PROCEED or CANCELLED keeps its status
 * (the others disabled), and PROCEED is disabled unless allowed.
 */
export function sampleStatusOptions(
  mode: 'add' | 'edit',
  current: SampleStatus | null | undefined,
  canProceed: boolean,
): StatusOption[] {
  if (mode === 'add') {
    return (['ON_HOLD', 'PROCEED'] as const).map((status) => ({
      status,
      disabled: status === 'PROCEED' && !canProceed,
    }));
  }
  const locked = current === 'PROCEED' || current === 'CANCELLED';
  return SAMPLE_STATUSES.map((status) => ({
    status,
    disabled: locked ? status !== current : status === 'PROCEED' && !canProceed,
  }));
}

/** A new sample's status: PROCEED when allowed, else ON_HOLD. */
export const defaultSampleStatus = (canProceed: boolean): SampleStatus =>
  canProceed ? 'PROCEED' : 'ON_HOLD';

/** Why `next` cannot be the status of the sample (null when it can). */
export function sampleStatusError(
  mode: 'add' | 'edit',
  current: SampleStatus | null | undefined,
  next: SampleStatus,
  canProceed: boolean,
): string | null {
  if (mode === 'edit' && (current === 'PROCEED' || current === 'CANCELLED') && next !== current)
    return SAMPLE_MSG.statusLocked(current);
  if (mode === 'add' && next === 'CANCELLED') return SAMPLE_MSG.statusNotOffered(next);
  if (next === 'PROCEED' && current !== 'PROCEED' && !canProceed) return SAMPLE_MSG.proceedNotAllowed;
  return null;
}

/** The work order number stored with a sample: "WO" unless it is PROCEED, then the domain preference's. */
export function workOrderNumberFor(
  status: SampleStatus | null | undefined,
  preferred: string | null | undefined,
) {
  return status === 'PROCEED' ? (preferred ?? null) : NOT_PROCEED_WORK_ORDER;
}

/**
 * The sample kinds that may be added: tumor and normal always; plasma only for subsequent orders and never
 * for a requisition whose only test is NEXT_DX.
 */
export function sampleTypeOptions(req: SampleRequisition): SpecimenKind[] {
  const singleNextDx = req.testOrders.length === 1 && req.testOrders[0].testType === 'NEXT_DX';
  const plasma = isSubsequentOrder(req) && !singleNextDx;
  return SAMPLE_KINDS.filter((k) => k !== 'PLASMA' || plasma);
}

/** sampleTypeOptions(req).includes(type), without building the list (checked once a sample). */
export const sampleTypeOffered = (req: SampleRequisition, type: SpecimenKind): boolean =>
  (SAMPLE_KINDS as readonly string[]).includes(type) &&
  (type !== 'PLASMA' ||
    (isSubsequentOrder(req) && !(req.testOrders.length === 1 && req.testOrders[0].testType === 'NEXT_DX')));

/**
 * The specimen types of a sample kind: tumor FFPE slides/block and fresh frozen tissue (not when a
 * NEXT_PERSONAL_DX order exists); normal blood, saliva, buffy coat; plasma PLASMA.
 */
export function sampleSpecimenTypeOptions(type: SpecimenKind, req: SampleRequisition): string[] {
  if (type === 'TUMOR') {
    const personal = req.testOrders.some((t) => t.testType === 'NEXT_PERSONAL_DX');
    return TUMOR_SPECIMEN_TYPES.filter((t) => !(personal && t === 'FRESH_FROZEN_TISSUE'));
  }
  if (type === 'PLASMA') return ['PLASMA'];
  return NORMAL_SPECIMEN_TYPES.filter((t) => t !== 'PLASMA');
}

/** sampleSpecimenTypeOptions(type, req).includes(specimenType), without building the list. */
export function specimenTypeOffered(
  type: SpecimenKind,
  req: SampleRequisition,
  specimenType: string,
): boolean {
  if (type === 'TUMOR')
    return (
      (TUMOR_SPECIMEN_TYPES as readonly string[]).includes(specimenType) &&
      !(
        specimenType === 'FRESH_FROZEN_TISSUE' &&
        req.testOrders.some((t) => t.testType === 'NEXT_PERSONAL_DX')
      )
    );
  if (type === 'PLASMA') return specimenType === 'PLASMA';
  return specimenType !== 'PLASMA' && (NORMAL_SPECIMEN_TYPES as readonly string[]).includes(specimenType);
}
