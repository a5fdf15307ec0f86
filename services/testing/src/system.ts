import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { AssignerProtocol, Partitioners, type Kafka, type Producer } from 'kafkajs';
import pino from 'pino';
import type { Role } from '@onco/domain';
import { ensureTopics, topicFor, type EventFamily } from '@onco/events';
import { LOCAL_MONGO_URL, loadConfig, loggerOptions, mongoUrlWithDb, type Config } from '@onco/platform';
import { hashPassword, identityModels, type UserDoc } from '@onco/identity';
import { buildSystem, type System } from '@onco/server';
import { collectMessages, kafkaTestLock, type Collector } from './support';

export const TEST_PASSWORD = 'Passw0rdTest';

/** Lines the system logged during a test, for redaction checks. */
export class LogCapture extends Writable {
  lines: string[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: () => void) {
    this.lines.push(chunk.toString());
    cb();
  }
  get text() {
    return this.lines.join('');
  }
}

/**
 * A whole system against the real services, isolated per test file: its own database, queue prefix, topic
 * prefix, mailbox and file store. Workers (relay, consumers, BullMQ) only when asked.
 */
export async function createTestSystem(
  overrides: Partial<Record<keyof Config, string>> = {},
): Promise<System & { config: Config; logs: LogCapture; suffix: string }> {
  // named after the test run (scripts/test-support/global-setup.ts), whose teardown removes them
  const suffix = `${process.env.ONCO_TEST_RUN ?? ''}${randomBytes(4).toString('hex')}`;
  const mongoUrl = mongoUrlWithDb(process.env.MONGO_URL ?? LOCAL_MONGO_URL, `oncotrf_test_${suffix}`);
  const tmp = path.join(os.tmpdir(), `oncotrf-test-${suffix}`);
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    MONGO_URL: mongoUrl,
    QUEUE_PREFIX: `test_${suffix}`,
    TOPIC_PREFIX: `test_${suffix}.`,
    KAFKA_CLIENT_ID: `oncotrf-test-${suffix}`,
    MAILBOX_DIR: path.join(tmp, 'mailbox'),
    FILE_STORE_DIR: path.join(tmp, 'files'),
    WORKERS: 'false',
    SERVE_CONSOLE: 'false',
    LOG_LEVEL: 'info',
    DEMO_MODE: 'false',
    // a claim the billing system took stays ACCEPTED_BY_XIFIN unless a test asks for its documents' upload
    BILLING_DOCUMENTS: 'false',
    // the suites sign in far more often than a person; rate-limits.int.test.ts turns the limits on
    AUTH_RATE_LIMIT_PER_MINUTE: '0',
    PASSWORD_RESET_PER_EMAIL_PER_HOUR: '0',
    ...overrides,
  });
  const logs = new LogCapture();
  const logger = pino(loggerOptions(config.LOG_LEVEL), logs);
  const system = await buildSystem(config, { logger });
  await system.app.ready();
  const close = system.close.bind(system);
  return {
    ...system,
    config,
    logs,
    suffix,
    async close() {
      await system.ctx.mongo.dropDatabase().catch(() => undefined);
      await close();
      // ONCO_TEST_LOGS=<dir> keeps each system's log (pino JSON lines), to read after a failure
      if (process.env.ONCO_TEST_LOGS) {
        await mkdir(process.env.ONCO_TEST_LOGS, { recursive: true });
        await writeFile(path.join(process.env.ONCO_TEST_LOGS, `${suffix}.log`), logs.text);
      }
    },
  };
}

export type TestSystem = Awaited<ReturnType<typeof createTestSystem>>;

const shared = new Map<string, Promise<TestSystem>>();

/**
 * One system without workers per test process and configuration, shared by the files that run in it one after
 * another (the int level runs its files without isolation, several in each fork): the first file boots it, each
 * next one gets it back emptied (resetTestSystem: every collection, the mailbox and the file store), so a file
 * still starts from nothing, without a boot of its own. Without workers nothing reaches Kafka, so no file sees
 * another's events; a file that uses Kafka or workers has a system of its own (createTestSystem). Its `close()`
 * hands it back; the database goes with the run's (global-setup.ts).
 */
export async function sharedTestSystem(
  overrides: Partial<Record<Exclude<keyof Config, 'WORKERS'>, string>> = {},
): Promise<TestSystem> {
  const key = JSON.stringify(Object.entries(overrides).sort(([a], [b]) => a.localeCompare(b)));
  let booting = shared.get(key);
  const fresh = !booting;
  if (!booting) {
    booting = createTestSystem({ ...overrides, WORKERS: 'false' });
    shared.set(key, booting);
  }
  const sys = await booting.catch((err) => {
    shared.delete(key);
    throw err;
  });
  if (!fresh) await resetTestSystem(sys);
  sys.logs.lines = [];
  return { ...sys, close: async () => undefined };
}

