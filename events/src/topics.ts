/**
 * Kafka topic names, partition keys and topic creation.
 */
import type { Admin, Kafka } from 'kafkajs';
import type { AnyEvent, EnvelopeBase } from './envelope';
import { EVENT_FAMILIES, type EventFamily } from './schemas';

/** Topic per family (major version in the name: a breaking change gets `.v2`). */
export const TOPICS = {
  'requisition-submitted': 'oncotrf.requisition-submitted.v1',
  'requisition-changed': 'oncotrf.requisition-changed.v1',
  'test-status': 'oncotrf.test-status.v1',
  sample: 'oncotrf.sample.v1',
  'billing-case': 'oncotrf.billing-case.v1',
  attachment: 'oncotrf.attachment.v1',
  'sample-manifest': 'oncotrf.sample-manifest.v1',
  patient: 'oncotrf.patient.v1',
  'patient-requisitions': 'oncotrf.patient-requisitions.v1',
  audit: 'oncotrf.audit.v1',
} as const satisfies Record<EventFamily, string>;

export const DEFAULT_PARTITIONS = 3;
export const DEFAULT_REPLICATION_FACTOR = 1;

/**
 * Apply an optional prefix (environment, test run) to a topic name: `prefix.topic`.
 * A trailing '.' on the prefix is tolerated; an empty prefix means none.
 */
export function withPrefix(topic: string, prefix?: string): string {
  const p = (prefix ?? '').replace(/\.+$/, '');
  return p ? `${p}.${topic}` : topic;
}

/** The topic of a family, with an optional prefix. */
export function topicFor(family: EventFamily, prefix?: string): string {
  return withPrefix(TOPICS[family], prefix);
}

/** All the families' topics, with an optional prefix. */
export function allTopics(prefix?: string): string[] {
  return EVENT_FAMILIES.map((f) => topicFor(f, prefix));
}

/** The family a (prefixed) topic belongs to, or undefined. */
export function familyOfTopic(topic: string, prefix?: string): EventFamily | undefined {
  return EVENT_FAMILIES.find((f) => topicFor(f, prefix) === topic);
}

/**
 * Partition key of an event: its subject (the entity id), so all events of one entity go to
 * the same partition and are consumed in the order they were committed.
 */
export function partitionKey(event: Pick<EnvelopeBase, 'subject'> | AnyEvent): string {
  return event.subject;
}

export interface EnsureTopicsOptions {
  numPartitions?: number;
  replicationFactor?: number;
  families?: readonly EventFamily[];
}

/**
 * Create the topics that do not exist yet (idempotent; safe to call from several processes at
 * once). Returns the names it created.
 */
export async function ensureTopics(
  kafka: Kafka,
  prefix?: string,
  options: EnsureTopicsOptions = {},
): Promise<string[]> {
  const families = options.families ?? EVENT_FAMILIES;
  const wanted = families.map((f) => topicFor(f, prefix));
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = wanted.filter((t) => !existing.has(t));
    if (missing.length === 0) return [];
    try {
      await admin.createTopics({
        waitForLeaders: true,
        topics: missing.map((topic) => ({
          topic,
          numPartitions: options.numPartitions ?? DEFAULT_PARTITIONS,
          replicationFactor: options.replicationFactor ?? DEFAULT_REPLICATION_FACTOR,
        })),
      });
    } catch (err) {
      // Another process created some of them in between, or the broker's metadata lagged the controller while
      // waiting for the leaders ("This server does not host this topic-partition" on a busy single node): fine if
      // they all exist now; the metadata is asked again for up to ~3 s before the error stands.
      for (let attempt = 0; ; attempt++) {
        const now = new Set(await admin.listTopics());
        if (missing.every((t) => now.has(t))) break;
        if (attempt >= 15) throw err;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    await waitForLeaders(admin, missing, options.numPartitions ?? DEFAULT_PARTITIONS);
    return missing;
  } finally {
    await admin.disconnect();
  }
}

/**
 * Wait until the broker's metadata lists every partition of `topics` with a leader (up to ~10 s). A consumer that
 * joins while a new topic's metadata still lacks a partition (a busy single node lags its controller) fetches the
 * partitions it knows and skips that one until its metadata is next refreshed, minutes later: its messages would
 * wait that long.
 */
async function waitForLeaders(admin: Admin, topics: string[], numPartitions: number): Promise<void> {
  let missing: string[] = topics;
  for (let attempt = 0; missing.length > 0; attempt++) {
    const { topics: metadata } = await admin
      .fetchTopicMetadata({ topics: missing })
      .catch(() => ({ topics: [] }));
    missing = missing.filter((name) => {
      const partitions = metadata.find((t) => t.name === name)?.partitions ?? [];
      return partitions.length < numPartitions || partitions.some((p) => p.leader < 0);
    });
    if (missing.length === 0) return;
    if (attempt >= 50)
      throw new Error(`Kafka lists no leader yet for every partition of ${missing.join(', ')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
