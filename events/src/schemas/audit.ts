/** The `audit` family: one entry of the audit trail, once chained (docs/audit.md), for a SIEM. */
import { z } from 'zod';
import { AUDIT_ACTIONS, AUDIT_LIST_PATIENTS, AUDIT_OUTCOMES, AUDIT_RECORD_TYPES } from '@onco/domain';
import { id, instant } from './fields';

const sha256 = (description: string) =>
  z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .describe(description);
const text = (max: number, description: string) => z.string().max(max).nullable().describe(description);

const AuditWhatV1 = z
  .object({
    type: z.enum(AUDIT_RECORD_TYPES).describe('The kind of record'),
    id: text(200, 'The record id (null for an export of many, a list, or a sign-in of no known account)'),
    patientId: text(200, 'The patient whose data it is (null when unknown, e.g. a refused read)'),
  })
  .describe('The record');

export const AuditDataV1 = z
  .object({
    entryId: id('The audit entry id (a UUID, also the event id); the subject'),
    seq: z.number().int().min(1).describe('Its place in the chain: 1, 2, 3, ... with no gaps'),
    prevHash: sha256('The previous entry’s hash (64 zeros for entry 1)'),
    hash: sha256('SHA-256 (hex) of the canonical serialization of the entry’s fields and prevHash'),
    when: instant('When the access or change happened'),
    who: z
      .object({
        userId: id('The user id, or "system" for a consumer or worker'),
        role: z.string().max(100).describe('The user’s role (ROLE_...), SYSTEM for the system'),
        name: z.string().max(300).describe('The user’s display name at the time (empty for the system)'),
      })
      .describe('Who acted'),
    onBehalfOf: z
      .array(id('An account id'))
      .max(50)
      .describe("On whose behalf: the record's account when known, else the user's accounts"),
    what: AuditWhatV1,
    action: z.enum(AUDIT_ACTIONS).describe('What was done (a refused attempt keeps the action it tried)'),
    outcome: z.enum(AUDIT_OUTCOMES).describe('allowed, or refused (a 403 or 404 on a PHI route)'),
    from: z
      .object({
        ip: text(100, 'The client address as the server sees it'),
        userAgent: text(512, 'The client’s user agent'),
        requestId: text(100, 'The request id (x-request-id)'),
      })
      .describe('Where from'),
    changes: z
      .array(z.string().max(200))
      .nullable()
      .describe('A change: the names of the fields it changed (never their values); null for a read'),
    route: text(300, 'The route (method and path pattern), or null for a system change'),
    status: z.number().int().nullable().describe('The HTTP status of a read (403 or 404 when refused)'),
    count: z.number().int().min(0).nullable().describe('An export: how many rows it held'),
  })
  .describe(
    'One audit trail entry: who read, changed, exported or downloaded which record, and whether allowed',
  );

/**
 * schemaVersion 2 (additive, 2026-11-29): a list read (a page of orders, tests, patients, billing cases) names the
 * patients of its rows in `what.patientIds`; the sign-in and sign-out actions and the reference record types are
 * new enumeration values of the same version.
 */
export const AuditDataV2 = AuditDataV1.extend({
  what: AuditWhatV1.extend({
    patientIds: z
      .array(id('A patient id'))
      .max(AUDIT_LIST_PATIENTS)
      .optional()
      .describe(
        'A list read: the patients of the rows served, distinct (schemaVersion 2; absent on other entries and before)',
      ),
  }).describe('The record'),
}).describe(
  'One audit trail entry: who read, changed, exported or downloaded which record (or signed in or out), and whether allowed',
);
export type AuditData = z.infer<typeof AuditDataV2>;