export interface KafkaTestSystem extends TestSystem {
  /** A collector (collectMessages) on the topics of `families`, from the beginning; close() stops it. */
  collect(families: EventFamily[]): Promise<Collector>;
  /** A connected producer on the system's Kafka; close() disconnects it. */
  producer(): Promise<Producer>;
}

/**
 * A system of the file's own (createTestSystem, with `overrides`) for a file that uses Kafka: it holds the shared
 * Kafka test lock from before the boot to the end of close(), so no outage test stops Kafka under it; with
 * `ensureTopics`, every topic of its prefix exists before anything subscribes. close() stops what collect() and
 * producer() started (the last first), closes the system, then releases the lock.
 */
export async function kafkaTestSystem(
  overrides: Partial<Record<keyof Config, string>> = {},
  opts: { ensureTopics?: boolean } = {},
): Promise<KafkaTestSystem> {
  const release = await kafkaTestLock('shared');
  const stops: Array<() => Promise<unknown>> = [];
  let collectors = 0;
  let sys: TestSystem | undefined;
  try {
    sys = await createTestSystem(overrides);
    if (opts.ensureTopics) await ensureTopics(sys.ctx.kafka, sys.config.TOPIC_PREFIX);
  } catch (err) {
    await sys?.close().catch(() => undefined);
    release();
    throw err;
  }
  const booted = sys;
  return {
    ...booted,
    async collect(families) {
      const groupId = `collector-${booted.suffix}${collectors ? `-${collectors}` : ''}`;
      collectors += 1;
      const topics = families.map((f) => topicFor(f, booted.config.TOPIC_PREFIX));
      const collector = await collectMessages(booted.ctx.kafka, topics, groupId);
      stops.push(() => collector.stop());
      return collector;
    },
    async producer() {
      // idempotent, like the relay's: a send kafkajs retries under load (its first try did land) writes its
      // messages once, so a test counting what it sent (a poison message's dead letters) sees each once
      const producer = booted.ctx.kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        createPartitioner: Partitioners.DefaultPartitioner,
      });
      await producer.connect();
      stops.push(() => producer.disconnect());
      return producer;
    },
    async close() {
      try {
        for (const stop of stops.splice(0).reverse()) await stop();
        await booted.close();
      } finally {
        release();
      }
    },
  };
}

let counter = 0;
/** Create an ACTIVE user directly in the database (test set-up), with TEST_PASSWORD. */
/**
 * TEST_PASSWORD's hash at the product's cost (scrypt N=2^15, ~100-150 ms of CPU here), made once per process and
 * given to every test user: the hundreds of users the suite creates cost nothing, and each sign-in still verifies
 * a real production-cost hash.
 */
let passwordHash: Promise<string> | undefined;
const testPasswordHash = () => (passwordHash ??= hashPassword(TEST_PASSWORD));

export async function createUser(
  sys: System,
  role: Role,
  opts: Partial<Pick<UserDoc, 'account' | 'physicianId' | 'authenticationProvider' | 'status' | 'email'>> & {
    loginId?: string;
  } = {},
): Promise<UserDoc> {
  const { User } = identityModels(sys.ctx.mongo);
  const hash = await testPasswordHash();
  counter += 1;
  const loginId =
    opts.loginId ??
    `${role.toLowerCase().replace('role_', '').replace(/_/g, '.')}.${counter}.${randomBytes(2).toString('hex')}`;
  const doc = await User.create({
    loginId,
    email: opts.email ?? `${loginId}@clinic.example.org`,
    firstName: 'Test',
    lastName: role.replace('ROLE_', ''),
    role,
    status: opts.status ?? 'ACTIVE',
    authenticationProvider: opts.authenticationProvider ?? 'OKTA',
    account: opts.account ?? null,
    physicianId: opts.physicianId ?? null,
    passwordHash: hash,
    passwordHistory: [hash],
  });
  return doc.toObject() as UserDoc;
}

/** A provider (ROLE_NPI, createUser) of one account, acting for one physician. */
export const createProvider = (sys: System, account: { id: string; name: string }, physicianId: string) =>
  createUser(sys, 'ROLE_NPI', { account, physicianId });

export const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

/** Sign in through the API and return the bearer header. */
export async function login(
  sys: System,
  loginId: string,
  password = TEST_PASSWORD,
): Promise<{ authorization: string; body: any }> {
  const res = await sys.app.inject({
    method: 'POST',
    url: '/uam/api/v1/authenticate',
    payload: { username: b64(loginId), password: b64(password) },
  });
  if (res.statusCode !== 200) throw new Error(`login ${loginId} failed: ${res.statusCode} ${res.body}`);
  const body = res.json();
  return { authorization: `Bearer ${body.token}`, body };
}

