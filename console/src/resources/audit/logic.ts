/** The Audit screen's pure rules: the list filter of its inputs, and how a cell reads. */
import type { AuditEntryRow } from '@onco/domain';
import type { DayRange } from '../../components/dayRange';

export interface AuditInputs {
  userId: string;
  patientId: string;
  recordId: string;
  range: DayRange;
}

export const NO_INPUTS: AuditInputs = {
  userId: '',
  patientId: '',
  recordId: '',
  range: { start: null, end: null },
};

/** The filter the inputs add to the list's (trimmed ids; the day range as `when` between epoch milliseconds). */
export function auditFilter(inputs: AuditInputs): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of ['userId', 'patientId', 'recordId'] as const) {
    const v = inputs[k].trim();
    if (v) out[k] = v;
  }
  const { start, end } = inputs.range;
  if (start !== null || end !== null) out.when = `between(${start ?? 0},${end ?? 8_640_000_000_000_000})`;
  return out;
}

/** A query string for the CSV export: the same filter the list shows, JSON-encoded. */
export function exportQuery(filter: Record<string, unknown>): string {
  const q = new URLSearchParams({ filter: JSON.stringify(filter), sort: 'seq,DESC' });
  return q.toString();
}

/** The user column: the name, else the id (the system acts as `system`). */
export const whoText = (r: Pick<AuditEntryRow, 'who'>) => r.who.name || r.who.userId;

/**
 * The patient column: the record's patient, or a list read's patients (the first, then how many more: the entry
 * dialog lists them all).
 */
export function patientsText(r: Pick<AuditEntryRow, 'what'>, more: (n: number) => string): string {
  if (r.what.patientId) return r.what.patientId;
  const ids = r.what.patientIds ?? [];
  return ids.length > 1 ? `${ids[0]} ${more(ids.length - 1)}` : (ids[0] ?? '');
}

/** A hash shortened for the table (the entry dialog shows it whole). */
export const shortHash = (h: string) => (h.length > 12 ? `${h.slice(0, 12)}…` : h);
