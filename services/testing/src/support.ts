/**
 * Test support below the system level: waiting, the Kafka test lock, Kafka collectors and consumer-group drains.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Kafka, KafkaMessage } from 'kafkajs';
import { FETCH_MAX_WAIT_MS, safeParseEventJson } from '@onco/events';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** Unique per call, and named after the test run, whose teardown removes its topics (global-setup.ts). */
export function runSuffix(): string {
  return `${process.env.ONCO_TEST_RUN ?? ''}${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Poll until `fn` returns a truthy value (returned), or fail after timeoutMs. */
export async function waitFor<T>(
  fn: () => T | Promise<T>,
  { timeoutMs = 30_000, intervalMs = 100, what = 'condition' } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v as NonNullable<T>;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`,
      );
    }
    await sleep(intervalMs);
  }
}

/**
 * Poll `fn` until it returns a truthy value (returned), or fail after timeoutMs. Unlike waitFor, an error thrown
 * by `fn` fails at once instead of counting as "not yet".
 */
export async function waitUntil<T>(
  fn: () => Promise<T>,
  what: string,
  timeoutMs = 90_000,
  intervalMs = 200,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(intervalMs);
  }
}

/** `bash scripts/infra.sh <args>` from the repo root. */
export function infra(...args: string[]): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    execFile(
      'bash',
      [join(REPO_ROOT, 'scripts', 'infra.sh'), ...args],
      { cwd: REPO_ROOT, timeout: 180_000 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`infra.sh ${args.join(' ')} failed: ${err.message}\n${stdout}\n${stderr}`));
        else resolvePromise(stdout);
      },
    );
  });
}

// ---------------------------------------------------------------------------
// A cross-process reader/writer lock so a test that stops Kafka never runs while another
// integration test of this package uses it (vitest may run files and projects in parallel).
// Shared holders write a file; the exclusive holder creates a directory (atomic) and waits for
// the shared files to go. Entries of dead processes are ignored.
// ---------------------------------------------------------------------------

