/** The sample form (spec 2 section 5 "Sample form"): its fields, its date window and its validation. */
import type { SampleStatus, SpecimenKind } from '../enums';
import { addDays, addMonths, addYears, formatDisplayDate, parseIsoDate } from '../requisition/dates';
import { isBlank, type FieldErrors } from '../requisition/issues';
import {
  PLASMA_RECEIPT_DAYS,
  SAMPLE_MIN_AGE,
  SAMPLE_MSG,
  proceedAllowed,
  sampleStatusError,
  sampleTypeOffered,
  specimenTypeOffered,
  type SampleRequisition,
  type SampleRuleConfig,
} from './sample-rules';

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
