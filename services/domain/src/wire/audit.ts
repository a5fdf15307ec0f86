import type { WireDate } from './record';

/**
 * The audit trail's vocabulary (docs/audit.md): what an entry records about one access to or change of PHI. The
 * server stores entries (services/platform/src/audit/, dates `Date`), publishes them on the `audit` topic and
 * lists them at GET /uam/api/v1/audit (`AuditEntryRow`, dates ISO text).
 */

/**
 * What was done: a read, a change, an export or a download (a refused attempt keeps the action it tried), or a
 * session's start and end (`sign-in`, refused when the password or the account is refused; `sign-out`).
 */
export const AUDIT_ACTIONS = [
  'read',
  'create',
  'update',
  'delete',
  'export',
  'download',
  'refused',
  'sign-in',
  'sign-out',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** allowed: the data was served or the change committed; refused: a 403 or 404 on a PHI route. */
export const AUDIT_OUTCOMES = ['allowed', 'refused'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** The kinds of record an entry is about. */
export const AUDIT_RECORD_TYPES = [
  'patient',
  'requisition',
  'test',
  'sample',
  'billing-case',
  'report',
  'trf',
  'attachment',
  'timeline',
  'audit-trail',
  'user',
  // a message thread and a requisition's comments (their text may speak of the patient)
  'message',
  'comment',
  // reference data a requisition names (no PHI, but changes a compliance officer follows)
  'account',
  'physician',
  'pathologist',
  'hospital-location',
  'maintenance-window',
  'sample-group',
] as const;
export type AuditRecordType = (typeof AUDIT_RECORD_TYPES)[number];

/** The chain's first link: the previous hash of entry 1. */
export const AUDIT_GENESIS_HASH = '0'.repeat(64);

/** Who acted: a signed-in user, or `system` (a consumer, a worker). */
export interface AuditWho {
  userId: string;
  role: string;
  /** display name at the time (staff names are not PHI); empty for `system` */
  name: string;
}

/** The record: its kind, its id and the patient whose data it holds (null when unknown, e.g. a refused read). */
export interface AuditWhat {
  type: AuditRecordType;
  id: string | null;
  patientId: string | null;
  /**
   * A list read (a page of orders, tests, patients, billing cases): the patients of the rows served, distinct, at
   * most AUDIT_LIST_PATIENTS (`count` says how many rows); absent on every other entry.
   */
  patientIds?: string[];
}

/** The most patients one list read's entry names (a page is at most 500 rows; the rest are counted). */
export const AUDIT_LIST_PATIENTS = 500;

/** Where from: the client's address as the server sees it (TRUST_PROXY), its user agent, the request id. */
export interface AuditFrom {
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
}

/** One entry as it is recorded (before it is chained). */
export interface AuditEntryFields<D> {
  /** the entry's id (a UUID; also the id of its `audit` event) */
  id: string;
  when: D;
  who: AuditWho;
  /** the accounts on whose behalf: the record's account when known, else the user's accounts */
  onBehalfOf: string[];
  what: AuditWhat;
  action: AuditAction;
  outcome: AuditOutcome;
  from: AuditFrom;
  /** a change: the names (dotted paths) of the fields it changed, never their values; null for a read */
  changes: string[] | null;
  /** the route (`GET /portal/api/v1/testOrderForms/:id`), or the consumer for a system change */
  route: string | null;
  /** the reply's HTTP status (a refused read: 403 or 404); null for a change */
  status: number | null;
  /** an export: how many rows it held */
  count: number | null;
}

/** An entry in the chain: its sequence number, the previous entry's hash and its own (SHA-256, hex). */
export interface ChainedAuditFields<D> extends AuditEntryFields<D> {
  seq: number;
  prevHash: string;
  hash: string;
}

/** A row of GET /uam/api/v1/audit. */
export type AuditEntryRow = ChainedAuditFields<WireDate>;
