/**
 * Lifecycle rules of a requisition after it is written (spec 1 section 4), shared by the server and the console:
 * what a signature covers and the display names lists show (DISQUALIFIED removing due dates is `removesDueDates`
 * in submit.ts).
 */

/** The blocks naming who the order is for and from, and what is ordered, in the form's order. */
export const PARTY_BLOCKS = [
  'patient',
  'physician',
  'account',
  'hospitalLocation',
  'pathologist',
  'pathologistLocation',
  'additionalPhysician',
  'additionalPhysicianLocation',
  'orderInformation',
] as const;

/**
 * The blocks of a requisition a client fills in and may save; everything else on a requisition (numbers, tests,
 * approvals, attachments, the clinical review status, audit fields) is owned by the server or by its own call.
 */
export const FORM_BLOCKS = [
  ...PARTY_BLOCKS,
  'tumorSpecimen',
  'normalSpecimen',
  'billings',
  'consent',
  'comment',
  'kitId',
  'isNYState',
] as const;

/**
 * The blocks a signature (approval) covers: every block of the form the user fills in (FORM_BLOCKS). Not covered:
 * the approvals themselves, attachments (uploaded by their own call), the clinical review status (the reviewers'),
 * the server's bookkeeping and the wizard's navigation and progress (kept by the console, never stored).
 */
export const SIGNED_BLOCKS = FORM_BLOCKS;
export type SignedBlock = (typeof SIGNED_BLOCKS)[number];

/** Fields of a stored billing that the server sets (not what the user typed). */
const BILLING_SERVER_FIELDS = new Set([
  'id',
  '_id',
  'archived',
  'deleted',
  'createdBy',
  'createdOn',
  'updatedBy',
  'updatedOn',
  'version',
  'canonicalPolicyNumber',
  'canonicalGroupNumber',
]);

/**
 * The content of a value as a signature sees it: "nothing" (null, undefined, '', [], an object of nothing) is
 * one value, so a block saved back as it was loaded is no change; scalars compare by their text (a number typed
 * as '40' and stored as 40 is the same content); object keys are order-free.
 */
function canonical(value: unknown, billing = false): unknown {
  if (value === null || value === undefined || value === '') return undefined;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) {
    const items = value.map((v) => canonical(v, billing));
    return items.every((i) => i === undefined) ? undefined : items.map((i) => i ?? null);
  }
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value as object).sort()) {
      if (billing && BILLING_SERVER_FIELDS.has(key)) continue;
      const c = canonical((value as Record<string, unknown>)[key]);
      if (c !== undefined) out[key] = c;
    }
    return Object.keys(out).length ? out : undefined;
  }
  return String(value);
}

/** The signed blocks whose content differs between two versions of a requisition (empty: nothing signed changed). */
export function signedBlocksChanged(
  before: Partial<Record<SignedBlock, unknown>>,
  after: Partial<Record<SignedBlock, unknown>>,
): SignedBlock[] {
  return SIGNED_BLOCKS.filter((block) => {
    const billing = block === 'billings';
    return (
      JSON.stringify(canonical(before[block], billing)) !== JSON.stringify(canonical(after[block], billing))
    );
  });
}

/**
 * The dotted paths of the signed fields whose content differs between two versions of a requisition, in block
 * order (e.g. `tumorSpecimen.stage`, `billings.0.policyNumber`): what an edit of a submitted form changed. The
 * same notion of content as `signedBlocksChanged` (empty values are one value; server-set billing fields ignored).
 */
export function signedFieldsChanged(
  before: Partial<Record<SignedBlock, unknown>>,
  after: Partial<Record<SignedBlock, unknown>>,
): string[] {
  const out: string[] = [];
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
  const walk = (a: unknown, b: unknown, path: string) => {
    if (JSON.stringify(a) === JSON.stringify(b)) return;
    if (
      (isObject(a) || a === undefined) &&
      (isObject(b) || b === undefined) &&
      (isObject(a) || isObject(b))
    ) {
      const keys = new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})]);
      for (const k of [...keys].sort()) walk(a?.[k], b?.[k], `${path}.${k}`);
      return;
    }
    out.push(path);
  };
  for (const block of SIGNED_BLOCKS) {
    const billing = block === 'billings';
    walk(canonical(before[block], billing), canonical(after[block], billing), block);
  }
  return out;
}

/**
 * A save of a signed draft keeps its approvals only when nothing the signature covers changed; otherwise the
 * approvals are removed and the user must sign again (docs/decisions.md "Requisition rules").
 */
export function approvalsAfterSave<A>(
  approvals: readonly A[],
  before: Partial<Record<SignedBlock, unknown>>,
  after: Partial<Record<SignedBlock, unknown>>,
): A[] {
  if (!approvals.length) return [...approvals];
  return signedBlocksChanged(before, after).length ? [] : [...approvals];
}

/** A person's display name as lists show it: the stored name, else "First Last"; null when there is none. */
export function displayNameOf(
  person: { name?: string | null; firstName?: string | null; lastName?: string | null } | null | undefined,
): string | null {
  if (!person) return null;
  const stored = person.name?.trim();
  if (stored) return stored;
  const joined = [person.firstName, person.lastName]
    .map((s) => s?.trim())
    .filter(Boolean)
    .join(' ');
  return joined || null;
}
