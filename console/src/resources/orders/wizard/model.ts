/**
 * Pure helpers of the order wizard (no React): the form's shape on the wire, dotted-path access, the step
 * progress kept per requisition, and the rule context for @onco/domain. Every RULE comes from @onco/domain.
 */
import {
  REQUISITION_FORM_KEYS,
  STEP_KEYS,
  WIZARD_STEPS,
  isBlank,
  type BlockName,
  type FieldErrors,
  type RequisitionForm,
  type RuleContext,
  type StepKey,
  type StepProgress,
} from '@onco/domain';

/** A requisition as GET /testOrderForms/{id} returns it (the form plus server-owned fields). */
export type LoadedRequisition = RequisitionForm & {
  id: string;
  testRequisitionId?: string | null;
  version?: number;
  actions?: Record<string, boolean>;
  [key: string]: unknown;
};

/** The form keys the API accepts (RequisitionFormSchema's, without loading zod); the rest is server-owned. */
const FORM_KEYS: readonly (keyof RequisitionForm)[] = REQUISITION_FORM_KEYS;

/**
 * The save/create body: only the form's own keys, without approvals (the server takes them only from its
 * signing flow), status DRAFT (a draft save).
 */
export function toSaveBody(form: RequisitionForm): RequisitionForm {
  const out: Record<string, unknown> = {};
  for (const k of FORM_KEYS) {
    if (k === 'approvals' || k === 'status' || k === 'clinicalReviewStatus') continue;
    const v = (form as Record<string, unknown>)[k];
    if (v !== undefined) out[k] = v;
  }
  out.status = 'DRAFT';
  return out as RequisitionForm;
}

/** The submit body: the form plus the requisition id (POST /testOrderForms/submit). */
export function toSubmitBody(form: RequisitionForm, id: string): RequisitionForm & { id: string } {
  const body = toSaveBody(form) as RequisitionForm & { id: string };
  delete (body as Record<string, unknown>).status;
  body.id = id;
  return body;
}

/** A new requisition: nothing chosen, primary billing row ready. */
export function emptyForm(): RequisitionForm {
  return {
    orderInformation: { nextDx: false, nextPersonalDx: false, orderType: 'INITIAL_ORDER' },
    billings: [{ preference: 'PRIMARY', relationshipToPatient: 'SELF' }],
  };
}

