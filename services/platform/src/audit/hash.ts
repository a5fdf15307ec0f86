/**
 * The audit chain's hashing and its check, pure (docs/audit.md "Tamper-evident"): each entry's hash is SHA-256
 * over a canonical serialization of its fields and the previous entry's hash, so changing, removing or
 * re-ordering an entry breaks the link after it.
 */
import { createHash } from 'node:crypto';
import { AUDIT_GENESIS_HASH, type ChainedAuditFields } from '@onco/domain';

export type ChainedEntry = ChainedAuditFields<Date>;

/**
 * Canonical JSON: object keys sorted (recursively), no whitespace, dates as ISO 8601 text, `undefined` left out.
 * Two equal entries serialize to the same bytes whichever order their fields were built or stored in.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v)).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  if (typeof value === 'number' && !Number.isFinite(value))
    throw new Error('audit: a number that is not finite');
  return JSON.stringify(value);
}

/** The fields the hash covers: every field of the entry but the hash itself, by name (nothing the store adds). */
export function hashedFields(e: ChainedEntry): Record<string, unknown> {
  return {
    seq: e.seq,
    prevHash: e.prevHash,
    id: e.id,
    when: e.when,
    who: { userId: e.who.userId, role: e.who.role, name: e.who.name },
    onBehalfOf: e.onBehalfOf,
    // a list read's patients are hashed; an entry without them hashes as before they existed
    what: {
      type: e.what.type,
      id: e.what.id,
      patientId: e.what.patientId,
      ...(e.what.patientIds ? { patientIds: e.what.patientIds } : {}),
    },
    action: e.action,
    outcome: e.outcome,
    from: { ip: e.from.ip, userAgent: e.from.userAgent, requestId: e.from.requestId },
    changes: e.changes,
    route: e.route,
    status: e.status,
    count: e.count,
  };
}

/** SHA-256 (hex) of the entry's canonical serialization, its previous hash included. */
export function entryHash(e: ChainedEntry): string {
  return createHash('sha256')
    .update(canonicalJson(hashedFields(e)))
    .digest('hex');
}

/** Link entries (in order) onto a chain whose last entry is `head`: sequence numbers, previous hashes, hashes. */
export function chainEntries(
  head: { seq: number; hash: string },
  entries: Array<Omit<ChainedEntry, 'seq' | 'prevHash' | 'hash'>>,
): ChainedEntry[] {
  let { seq, hash } = head;
  return entries.map((e) => {
    const linked = { ...e, seq: seq + 1, prevHash: hash, hash: '' } as ChainedEntry;
    linked.hash = entryHash(linked);
    seq = linked.seq;
    hash = linked.hash;
    return linked;
  });
}

/** Where a check of the chain found it broken, and why (the first break only). */
export interface ChainBreak {
  /** the sequence number where the chain stops being intact */
  seq: number;
  entryId: string | null;
  reason: 'modified' | 'missing' | 'link' | 'head';
  message: string;
}

export interface ChainCheck {
  ok: boolean;
  /** entries checked */
  checked: number;
  /** the last intact link (seq and hash) */
  last: { seq: number; hash: string };
  broken: ChainBreak | null;
}

/**
 * Check entries in sequence order against the chain's start (`from`: seq 0 and the genesis hash, or the last
 * archived entry) and, at the end, against the head (the last seq and hash the chain recorded): a modified entry
 * (its hash no longer matches its fields), a missing one (a gap in the numbers, or entries missing at the end),
 * and a broken link (its previous hash is not its predecessor's). Stops at the first break.
 */
export async function checkChain(
  entries: AsyncIterable<ChainedEntry> | Iterable<ChainedEntry>,
  opts: { from?: { seq: number; hash: string }; head?: { seq: number; hash: string } | null } = {},
): Promise<ChainCheck> {
  let last = opts.from ?? { seq: 0, hash: AUDIT_GENESIS_HASH };
  let checked = 0;
  const fail = (b: ChainBreak): ChainCheck => ({ ok: false, checked, last, broken: b });
  for await (const e of entries) {
    if (e.seq !== last.seq + 1) {
      return fail({
        seq: last.seq + 1,
        entryId: null,
        reason: 'missing',
        message: `entry ${last.seq + 1} is missing (the next entry is ${e.seq})`,
      });
    }
    if (entryHash(e) !== e.hash) {
      return fail({
        seq: e.seq,
        entryId: e.id,
        reason: 'modified',
        message: `entry ${e.seq} was modified: its fields no longer give its hash`,
      });
    }
    if (e.prevHash !== last.hash) {
      return fail({
        seq: e.seq,
        entryId: e.id,
        reason: 'link',
        message: `entry ${e.seq} does not link to entry ${last.seq}: its previous hash differs`,
      });
    }
    last = { seq: e.seq, hash: e.hash };
    checked++;
  }
  const head = opts.head;
  if (head && (head.seq !== last.seq || head.hash !== last.hash)) {
    return fail({
      seq: last.seq + 1,
      entryId: null,
      reason: head.seq > last.seq ? 'missing' : 'head',
      message:
        head.seq > last.seq
          ? `entries ${last.seq + 1} to ${head.seq} are missing (the chain's head is at ${head.seq})`
          : `the chain's head (${head.seq}) does not match its last entry (${last.seq})`,
    });
  }
  return { ok: true, checked, last, broken: null };
}
