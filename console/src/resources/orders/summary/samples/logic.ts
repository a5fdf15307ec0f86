import {
  SAMPLE_MSG,
  defaultSampleStatus,
  domainPreferenceKey,
  proceedAllowed,
  SAMPLE_KINDS,
  type SampleForm,
  type SampleRequisition,
  type SpecimenKind,
} from '@onco/domain';
import { ruleText } from '../../wizard/ruleText';
import type { SampleBody, SampleRow, SamplesRequisition } from './api';

/** The list of the samples requisition that holds a kind. */
export const LIST_OF = { TUMOR: 'tumors', NORMAL: 'normals', PLASMA: 'plasmas' } as const satisfies Record<
  SpecimenKind,
  string
>;

/** The requisition as the sample rules read it, from the lab's answer. */
export function ruleRequisition(data: SamplesRequisition): SampleRequisition {
  return { ...data.requisition };
}

/** Every sample of the requisition, tumors first, then normals, then plasmas (creation order in each). */
export function allSamples(data: SamplesRequisition | undefined): SampleRow[] {
  return data ? [...data.tumors, ...data.normals, ...data.plasmas] : [];
}

/** The rows the table shows for the type filter (null: every kind). */
export function rowsFor(data: SamplesRequisition | undefined, type: SpecimenKind | null): SampleRow[] {
  if (!data) return [];
  return type ? data[LIST_OF[type]] : allSamples(data);
}

/** The lab's verdict: the requisition's workflow ignores this sample (it will not be added to the job). */
export const ignoredByWorkflow = (row: Pick<SampleRow, 'workflow'>) => row.workflow?.state === 'IGNORED';

/** One page (1-based) of rows. */
export function pageOf<T>(rows: readonly T[], page: number, perPage: number): T[] {
  return rows.slice((page - 1) * perPage, page * perPage);
}

/** The dialog's values for a new sample: PROCEED when allowed (else ON_HOLD), the requisition's sample group. */
export function newSampleForm(type: SpecimenKind, data: SamplesRequisition): SampleForm {
  const canProceed = proceedAllowed(ruleRequisition(data), type, data.ruleConfig);
  const limsProjectId = data.requisition.testOrders.find((t) => t.limsProjectId)?.limsProjectId ?? null;
  return {
    type,
    status: defaultSampleStatus(canProceed),
    specimenId: '',
    specimenType: '',
    sampleSite: '',
    name: '',
    limsProjectId,
    limsProjectName: null,
    accessionId: '',
    sampleGroupId: data.sampleGroupId ?? '',
    collectedOn: '',
    receivedOn: '',
    trackingNumber: '',
    doNotExhaust: false,
  };
}

/** The dialog's values for an existing sample. */
export function sampleFormOf(row: SampleRow): SampleForm {
  return {
    type: row.type,
    status: row.status,
    specimenId: row.specimenId ?? '',
    specimenType: row.specimenType ?? '',
    sampleSite: row.sampleSite ?? '',
    name: row.name ?? '',
    limsProjectId: row.limsProjectId,
    limsProjectName: row.limsProjectName,
    accessionId: row.accessionId ?? '',
    sampleGroupId: row.sampleGroupId ?? '',
    collectedOn: row.collectedOn ?? '',
    receivedOn: row.receivedOn ?? '',
    trackingNumber: row.trackingNumber ?? '',
    doNotExhaust: row.doNotExhaust ?? false,
    diagnosis: row.diagnosis,
  };
}

/** The body of a create or update: the form without its type, empty texts as null; id and version on update. */
export function sampleBody(form: SampleForm, existing?: SampleRow | null): SampleBody {
  const { type: _type, ...rest } = form;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) out[k] = typeof v === 'string' && v.trim() === '' ? null : v;
  if (existing) Object.assign(out, { id: existing.id, version: existing.version });
  return out as SampleBody;
}

/** The domain preference filter of a sample (the lab gives the requisition's domain). */
export function preferenceFilter(data: SamplesRequisition, type: SpecimenKind, specimenType: string) {
  const key = domainPreferenceKey(ruleRequisition(data), type, specimenType);
  return { ...key, domain: data.domain } as Record<string, string>;
}

/** The copy selection grouped by kind, as copySampleSource takes it. */
export function copySelection(samples: readonly SampleRow[], ids: readonly string[]) {
  const out = {
    tumors: [] as { id: string }[],
    normals: [] as { id: string }[],
    plasmas: [] as { id: string }[],
  };
  for (const kind of SAMPLE_KINDS)
    for (const s of samples) if (s.type === kind && ids.includes(s.id)) out[LIST_OF[kind]].push({ id: s.id });
  return out;
}

type Translate = (key: string, values?: Record<string, unknown>) => string;

/** The SAMPLE_MSG keys the form shows with a text of their own (the rest are the shared rules' or toasts). */
const SAMPLE_RULE_KEYS = {
  invalidSpecimenId: 1,
  specimenIdLocked: 1,
  accessionRequired: 1,
  sgiError: 1,
  collectionBeforeReceived: 1,
  receivedAfterCollection: 1,
  plasmaWindow: 1,
  proceedNotAllowed: 1,
  typeLocked: 1,
} as const;

/** The sample rule messages with a value in them: the pattern of the domain's wording and its key. */
const SAMPLE_PATTERNS: Array<[RegExp, string, string]> = [
  [/^The status (\S+) cannot be chosen for this sample\.$/, 'statusNotOffered', 'status'],
  [/^The sample is (\S+): its status cannot be changed\.$/, 'statusLocked', 'status'],
  [/^(\S+) samples cannot be added to this requisition\.$/, 'typeNotOffered', 'type'],
  [/^Specimen type (\S+) is not offered for this sample\.$/, 'specimenTypeNotOffered', 'specimenType'],
];

/**
 * A sample form message (@onco/domain SAMPLE_MSG, the spec's English) in the user's language: the sample rules
 * under `samples.rules.*`, the shared ones (required, dates) as the wizard translates them; values (a status, a
 * type) through `label`. A message it does not know (a server's reason) is shown as it came.
 */
export function sampleRuleText(message: string, t: Translate, label: (v: string) => string = (v) => v) {
  for (const [key, text] of Object.entries(SAMPLE_MSG))
    if (typeof text === 'string' && text === message && key in SAMPLE_RULE_KEYS)
      return t(`samples.rules.${key}`);
  for (const [re, key, name] of SAMPLE_PATTERNS) {
    const m = re.exec(message);
    if (m) return t(`samples.rules.${key}`, { [name]: label(m[1]!) });
  }
  return ruleText(message, t);
}
