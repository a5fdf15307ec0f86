import type {
  ClinicalReviewStatus,
  OrderType,
  SampleStatus,
  SpecimenKind,
  TestStatus,
  TestType,
} from '../enums';
import { NORMAL_SPECIMEN_TYPES, SAMPLE_STATUSES, SPECIMEN_TYPES, TUMOR_SPECIMEN_TYPES } from '../enums';
import { addDays, addMonths, addYears, formatDisplayDate, parseIsoDate } from '../requisition/dates';
import { REQ_MSG } from '../requisition/messages';
import { isBlank, type FieldErrors } from '../requisition/validate';
import { REPORTED_TEST_STATUSES } from './tests';

/**
 * Sample rules (spec 2 sections 2.8, 4 "Sample status", 5 "Sample form" and "Copy samples", 6, 8, 9). Used by
 * the lab service, which enforces them, and by the console, which shows them (disabled options, error texts).
 * Dates are calendar days 'YYYY-MM-DD'; the clock is passed in as `today`.
 */

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

/** The sample form as the dialog edits it and the API receives it (dates 'YYYY-MM-DD'). */
export interface SampleForm {
  type: SpecimenKind;
  status?: SampleStatus | null;
  specimenId?: string | null;
  specimenType?: string | null;
  sampleSite?: string | null;
  name?: string | null;
  limsProjectId?: string | null;
  limsProjectName?: string | null;
  accessionId?: string | null;
  sampleGroupId?: string | null;
  collectedOn?: string | null;
  receivedOn?: string | null;
  trackingNumber?: string | null;
  doNotExhaust?: boolean | null;
  diagnosis?: string | null;
}

export interface SampleFormContext {
  mode: 'add' | 'edit';
  /** 'YYYY-MM-DD', the caller's clock */
  today: string;
  requisition: SampleRequisition;
  config?: SampleRuleConfig;
  /** the stored sample on edit */
  current?: { type: SpecimenKind; status: SampleStatus | null; specimenId: string | null } | null;
}

/** Specimen #: letters, digits, hyphen and underscore. */
const SPECIMEN_ID = /^[A-Za-z0-9_-]+$/;

/** The date window of a sample's collected/received dates: 18 years (tumor) or 3 months (others) back to today. */
export function sampleDateWindow(type: SpecimenKind, today: string): { min: string; max: string } {
  // a manifest checks ~100,000 samples against the same few windows: remembered per kind and day
  const key = `${type === 'TUMOR' ? 'T' : 'O'}${today}`;
  let w = windowMemo.get(key);
  if (!w) {
    const min =
      type === 'TUMOR'
        ? addYears(today, -SAMPLE_MIN_AGE.tumorYears)
        : addMonths(today, -SAMPLE_MIN_AGE.otherMonths);
    if (windowMemo.size >= 64) windowMemo.clear();
    windowMemo.set(key, (w = Object.freeze({ min, max: today })));
  }
  return w;
}
const windowMemo = new Map<string, Readonly<{ min: string; max: string }>>();