export function getPath(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (cur === null || cur === undefined || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** An immutable set of a dotted path ('billings.0.policyNumber'); missing objects/arrays are created. */
export function setPath<T>(obj: T, path: string, value: unknown): T {
  const parts = path.split('.');
  const rec = (cur: unknown, i: number): unknown => {
    const key = parts[i];
    const isIndex = /^\d+$/.test(key);
    const base: Record<string, unknown> | unknown[] = Array.isArray(cur)
      ? [...cur]
      : cur && typeof cur === 'object'
        ? { ...(cur as Record<string, unknown>) }
        : isIndex
          ? []
          : {};
    const next = i === parts.length - 1 ? value : rec((base as Record<string, unknown>)[key], i + 1);
    (base as Record<string, unknown>)[key] = next;
    return base;
  };
  return rec(obj, 0) as T;
}

/** Today as 'YYYY-MM-DD' in the user's time zone (the rules take the caller's clock). */
export function todayIso(now: Date = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`;
}

export function ruleContext(permissions: readonly string[], now?: Date): RuleContext {
  return { today: todayIso(now), permissions };
}

export function stepIndex(step: StepKey): number {
  return STEP_KEYS.indexOf(step);
}

/** The block a field path belongs to (for 'updated' progress), from WIZARD_STEPS. */
export function stepOfPath(path: string): StepKey | null {
  const root = path.split('.')[0];
  const map: Record<string, StepKey> = {
    orderInformation: 'patient',
    patient: 'patient',
    physician: 'provider',
    account: 'provider',
    hospitalLocation: 'provider',
    pathologist: 'pathology',
    pathologistLocation: 'pathology',
    additionalPhysician: 'additionalProvider',
    additionalPhysicianLocation: 'additionalProvider',
    tumorSpecimen: 'specimen',
    normalSpecimen: 'specimen',
    billings: 'billing',
    attachments: 'attachments',
    approvals: 'authorization',
    consent: 'authorization',
  };
  return map[root] ?? null;
}

/** The wizard's own progress: where the user is, which steps they changed or passed. */
export interface WizardProgress extends StepProgress {
  step: StepKey;
}

export const NEW_PROGRESS: WizardProgress = { step: 'patient', updated: [], passed: [] };

const add = (list: readonly StepKey[], k: StepKey) => (list.includes(k) ? list : [...list, k]);

export function markUpdated(p: WizardProgress, step: StepKey | null): WizardProgress {
  return step ? { ...p, updated: add(p.updated, step) } : p;
}

/** Moving from the current step to another: the current one counts as passed. */
export function moveTo(p: WizardProgress, to: StepKey): WizardProgress {
  return { ...p, step: to, passed: add(p.passed, p.step) };
}

export function nextStep(step: StepKey): StepKey | null {
  return STEP_KEYS[stepIndex(step) + 1] ?? null;
}
export function previousStep(step: StepKey): StepKey | null {
  const i = stepIndex(step);
  return i > 0 ? STEP_KEYS[i - 1] : null;
}

/**
 * Progress for a draft opened without a remembered progress: every step that holds data counts as updated, and
 * the user resumes at the first step without data (or the Summary when all hold data).
 */
export function progressFromForm(form: RequisitionForm): WizardProgress {
  const holds: Partial<Record<StepKey, boolean>> = {};
  const f = form as Record<string, unknown>;
  const filled = (v: unknown): boolean =>
    !isBlank(v) &&
    (typeof v !== 'object' || Array.isArray(v)
      ? !Array.isArray(v) || v.some(filled)
      : Object.values(v as object).some(filled));
  for (const [k, v] of Object.entries(f)) {
    const s = stepOfPath(k);
    if (!s || s === 'billing') continue;
    if (k === 'orderInformation') {
      const o = (v ?? {}) as Record<string, unknown>;
      if (o.nextDx || o.nextPersonalDx) holds.patient = true;
      continue;
    }
    if (filled(v)) holds[s] = true;
  }
  if ((form.billings ?? []).some((b) => !isBlank(b.billingType))) holds.billing = true;
  const updated = STEP_KEYS.filter((k) => holds[k]);
  const firstEmpty = STEP_KEYS.find(
    (k) => !holds[k] && k !== 'pathology' && k !== 'additionalProvider' && k !== 'attachments',
  );
  const step = firstEmpty && firstEmpty !== 'authorization' ? firstEmpty : 'summary';
  const passed = STEP_KEYS.slice(0, stepIndex(step));
  return { step, updated, passed };
}

/** Remembered progress per requisition (local storage key `oncotrf.wizard.{id}`). */
export const PROGRESS_KEY = (id: string) => `oncotrf.wizard.${id}`;

export function readProgress(id: string): WizardProgress | null {
  try {
    const raw = localStorage.getItem(PROGRESS_KEY(id));
    if (!raw) return null;
    const p = JSON.parse(raw) as WizardProgress;
    if (!STEP_KEYS.includes(p.step) || !Array.isArray(p.updated) || !Array.isArray(p.passed)) return null;
    return p;
  } catch {
    return null;
  }
}
export function writeProgress(id: string, p: WizardProgress) {
  try {
    localStorage.setItem(PROGRESS_KEY(id), JSON.stringify(p));
  } catch {
    /* storage full or unavailable: progress is still derived from the form */
  }
}

/** The field errors of one step's blocks, merged (path -> message). */
export function stepErrors(errors: Record<BlockName, FieldErrors>, step: StepKey): FieldErrors {
  const def = WIZARD_STEPS.find((s) => s.key === step);
  const out: FieldErrors = {};
  for (const b of def?.blocks ?? []) Object.assign(out, errors[b] ?? {});
  return out;
}

/** The server's 422 body on submit lists problems per block: flattened to path -> message. */
export function problemsFromError(body: unknown): FieldErrors {
  const blocks = (body as { details?: { blocks?: Record<string, FieldErrors> } } | null)?.details?.blocks;
  const out: FieldErrors = {};
  for (const e of Object.values(blocks ?? {})) Object.assign(out, e);
  return out;
}