/**
 * Wait until the system has nothing left in flight, on facts: its outbox relay has no pending event, each of its
 * Kafka consumer groups is stable and has committed every partition's end offset, and its BullMQ queues have no
 * waiting, active, prioritized or soon-due delayed job. Returns what was still busy when `timeoutMs` ran out
 * (empty when settled).
 */
export async function settle(
  sys: System & { config: Config },
  { timeoutMs = 30_000 } = {},
): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  const admin = sys.ctx.kafka.admin();
  await admin.connect();
  try {
    for (;;) {
      const busy: string[] = [];
      if (sys.relay) {
        const pending = await sys.relay.pending();
        if (pending) busy.push(`outbox: ${pending} pending`);
      }
      for (const name of sys.ctx.queues.names()) {
        const queue = sys.ctx.queues.get(name)!;
        const c = await queue.getJobCounts('waiting', 'active', 'prioritized');
        // a delayed job counts when it is due within a minute (a retry's backoff), not a repeatable one's next
        // run or a job parked for later
        const soon = (await queue.getDelayed(0, 200)).filter(
          (j) => !j.repeatJobKey && j.timestamp + (j.opts.delay ?? 0) < Date.now() + 60_000,
        ).length;
        const n = Object.values(c).reduce((x, y) => x + y, 0) + soon;
        if (n) busy.push(`queue ${name}: ${n} jobs`);
      }
      busy.push(...(await consumerLag(admin, sys.config.TOPIC_PREFIX)));
      if (!busy.length || Date.now() > deadline) return busy;
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

/** Consumer groups of this prefix (with members) that have not yet committed their topics' end offsets. */
async function consumerLag(admin: ReturnType<Kafka['admin']>, topicPrefix: string): Promise<string[]> {
  const prefix = topicPrefix.replace(/\.+$/, '');
  if (!prefix) return [];
  const groupIds = (await admin.listGroups()).groups
    .map((g) => g.groupId)
    .filter((g) => g.startsWith(prefix));
  if (!groupIds.length) return [];
  const lag: string[] = [];
  const { groups } = await admin.describeGroups(groupIds);
  for (const g of groups) {
    if (!g.members.length) continue; // no consumer of this system in it (stopped)
    if (g.state !== 'Stable') {
      lag.push(`${g.groupId}: ${g.state}`); // joining or rebalancing: not consuming yet
      continue;
    }
    const topics = new Set<string>();
    for (const m of g.members) {
      try {
        for (const t of AssignerProtocol.MemberMetadata.decode(m.memberMetadata)?.topics ?? []) topics.add(t);
      } catch {
        lag.push(`${g.groupId}: member ${m.memberId} without readable metadata`);
      }
    }
    if (!topics.size) continue;
    const committed = await admin.fetchOffsets({ groupId: g.groupId, topics: [...topics] });
    for (const t of committed) {
      const ends = await admin.fetchTopicOffsets(t.topic);
      for (const p of ends) {
        const at = Number(t.partitions.find((x) => x.partition === p.partition)?.offset ?? -1);
        if (Number(p.high) > Number(p.low) && at < Number(p.high))
          lag.push(`${g.groupId} ${t.topic}[${p.partition}] at ${at} of ${p.high}`);
      }
    }
  }
  return lag;
}

/**
 * A clean slate on a running system without booting another: settle what is in flight, then empty every
 * collection (documents only: indexes stay), the mailbox and the file store. For test files that share one
 * system (the browser level); sequences restart too, so each file numbers its requisitions from 1.
 */
export async function resetTestSystem(sys: System & { config: Config }): Promise<void> {
  const busy = await settle(sys);
  if (busy.length) console.warn(`[test] reset: still busy after 30 s, emptied anyway: ${busy.join('; ')}`);
  const db = sys.ctx.mongo.db!;
  for (const c of await db.listCollections({}, { nameOnly: true }).toArray())
    if (!c.name.startsWith('system.')) await db.collection(c.name).deleteMany({});
  for (const dir of [sys.config.MAILBOX_DIR, sys.config.FILE_STORE_DIR])
    for (const e of await readdir(dir).catch(() => []))
      await rm(path.join(dir, e), { recursive: true, force: true });
}

/** `settle`, failing with what is still busy: before a count that must be final (no duplicate came later). */
export async function settled(
  sys: System & { config: Config },
  opts: { timeoutMs?: number } = {},
): Promise<void> {
  const busy = await settle(sys, opts);
  if (busy.length) throw new Error(`the system did not settle: ${busy.join('; ')}`);
}