const daysBetween = (from: string, to: string) =>
  (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;

/**
 * The sample form's problems, keyed by field (empty when valid): spec 2 section 5 "Sample form" plus the
 * status rules of section 4. The first problem of a field wins.
 */
export function validateSampleForm(form: SampleForm, ctx: SampleFormContext): FieldErrors {
  // no closures made per call (a manifest runs this ~100,000 times): module-level helpers below
  const errors: FieldErrors = {};
  const type = ctx.current?.type ?? form.type;
  const req = ctx.requisition;
  if (ctx.mode === 'edit' && ctx.current && form.type && form.type !== ctx.current.type)
    addError(errors, 'type', SAMPLE_MSG.typeLocked);
  if (ctx.mode === 'add' && !sampleTypeOffered(req, type))
    addError(errors, 'type', SAMPLE_MSG.typeNotOffered(type));

  // specimen #: pattern; required for tumor; locked on edit
  const specimenId = form.specimenId?.trim() ?? '';
  if (ctx.mode === 'edit' && ctx.current && (ctx.current.specimenId ?? '') !== specimenId)
    addError(errors, 'specimenId', SAMPLE_MSG.specimenIdLocked);
  if (specimenId === '' && type === 'TUMOR') addError(errors, 'specimenId', SAMPLE_MSG.required);
  if (specimenId !== '' && !SPECIMEN_ID.test(specimenId))
    addError(errors, 'specimenId', SAMPLE_MSG.invalidSpecimenId);

  // status and its rules
  const canProceed = proceedAllowed(req, type, ctx.config);
  if (!form.status) addError(errors, 'status', SAMPLE_MSG.required);
  else {
    const err = sampleStatusError(ctx.mode, ctx.current?.status ?? null, form.status, canProceed);
    if (err) addError(errors, 'status', err);
  }

  if (isBlank(form.specimenType)) addError(errors, 'specimenType', SAMPLE_MSG.required);
  else if (!specimenTypeOffered(type, req, form.specimenType!))
    addError(errors, 'specimenType', SAMPLE_MSG.specimenTypeNotOffered(form.specimenType!));
  if (type === 'TUMOR' && isBlank(form.sampleSite)) addError(errors, 'sampleSite', SAMPLE_MSG.required);
  if (isBlank(form.limsProjectId)) addError(errors, 'limsProjectId', SAMPLE_MSG.required);
  if (form.status === 'PROCEED') {
    if (isBlank(form.accessionId)) addError(errors, 'accessionId', SAMPLE_MSG.accessionRequired);
    if (isBlank(form.sampleGroupId)) addError(errors, 'sampleGroupId', SAMPLE_MSG.sgiError);
  }

  // dates: required, real, within the window; collection before received; plasma within 14 days
  const window = sampleDateWindow(type, ctx.today);
  const collected = checkDay(errors, form, 'collectedOn', window);
  const received = checkDay(errors, form, 'receivedOn', window);
  if (collected && received) {
    const sameDayAllowed = form.status === 'ON_HOLD' || form.status === 'CANCELLED';
    if (collected > received || (collected === received && !sameDayAllowed)) {
      addError(errors, 'collectedOn', SAMPLE_MSG.collectionBeforeReceived);
      addError(errors, 'receivedOn', SAMPLE_MSG.receivedAfterCollection);
    } else if (type === 'PLASMA' && daysBetween(collected, received) > PLASMA_RECEIPT_DAYS) {
      addError(errors, 'receivedOn', SAMPLE_MSG.plasmaWindow);
    }
  }
  return errors;
}

/** The first problem of a field wins. */
function addError(errors: FieldErrors, field: string, message: string) {
  if (!errors[field]) errors[field] = message;
}

/** A sample date: required, real, within the window; the day or null (the problem added). */
function checkDay(
  errors: FieldErrors,
  form: SampleForm,
  field: 'collectedOn' | 'receivedOn',
  window: { min: string; max: string },
): string | null {
  const v = form[field];
  if (isBlank(v)) {
    addError(errors, field, SAMPLE_MSG.required);
    return null;
  }
  const d = parseIsoDate(v);
  if (!d) {
    addError(errors, field, SAMPLE_MSG.invalidDate);
    return null;
  }
  if (d > window.max) addError(errors, field, SAMPLE_MSG.noLaterThan(formatDisplayDate(window.max)));
  else if (d < window.min) addError(errors, field, SAMPLE_MSG.noEarlierThan(formatDisplayDate(window.min)));
  return d;
}

/** The latest received date a plasma sample may have for its collection date (the dialog's date picker). */
export const plasmaReceivedMax = (collectedOn: string) => addDays(collectedOn, PLASMA_RECEIPT_DAYS);

/** A sample name as tables show it: at most 25 characters, cut with "...". */
export function sampleDisplayName(name: string | null | undefined): string {
  const s = name ?? '';
  return s.length <= SAMPLE_NAME_MAX ? s : `${s.slice(0, SAMPLE_NAME_MAX - 3).trimEnd()}...`;
}

/** Which sample actions of the order summary's Samples tab are enabled (spec 2 section 6). */
export function sampleActions(ctx: {
  permissions: readonly string[];
  draft: boolean;
  deleted: boolean;
  testStatuses: readonly TestStatus[];
  /** a sample type is chosen in the filter */
  typeChosen: boolean;
  /** a row is selected */
  selected: boolean;
  /** the samples are loaded */
  loaded: boolean;
}) {
  const allowed = ctx.permissions.includes('VIEW_SAMPLE_ACTIONS') && !ctx.draft;
  return {
    visible: ctx.permissions.includes('VIEW_SAMPLE_ACTIONS'),
    add: allowed && ctx.typeChosen && !ctx.deleted && samplesMayBeAdded(ctx.testStatuses),
    edit: allowed && ctx.selected,
    copy: allowed && ctx.loaded,
  };
}

/** Add needs a test selection that is not fully reported or cancelled. */
export function samplesMayBeAdded(testStatuses: readonly TestStatus[]): boolean {
  return testStatuses.some((s) => s !== 'CANCELLED' && !REPORTED_TEST_STATUSES.includes(s));
}

/** The key of the domain preference that gives a sample its work order and product data. */
export interface DomainPreferenceKey {
  domain: string;
  /** the one test type ordered, or DUAL for both */
  testType: string;
  orderType: OrderType;
  /** the sample kind */
  tissueType: SpecimenKind;
  specimenType: string;
}

/**
 * The domain of an account: the first known domain (other than the default) named as a whole word in the
 * account name (case-insensitive), else PSNL.
 */
export function sampleDomainOf(
  accountName: string | null | undefined,
  knownDomains: readonly string[] = [],
): string {
  const words = new Set(
    (accountName ?? '')
      .toUpperCase()
      .split(/[^A-Z0-9]+/)
      .filter(Boolean),
  );
  return (
    knownDomains.find((d) => d !== DEFAULT_SAMPLE_DOMAIN && words.has(d.toUpperCase())) ??
    DEFAULT_SAMPLE_DOMAIN
  );
}

export function domainPreferenceKey(
  req: SampleRequisition,
  type: SpecimenKind,
  specimenType: string,
  knownDomains: readonly string[] = [],
): DomainPreferenceKey {
  const types = [...new Set(req.testOrders.map((t) => t.testType))];
  return {
    domain: sampleDomainOf(req.accountName, knownDomains),
    testType: types.length === 1 ? types[0] : DUAL_TEST_TYPE,
    orderType: isSubsequentOrder(req) ? 'SUBSEQUENT_ORDER' : 'INITIAL_ORDER',
    tissueType: type,
    specimenType,
  };
}

/**
 * Copy samples (spec 2 section 5): PROCEED samples copied to a subsequent order need that order's parent,
 * else "Samples could not be copied". Returns the error or null.
 */
export function copySamplesError(args: {
  samples: readonly { status: SampleStatus | null }[];
  targetSubsequent: boolean;
  targetParentId: string | null | undefined;
}): string | null {
  if (args.samples.length === 0) return SAMPLE_MSG.copyNothing;
  const proceed = args.samples.some((s) => s.status === 'PROCEED');
  if (proceed && args.targetSubsequent && !args.targetParentId) return SAMPLE_MSG.copyFailed;
  return null;
}
