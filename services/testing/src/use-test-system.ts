import type { Producer } from 'kafkajs';
// the hooks vitest itself exports (vitest re-exports them from its runner): importing 'vitest' outside a test
// worker throws at once, and the test's child processes load @onco/testing too
import { afterAll, beforeAll } from '@vitest/runner';
import type { Role } from '@onco/domain';
import type { EventFamily } from '@onco/events';
import type { UserDoc } from '@onco/identity';
import type { Config } from '@onco/platform';
import { apiAs, authOf, type Auth } from './api';
import {
  createUser,
  kafkaTestSystem,
  sharedTestSystem,
  type KafkaTestSystem,
  type TestSystem,
} from './system';
import type { Collector } from './support';

/** createUser's options (account, physicianId, status, ...). */
export type UserOptions = NonNullable<Parameters<typeof createUser>[2]>;

/**
 * A user for useTestSystem to make: a role, or a role with createUser's options (`provider()`: a provider of one
 * account), or a function giving either, read once `prepare` has run (for users of the data it made).
 */
export type UserSpec = Role | readonly [Role, UserOptions] | (() => Role | readonly [Role, UserOptions]);

/** A user of `role` with createUser's options, as a UserSpec. */
export const user = (role: Role, opts: UserOptions): readonly [Role, UserOptions] => [role, opts];

/** A provider (ROLE_NPI) of one account, acting for one physician: createProvider as a UserSpec. */
export const provider = (account: { id: string; name: string }, physicianId: string) =>
  ['ROLE_NPI', { account, physicianId }] as const;

type Overrides = Partial<Record<keyof Config, string>>;

/** `true`, or `{ ensureTopics: true }` to create the system's topics before anything subscribes. */
export type KafkaOption = boolean | { ensureTopics?: boolean };

/** The system a file gets: its own with Kafka (kafkaTestSystem), else the process's shared one (sharedTestSystem). */
export type SystemOf<Kf extends KafkaOption> = Kf extends false ? TestSystem : KafkaTestSystem;

/** What useTestSystem gives a file: objects its beforeAll fills in, to take at once and read in hooks and tests. */
export interface TestContext<K extends string, S extends TestSystem = TestSystem> {
  /** the system (filled in by beforeAll) */
  sys: S;
  /** each user under its name, as created (its `_id`, `loginId`, ...) */
  users: Record<K, UserDoc>;
  /** each signed-in user's bearer header under its name */
  h: Record<K, Auth>;
  /** the collector on `collect`'s families (empty without `collect`) */
  collector: Collector;
  /** a connected producer on the system's Kafka with `producer: true` (empty without) */
  producer: Producer;
  /** `call(method, url, who?, payload?)`: one request as the signed-in user `who` (apiAs) */
  call: ReturnType<typeof apiAs<K>>;
}

export interface TestSystemSetup<U extends Record<string, UserSpec>, Kf extends KafkaOption> {
  /**
   * Kafka and workers: a system of the file's own holding the Kafka test lock (kafkaTestSystem). Without it, the
   * process's shared system without workers, emptied for this file (sharedTestSystem).
   */
  kafka?: Kf;
  /** the system's configuration overrides, or a function making them, run first in beforeAll */
  config?: Overrides | (() => Promise<Overrides>);
  /** run once the system is up, before the users are made (models, data the users are made of) */
  prepare?: (t: TestContext<keyof U & string, SystemOf<Kf>>) => Promise<unknown>;
  /** a connected producer (sys.producer()) in `producer`, made after `prepare` */
  producer?: boolean;
  /** the Kafka event families to collect from the beginning (sys.collect), in `collector` */
  collect?: EventFamily[];
  /** the users to make once the system is up, in this order: name → UserSpec */
  users?: U;
  /** which of `users` to sign in through the API (their `h` entry); all of them when not given */
  signIn?: ReadonlyArray<keyof U & string>;
  /** the rest of the file's data, made once the users are signed in */
  seed?: (t: TestContext<keyof U & string, SystemOf<Kf>>) => Promise<unknown>;
  /** beforeAll's timeout in ms (the level's hookTimeout when not given) */
  timeout?: number;
  /** run in afterAll once the system is closed (a stand-in to stop) */
  teardown?: () => Promise<unknown>;
}

