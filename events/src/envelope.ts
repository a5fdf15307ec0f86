/**
 * The event envelope (CloudEvents-like) shared by every family, and `createEvent`.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  CURRENT_SCHEMA_VERSION,
  DATA_SCHEMAS,
  EVENT_FAMILIES,
  SUBJECT_FIELD,
  dataSchemaFor,
  type EventData,
  type EventFamily,
} from './schemas';

/** `type` of the envelope per family. */
export const EVENT_TYPES = {
  'requisition-submitted': 'requisition.submitted',
  'requisition-changed': 'requisition.changed',
  'test-status': 'test.status-changed',
  sample: 'sample.changed',
  'billing-case': 'billing-case.changed',
  attachment: 'attachment.changed',
  'sample-manifest': 'sample-manifest.processed',
  patient: 'patient.changed',
  'patient-requisitions': 'patient-requisitions.moved',
  audit: 'audit.recorded',
} as const satisfies Record<EventFamily, string>;
export type EventType = (typeof EVENT_TYPES)[EventFamily];

/** Default `source` per family (the producing service and resource). */
export const EVENT_SOURCES = {
  'requisition-submitted': '/portal/requisitions',
  'requisition-changed': '/portal/requisitions',
  'test-status': '/lab/test-orders',
  sample: '/lab/samples',
  'billing-case': '/billing/cases',
  attachment: '/portal/attachments',
  'sample-manifest': '/lab/sample-manifests',
  patient: '/portal/patients',
  'patient-requisitions': '/portal/requisitions',
  audit: '/audit',
} as const satisfies Record<EventFamily, string>;

const FAMILY_BY_TYPE: Record<string, EventFamily> = Object.fromEntries(
  EVENT_FAMILIES.map((f) => [EVENT_TYPES[f], f]),
);

/** The family an envelope `type` belongs to, or undefined for an unknown type. */
export function familyOfType(type: string): EventFamily | undefined {
  return Object.prototype.hasOwnProperty.call(FAMILY_BY_TYPE, type) ? FAMILY_BY_TYPE[type] : undefined;
}

/** Envelope fields without a typed `data` (what every event has in common). */
export const EnvelopeBase = z.object({
  id: z.uuid().describe('Unique event id (UUID). Consumers de-duplicate by this id.'),
  type: z.string().min(1).describe('Event type, e.g. test.status-changed'),
  source: z.string().min(1).describe('Producing service and resource, e.g. /portal/requisitions'),
  subject: z.string().min(1).describe('Id of the entity the event is about; also the Kafka message key'),
  time: z.iso.datetime({ offset: true }).describe('When the change happened (ISO 8601)'),
  schemaVersion: z.number().int().min(1).describe('Version of the data schema within the topic version'),
  traceId: z.string().min(1).describe('Correlation id linking the request and every event it caused'),
  data: z.unknown(),
});
export type EnvelopeBase = z.infer<typeof EnvelopeBase>;

/** A typed envelope of one family. */
export type EventEnvelope<F extends EventFamily = EventFamily> = {
  [K in F]: Omit<EnvelopeBase, 'type' | 'data'> & { type: (typeof EVENT_TYPES)[K]; data: EventData<K> };
}[F];
/** Any event of the families (a union discriminated by `type`). */
export type AnyEvent = EventEnvelope<EventFamily>;

/** The zod schema of a family's envelope at its current schemaVersion (used for docs/AsyncAPI). */
export function envelopeSchema<F extends EventFamily>(family: F) {
  const versions = DATA_SCHEMAS[family] as Record<number, z.ZodType>;
  return EnvelopeBase.extend({
    type: z.literal(EVENT_TYPES[family]).describe('Event type'),
    data: versions[CURRENT_SCHEMA_VERSION[family]],
  });
}

export class EventParseError extends Error {
  constructor(
    message: string,
    readonly issues?: z.core.$ZodIssue[],
  ) {
    super(message);
    this.name = 'EventParseError';
  }
}

