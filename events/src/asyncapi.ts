/**
 * AsyncAPI 3.0 document generated from the zod schemas (written to docs/asyncapi.json by
 * `npm run asyncapi`).
 */
import { z } from 'zod';
import { EVENT_TYPES, EnvelopeBase, createEvent } from './envelope';
import { EXAMPLE_DATA } from './examples';
import {
  CURRENT_SCHEMA_VERSION,
  DATA_SCHEMAS,
  EVENT_FAMILIES,
  SUBJECT_FIELD,
  type EventFamily,
} from './schemas';
import { DEFAULT_PARTITIONS, DEFAULT_REPLICATION_FACTOR, topicFor } from './topics';

/** Message / schema names per family, as used in the document. */
export const MESSAGE_NAMES = {
  'requisition-submitted': 'RequisitionSubmitted',
  'requisition-changed': 'RequisitionChanged',
  'test-status': 'TestStatusChanged',
  sample: 'SampleChanged',
  'billing-case': 'BillingCaseChanged',
  attachment: 'AttachmentChanged',
  'sample-manifest': 'SampleManifestProcessed',
  patient: 'PatientChanged',
  'patient-requisitions': 'PatientRequisitionsMoved',
  audit: 'AuditRecorded',
} as const satisfies Record<EventFamily, string>;

const CHANNEL_IDS = {
  'requisition-submitted': 'requisitionSubmitted',
  'requisition-changed': 'requisitionChanged',
  'test-status': 'testStatus',
  sample: 'sample',
  'billing-case': 'billingCase',
  attachment: 'attachment',
  'sample-manifest': 'sampleManifest',
  patient: 'patient',
  'patient-requisitions': 'patientRequisitions',
  audit: 'audit',
} as const satisfies Record<EventFamily, string>;

const SUMMARIES: Record<EventFamily, string> = {
  'requisition-submitted':
    'A requisition (test requisition form) was submitted. The lab creates test orders from it; billing and analytics track intake.',
  'requisition-changed':
    'A submitted requisition was deleted, became INVALID (merged), had its clinical review status changed or its parties edited. Carries the state after the change and a version: apply only newer versions. The lab deletes the test orders of a deleted requisition and removes their due dates when the review becomes DISQUALIFIED.',
  'test-status':
    'A test order was created or changed status (including due date changes carried with a status event).',
  sample: 'A sample (tumor, normal or plasma) was created, updated or copied from another requisition.',
  'billing-case':
    'A billing case was created or changed status (submission to XIFIN, retries, results, document uploads).',
  attachment:
    "A file was uploaded as an attachment (Attachment Box or a requisition's documents), or removed. The lab turns an uploaded SAMPLE_MANIFEST into samples (docs/manifests.md).",
  'sample-manifest':
    'A sample manifest was processed by the lab: applied whole (PROCESSED, with counts) or refused whole (ERROR, with row-numbered errors). The requisitions service sets the attachment status from it.',
  patient:
    "Duplicate patients were merged into a primary patient (change 'merged'), or that merge was undone ('merge-undone'). Keyed by the primary patient. The requisitions service moves the duplicates' requisitions (each with its requisition-changed, change patient-changed).",
  'patient-requisitions':
    'The requisitions service has moved every requisition of a patient merge (or of its undo): the merge is complete. Keyed by the merge id.',
  audit:
    'One audit trail entry, once appended to the hash chain: who read, changed, exported or downloaded which record (and patient), from where, allowed or refused. Keyed by the entry id; order and check the chain by data.seq, prevHash and hash (docs/audit.md). Carries ids, never patient demographics.',
};

type Json = any;

/** JSON Schema (draft-07 subset, valid AsyncAPI schema) of a zod schema, without noise. */
export function jsonSchemaOf(schema: z.ZodType): Json {
  const out = z.toJSONSchema(schema, { target: 'draft-7', io: 'input', unrepresentable: 'any' }) as Json;
  delete out.$schema;
  return clean(out);
}

function clean(node: Json): Json {
  if (Array.isArray(node)) return node.map(clean);
  if (node && typeof node === 'object') {
    const out: Json = {};
    for (const [k, v] of Object.entries(node)) out[k] = clean(v);
    // zod emits long regexes next to well-known formats; the format says it all.
    if (typeof out.format === 'string' && typeof out.pattern === 'string') delete out.pattern;
    return out;
  }
  return node;
}

function exampleTime(family: EventFamily): string {
  const data = EXAMPLE_DATA[family] as { changedOn?: string; submittedOn?: string };
  return data.changedOn ?? data.submittedOn ?? '2025-03-01T14:05:00.000Z';
}