async function boot(
  kafka: KafkaOption | undefined,
  config: Overrides,
): Promise<TestSystem | KafkaTestSystem> {
  if (kafka) return kafkaTestSystem(config, typeof kafka === 'object' ? kafka : {});
  if (config.WORKERS === 'true') throw new Error('useTestSystem: workers need `kafka: true`');
  const { WORKERS: _workers, ...rest } = config;
  return sharedTestSystem(rest);
}

/** The producer and the collector a file asked for, on its Kafka system. */
async function startKafkaParts(
  setup: Pick<TestSystemSetup<Record<string, UserSpec>, KafkaOption>, 'kafka' | 'producer' | 'collect'>,
  t: TestContext<string, TestSystem>,
) {
  if ((setup.collect || setup.producer) && !setup.kafka)
    throw new Error('useTestSystem: `collect` and `producer` need `kafka: true`');
  const sys = t.sys as KafkaTestSystem;
  if (setup.producer) Object.assign(t.producer, await sys.producer());
  if (setup.collect) Object.assign(t.collector, await sys.collect(setup.collect));
}

async function makeUsers<K extends string>(
  t: TestContext<K, TestSystem>,
  specs: Array<[K, UserSpec]>,
  signIn: ReadonlyArray<K> | undefined,
) {
  for (const [name, spec] of specs) {
    const read = typeof spec === 'function' ? spec() : spec;
    const [role, opts] = typeof read === 'string' ? [read] : read;
    Object.assign(t.users[name], await createUser(t.sys, role, opts));
  }
  for (const [name] of specs)
    if (!signIn || signIn.includes(name)) Object.assign(t.h[name], await authOf(t.sys, t.users[name]));
}

/**
 * The set-up of an int test file, declared once (call it in the file's describe, or at its top level): registers
 * its beforeAll (the system with `config`, then `prepare`, the `producer`, the collector on `collect`, the `users`
 * made in order and signed in, then `seed`) and its afterAll (the system closed, then `teardown`). Returns the
 * context `t`, whose `sys`, `users`, `h` (one entry per user from the start), `producer` and `collector`
 * beforeAll fills in:
 *
 *   const { sys, h, call } = useTestSystem({ kafka: true, config: { WORKERS: 'true' }, users: { admin: 'ROLE_ADMINISTRATOR' } });
 */
export function useTestSystem<
  U extends Record<string, UserSpec> = Record<never, UserSpec>,
  Kf extends KafkaOption = false,
>(setup: TestSystemSetup<U, Kf> = {}): TestContext<keyof U & string, SystemOf<Kf>> {
  type K = keyof U & string;
  const specs = Object.entries(setup.users ?? {}) as Array<[K, UserSpec]>;
  const empty = <V>() => Object.fromEntries(specs.map(([name]) => [name, {}])) as Record<K, V>;
  const sys = {} as SystemOf<Kf>;
  const h = empty<Auth>();
  const t: TestContext<K, SystemOf<Kf>> = {
    sys,
    users: empty<UserDoc>(),
    h,
    collector: {} as Collector,
    producer: {} as Producer,
    call: apiAs<K>(() => sys, h),
  };
  let booted = false;
  beforeAll(async () => {
    const config = typeof setup.config === 'function' ? await setup.config() : (setup.config ?? {});
    Object.assign(sys, await boot(setup.kafka, config));
    booted = true;
    await setup.prepare?.(t);
    await startKafkaParts(setup, t);
    await makeUsers(t, specs, setup.signIn);
    await setup.seed?.(t);
  }, setup.timeout);
  afterAll(async () => {
    try {
      if (booted) await sys.close();
    } finally {
      await setup.teardown?.();
    }
  });
  return t;
}