export type ParseResult =
  { ok: true; event: AnyEvent; family: EventFamily } | { ok: false; error: EventParseError };

/**
 * Validate an unknown value as an event envelope: envelope fields first, then `data` against
 * the schema for its `type` and `schemaVersion`. Unknown fields are stripped (forward compatible).
 */
export function safeParseEvent(input: unknown): ParseResult {
  const base = EnvelopeBase.safeParse(input);
  if (!base.success) {
    return {
      ok: false,
      error: new EventParseError(`invalid envelope: ${z.prettifyError(base.error)}`, base.error.issues),
    };
  }
  const family = familyOfType(base.data.type);
  if (!family) return { ok: false, error: new EventParseError(`unknown event type '${base.data.type}'`) };
  const data = dataSchemaFor(family, base.data.schemaVersion).safeParse(base.data.data);
  if (!data.success) {
    return {
      ok: false,
      error: new EventParseError(
        `invalid data for ${base.data.type}: ${z.prettifyError(data.error)}`,
        data.error.issues,
      ),
    };
  }
  return { ok: true, family, event: { ...base.data, data: data.data } as AnyEvent };
}

/** Like safeParseEvent but throws EventParseError. */
export function parseEvent(input: unknown): AnyEvent {
  const r = safeParseEvent(input);
  if (!r.ok) throw r.error;
  return r.event;
}

/** Parse a serialized event (a Kafka message value or an outbox entry value). */
export function safeParseEventJson(json: string | Buffer | null | undefined): ParseResult {
  if (json == null || json.length === 0)
    return { ok: false, error: new EventParseError('empty message value') };
  let value: unknown;
  try {
    value = JSON.parse(typeof json === 'string' ? json : json.toString('utf8'));
  } catch (err) {
    return { ok: false, error: new EventParseError(`value is not JSON: ${(err as Error).message}`) };
  }
  return safeParseEvent(value);
}

/** Narrow an event to one family. */
export function isEventOf<F extends EventFamily>(
  event: AnyEvent,
  family: F,
): event is Extract<AnyEvent, { type: (typeof EVENT_TYPES)[F] }> {
  return event.type === EVENT_TYPES[family];
}

export interface CreateEventInput<F extends EventFamily> {
  data: EventData<F>;
  /** The entity id; defaults to the family's id field in `data` (e.g. data.testOrderId). */
  subject?: string;
  /** Defaults to EVENT_SOURCES[family]. */
  source?: string;
  /** Correlation id of the request that caused the event; defaults to the event id. */
  traceId?: string;
}

export interface EventDeps {
  now?: () => Date;
  newId?: () => string;
}

/**
 * Build a validated envelope at the family's current schemaVersion.
 * Throws (zod error) if `data` does not match the schema, so an invalid event is never stored.
 */
export function createEvent<F extends EventFamily>(
  family: F,
  input: CreateEventInput<F>,
  deps: EventDeps = {},
): EventEnvelope<F> {
  const now = deps.now ?? (() => new Date());
  const newId = deps.newId ?? randomUUID;
  const schemaVersion = CURRENT_SCHEMA_VERSION[family];
  const data = dataSchemaFor(family, schemaVersion).parse(input.data);
  const subjectField = SUBJECT_FIELD[family] as unknown as keyof EventData<F>;
  const subject = input.subject ?? String(data[subjectField]);
  const id = newId();
  const envelope = {
    id,
    type: EVENT_TYPES[family],
    source: input.source ?? EVENT_SOURCES[family],
    subject,
    time: now().toISOString(),
    schemaVersion,
    traceId: input.traceId ?? id,
    data,
  };
  // Validate the envelope too (uuid from an injected generator, non-empty subject, ...).
  const checked = EnvelopeBase.parse(envelope);
  return { ...checked, data } as EventEnvelope<F>;
}
