/** Messages a consumer gave up on: the `dead_letters` records, with the reason and where the message came from. */
import type { IHeaders, KafkaMessage } from 'kafkajs';

export const DEAD_LETTERS_COLLECTION = 'dead_letters';

// ---------------------------------------------------------------------------
// Idempotency (pure, testable without Kafka)
// ---------------------------------------------------------------------------

export type DeadLetterReason = 'unparseable' | 'handler-failed';

/** A document of `dead_letters`. The raw value is kept as a string (as received). */
export interface DeadLetter {
  /** `${groupId}:${eventId}` for handler failures, `${groupId}:${topic}:${partition}:${offset}` for poison messages. */
  _id: string;
  groupId: string;
  reason: DeadLetterReason;
  error: string;
  attempts: number;
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  eventId: string | null;
  eventType: string | null;
  subject: string | null;
  /** The message value as UTF-8 text (the serialized envelope), null for an empty value. */
  value: string | null;
  headers: { key: string; value: string }[];
  createdOn: Date;
}

// ---------------------------------------------------------------------------
// Runner
// ---------------------------------------------------------------------------

export function headersToStrings(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) {
    if (v === undefined) continue;
    const first = Array.isArray(v) ? v[0] : v;
    if (first !== undefined) out[k] = first.toString();
  }
  return out;
}

/**
 * Where a dead letter came from (group, topic, partition, offset) and the message as received, for a
 * `dead_letters` document; every dead letter of both runners has this shape.
 */
export function deadLetterSource(groupId: string, topic: string, partition: number, message: KafkaMessage) {
  return {
    groupId,
    topic,
    partition,
    offset: message.offset,
    key: message.key ? message.key.toString() : null,
    value: message.value ? message.value.toString('utf8') : null,
    headers: Object.entries(headersToStrings(message.headers)).map(([key, value]) => ({ key, value })),
    createdOn: new Date(),
  };
}
