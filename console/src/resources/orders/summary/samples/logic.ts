import {
  defaultSampleStatus,
  domainPreferenceKey,
  proceedAllowed,
  SAMPLE_KINDS,
  type SampleForm,
  type SampleRequisition,
  type SpecimenKind,
} from '@onco/domain';
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