export interface AsyncApiOptions {
  /** Document version (info.version). Default 1.0.0. */
  version?: string;
  /** Topic prefix for channel addresses (normally none). */
  topicPrefix?: string;
  /** Kafka servers to list. Default: the local single-node broker. */
  servers?: Record<string, { host: string; protocol: 'kafka' | 'kafka-secure'; description?: string }>;
}

/** Build the AsyncAPI 3.0 document for the event families. */
export function buildAsyncApiDocument(options: AsyncApiOptions = {}): Json {
  const schemas: Json = {};
  const messages: Json = {};
  const channels: Json = {};
  const operations: Json = {};

  const envelopeJson = jsonSchemaOf(EnvelopeBase.omit({ data: true }));

  for (const family of EVENT_FAMILIES) {
    const name = MESSAGE_NAMES[family];
    const channelId = CHANNEL_IDS[family];
    const topic = topicFor(family, options.topicPrefix);
    const version = CURRENT_SCHEMA_VERSION[family];
    const dataSchema = (DATA_SCHEMAS[family] as Record<number, z.ZodType>)[version];

    schemas[`${name}Data`] = jsonSchemaOf(dataSchema);
    const envelope = structuredClone(envelopeJson);
    envelope.description = `Envelope of ${EVENT_TYPES[family]} (schemaVersion ${version})`;
    envelope.properties.type = { type: 'string', const: EVENT_TYPES[family], description: 'Event type' };
    envelope.properties.data = { $ref: `#/components/schemas/${name}Data` };
    envelope.required = [...new Set([...(envelope.required ?? []), 'data'])];
    schemas[`${name}Event`] = envelope;

    const example = createEvent(
      family,
      { data: EXAMPLE_DATA[family] as never, traceId: '4bf92f3577b34da6a3ce929d0e0e4736' },
      { now: () => new Date(exampleTime(family)), newId: () => '0f8fad5b-d9cb-469f-a165-70867728950e' },
    );

    messages[name] = {
      name: EVENT_TYPES[family],
      title: name,
      summary: SUMMARIES[family],
      contentType: 'application/json',
      correlationId: {
        description: 'Trace id of the request that caused the event',
        location: '$message.payload#/traceId',
      },
      headers: {
        type: 'object',
        properties: {
          'event-id': { type: 'string', format: 'uuid', description: 'Same as payload.id' },
          'event-type': { type: 'string', const: EVENT_TYPES[family], description: 'Same as payload.type' },
          'content-type': { type: 'string', const: 'application/json' },
        },
      },
      payload: { $ref: `#/components/schemas/${name}Event` },
      bindings: {
        kafka: {
          key: {
            type: 'string',
            description: `The event subject = data.${SUBJECT_FIELD[family]} (the entity id). All events of one entity go to one partition, in the order they were committed.`,
          },
          bindingVersion: '0.5.0',
        },
      },
      examples: [
        {
          name: `${name}Example`,
          headers: { 'event-id': example.id, 'event-type': example.type },
          payload: example,
        },
      ],
    };

    channels[channelId] = {
      address: topic,
      title: topic,
      description: `${SUMMARIES[family]} Key: the entity id (data.${SUBJECT_FIELD[family]}). Delivery: at least once; de-duplicate by payload.id.`,
      messages: { [name]: { $ref: `#/components/messages/${name}` } },
      bindings: {
        kafka: {
          topic,
          partitions: DEFAULT_PARTITIONS,
          replicas: DEFAULT_REPLICATION_FACTOR,
          bindingVersion: '0.5.0',
        },
      },
    };

    operations[`publish${name}`] = {
      action: 'send',
      title: `Publish ${EVENT_TYPES[family]}`,
      summary: `The platform's outbox relay publishes ${EVENT_TYPES[family]} events to ${topic}.`,
      channel: { $ref: `#/channels/${channelId}` },
      messages: [{ $ref: `#/channels/${channelId}/messages/${name}` }],
    };
  }

  return {
    asyncapi: '3.0.0',
    info: {
      title: 'OncoTRF events',
      version: options.version ?? '1.0.0',
      description:
        'Events published by the OncoTRF platform (ordering and tracking of genomic cancer tests). ' +
        'Every message is a JSON envelope {id, type, source, subject, time, schemaVersion, traceId, data}. ' +
        'Delivery is at least once: de-duplicate by id. Within a topic version only additive changes are made; ' +
        'a breaking change gets a new topic (.v2). See docs/events.md.',
    },
    defaultContentType: 'application/json',
    servers: options.servers ?? {
      local: {
        host: '127.0.0.1:9092',
        protocol: 'kafka',
        description: 'Single-node Kafka (KRaft) for development and tests',
      },
    },
    channels,
    operations,
    components: { schemas, messages },
  };
}
