import type { Permission } from '../permissions';

/**
 * The clinical fields of a requisition only some users may set (spec 1 "Permissions in this area": CAN_ADD_*,
 * CAN_REVIEW_DIAGNOSIS). Decision (docs/decisions.md, 2026-11-28): a save that would CHANGE one of them (set,
 * alter or clear it) without its permission is REFUSED (403 naming the field and the permission), never silently
 * dropped: a silently ignored field is a lost entry on a signed form. A save that repeats the stored value is not
 * a change, so a user without the permission can still save the rest of a form someone else filled in. The
 * wizard disables the same inputs by this table.
 */
export interface ClinicalField {
  /** the form path (block.field) */
  path: string;
  permission: Permission;
  /** the field's name in messages (the wizard's label) */
  label: string;
  /**
   * Whether this value needs the permission at all (default: any value does). The diagnosis path needs
   * CAN_ADD_DIAGNOSIS only when it is free text, not a node of the diagnosis tree.
   */
  needs?: (value: unknown) => boolean;
}

/** A stored diagnosis path is a node of the tree when it is the JSON of a node with a code. */
export function isTreeDiagnosis(value: unknown): boolean {
  if (typeof value !== 'string' || !value) return false;
  try {
    const v = JSON.parse(value) as { code?: unknown };
    return !!v && typeof v === 'object' && typeof v.code === 'string' && v.code !== '';
  } catch {
    return false;
  }
}

export const CLINICAL_FIELDS: readonly ClinicalField[] = [
  { path: 'tumorSpecimen.priorTherapies', permission: 'CAN_ADD_PRIOR_THERAPIES', label: 'Prior therapies' },
  {
    path: 'tumorSpecimen.currentTherapies',
    permission: 'CAN_ADD_CURRENT_THERAPIES',
    label: 'Current therapies',
  },
  { path: 'tumorSpecimen.specimenType', permission: 'CAN_ADD_SPECIMEN_TYPE', label: 'Tumor specimen type' },
  { path: 'tumorSpecimen.content', permission: 'CAN_ADD_TUMOR_PERCENTAGE', label: 'Tumor percentage' },
  {
    path: 'tumorSpecimen.dateOfDiagnosis',
    permission: 'CAN_ADD_DATE_OF_DIAGNOSIS',
    label: 'Date of diagnosis',
  },
  {
    path: 'tumorSpecimen.octDxBreadCrumb',
    permission: 'CAN_ADD_DIAGNOSIS',
    label: 'a diagnosis that is not in the diagnosis tree',
    needs: (value) => !isEmpty(value) && !isTreeDiagnosis(value),
  },
  {
    path: 'tumorSpecimen.reviewDiagnosis',
    permission: 'CAN_REVIEW_DIAGNOSIS',
    label: 'Review diagnosis',
  },
];

/** The clinical field at a form path, or undefined. */
export const clinicalFieldAt = (path: string) => CLINICAL_FIELDS.find((f) => f.path === path);

/**
 * Whether the input of a form path is locked for a user: a clinical field whose every value needs a permission
 * they lack (the wizard and the Edit panel disable it; the diagnosis path's free text is the dialog's to offer).
 */
export function clinicalFieldLocked(path: string, granted: readonly string[]): boolean {
  const field = clinicalFieldAt(path);
  return !!field && !field.needs && !granted.includes(field.permission);
}

function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || v === '' || v === false || (Array.isArray(v) && v.length === 0);
}

/** One value for comparing: empty values alike, numbers and numeric text alike, lists by their entries. */
function comparable(v: unknown): string {
  if (isEmpty(v)) return '';
  if (Array.isArray(v)) return JSON.stringify(v.map((x) => String(x).trim()));
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return v.trim();
  return JSON.stringify(v);
}

function at(form: unknown, path: string): unknown {
  let v: unknown = form;
  for (const k of path.split('.'))
    v = v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
  return v;
}

/**
 * The clinical fields `next` changes against `previous` (null: a new requisition) that the user may not set.
 * A block `next` does not carry is not changed.
 */
export function refusedClinicalFields(
  next: Record<string, unknown>,
  previous: Record<string, unknown> | null,
  granted: readonly string[],
): ClinicalField[] {
  return CLINICAL_FIELDS.filter((f) => {
    if (granted.includes(f.permission)) return false;
    const block = f.path.split('.')[0];
    if (next[block] === undefined) return false;
    const value = at(next, f.path);
    const before = at(previous, f.path);
    if (comparable(value) === comparable(before)) return false;
    const needs = f.needs ?? (() => true);
    // setting or changing needs the permission when the new value does; clearing when the old one did
    return needs(value) || (isEmpty(value) && needs(before));
  });
}

export const msgClinicalFieldPermission = (f: ClinicalField) =>
  `Only users with ${f.permission} may set ${f.label}.`;