// one lock per broker: the outage tests on a broker of their own (scripts/test.sh) never wait for the others
const BROKER = (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').replace(/[^A-Za-z0-9.-]+/g, '_');
const LOCK_DIR = join(tmpdir(), `oncotrf-kafka-test-lock-${BROKER}`);
const EXCLUSIVE = join(LOCK_DIR, 'exclusive');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function exclusiveHeld(): boolean {
  try {
    const owners = readdirSync(EXCLUSIVE);
    const pid = owners.map((f) => Number(f.split('-')[0])).find((p) => p > 0);
    if (pid && !alive(pid)) {
      rmSync(EXCLUSIVE, { recursive: true, force: true });
      return false;
    }
    return true;
  } catch {
    return false;
  }
}

function sharedHolders(): string[] {
  return readdirSync(LOCK_DIR).filter((f) => {
    if (!f.startsWith('shared-')) return false;
    const pid = Number(f.split('-')[1]);
    if (!alive(pid)) {
      rmSync(join(LOCK_DIR, f), { force: true });
      return false;
    }
    return true;
  });
}

export async function kafkaTestLock(mode: 'shared' | 'exclusive', timeoutMs = 300_000): Promise<() => void> {
  mkdirSync(LOCK_DIR, { recursive: true });
  const deadline = Date.now() + timeoutMs;
  const token = `${process.pid}-${randomBytes(4).toString('hex')}`;
  if (mode === 'shared') {
    const file = join(LOCK_DIR, `shared-${token}`);
    for (;;) {
      writeFileSync(file, '');
      if (!exclusiveHeld()) return () => rmSync(file, { force: true });
      rmSync(file, { force: true });
      if (Date.now() > deadline) throw new Error('timed out waiting for the Kafka test lock (shared)');
      await sleep(250);
    }
  }
  for (;;) {
    try {
      mkdirSync(EXCLUSIVE);
      writeFileSync(join(EXCLUSIVE, token), '');
      break;
    } catch {
      exclusiveHeld(); // clears a dead owner's lock
      if (Date.now() > deadline) throw new Error('timed out waiting for the Kafka test lock (exclusive)');
      await sleep(250);
    }
  }
  while (sharedHolders().length > 0) {
    if (Date.now() > deadline) {
      rmSync(EXCLUSIVE, { recursive: true, force: true });
      throw new Error('timed out waiting for other Kafka tests to finish');
    }
    await sleep(250);
  }
  return () => rmSync(EXCLUSIVE, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------
// A plain kafkajs consumer that records every message (to check what really reached Kafka).
// ---------------------------------------------------------------------------

export interface Collected {
  topic: string;
  partition: number;
  key: string | null;
  value: string | null;
  headers: Record<string, string>;
  offset: string;
}

export async function collectMessages(kafka: Kafka, topics: string[], groupId: string) {
  const messages: Collected[] = [];
  // the product consumers' fetch wait: stop() waits for the fetch in flight (kafkajs' default wait is 5 s, and
  // every file with a collector paid it on close)
  const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: FETCH_MAX_WAIT_MS });
  await consumer.connect();
  await consumer.subscribe({ topics, fromBeginning: true });
  let joined = false;
  consumer.on(consumer.events.GROUP_JOIN, () => (joined = true));
  await consumer.run({
    eachMessage: async ({
      topic,
      partition,
      message,
    }: {
      topic: string;
      partition: number;
      message: KafkaMessage;
    }) => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(message.headers ?? {})) if (v !== undefined) headers[k] = String(v);
      messages.push({
        topic,
        partition,
        key: message.key?.toString() ?? null,
        value: message.value?.toString() ?? null,
        headers,
        offset: message.offset,
      });
    },
  });
  return {
    messages,
    joined: () => joined,
    /**
     * Wait until this collector has received every message its topics hold now (each partition's end offset),
     * so a count taken after it is final: a fact to wait on instead of "time for a duplicate to show up".
     */
    async drained({ timeoutMs = 30_000 } = {}) {
      const admin = kafka.admin();
      await admin.connect();
      try {
        const ends: Array<{ topic: string; partition: number; high: number }> = [];
        for (const topic of topics)
          for (const p of await admin.fetchTopicOffsets(topic).catch(() => []))
            ends.push({ topic, partition: p.partition, high: Number(p.high) });
        await waitFor(
          () =>
            ends.every(
              (e) =>
                e.high === 0 ||
                messages.some(
                  (m) => m.topic === e.topic && m.partition === e.partition && Number(m.offset) >= e.high - 1,
                ),
            ),
          { timeoutMs, intervalMs: 50, what: `collector ${groupId} at the end of ${topics.join(', ')}` },
        );
      } finally {
        await admin.disconnect();
      }
    },
    stop: () => consumer.disconnect(),
  };
}

export type Collector = Awaited<ReturnType<typeof collectMessages>>;

/** An event as a test reads it back from Kafka (its data loosely typed, for assertions). */
export interface CollectedEvent {
  id: string;
  type: string;
  subject: string;
  schemaVersion: number;
  data: Record<string, any>;
}

/** The valid events among collected messages (of key `key` when given), in the order they came. */
export function eventsIn<E = CollectedEvent>(messages: Collected[], key?: string): E[] {
  return messages
    .filter((m) => key === undefined || m.key === key)
    .map((m) => safeParseEventJson(m.value))
    .flatMap((p) => (p.ok ? [p.event as unknown as E] : []));
}

/**
 * Wait until consumer group `groupId` has committed every partition's end offset of `topics` (as they are when
 * called): everything published so far is processed. A fact to wait on before counting what a handler saw.
 */
export async function groupDrained(
  kafka: Kafka,
  groupId: string,
  topics: string[],
  { timeoutMs = 30_000 } = {},
): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    // partitions that hold messages, and their end offsets (an empty partition has nothing to commit)
    const ends = new Map<string, number>();
    for (const topic of topics)
      for (const p of await admin.fetchTopicOffsets(topic))
        if (Number(p.high) > Number(p.low)) ends.set(`${topic}:${p.partition}`, Number(p.high));
    await waitFor(
      async () => {
        const committed = await admin.fetchOffsets({ groupId, topics });
        return committed.every((t) =>
          t.partitions.every((p) => Number(p.offset) >= (ends.get(`${t.topic}:${p.partition}`) ?? -1)),
        );
      },
      { timeoutMs, intervalMs: 50, what: `consumer group ${groupId} at the end of ${topics.join(', ')}` },
    );
  } finally {
    await admin.disconnect();
  }
}
