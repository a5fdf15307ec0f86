/** What runs when WORKERS: the outbox relay, the BullMQ queues' workers and the Kafka consumers. */
import type { Logger } from 'pino';
import { OutboxRelay } from '@onco/events';
import type { Config, DomainModule } from '@onco/platform';
import type { Connections } from './connections';

/** The modules whose consumers and queue workers run in this process (WORKER_MODULES). */
export function workerModules(config: Config, modules: DomainModule[]): DomainModule[] {
  if (config.WORKER_MODULES === 'all') return modules;
  const names = config.WORKER_MODULES.split(',').map((s) => s.trim());
  const known = modules.map((m) => m.name);
  for (const n of names)
    if (!known.includes(n))
      throw new Error(
        `Invalid configuration:\n  WORKER_MODULES: unknown domain "${n}" (use all or ${known.join(',')})`,
      );
  return modules.filter((m) => names.includes(m.name));
}

/** The relay of every module's outbox collections (not started). */
export function createOutboxRelay(
  config: Config,
  { kafka, mongo }: Connections,
  modules: DomainModule[],
  logger: Logger,
): OutboxRelay {
  return new OutboxRelay({
    kafka,
    db: mongo,
    collections: modules.flatMap((m) => m.outboxCollections ?? []),
    logger,
    topicPrefix: config.TOPIC_PREFIX,
  });
}

/** Start the relay, then the workers and consumers of WORKER_MODULES; returns what stops the consumers. */
export async function startWorkers(
  config: Config,
  queues: Connections['queues'],
  modules: DomainModule[],
  relay: OutboxRelay,
): Promise<Array<{ stop(): Promise<void> }>> {
  const stoppers: Array<{ stop(): Promise<void> }> = [];
  await relay.start();
  // the queues' workers first: a consumer's start waits for its Kafka group to settle, which after a crash
  // waits out the dead member's session (up to a minute), and the jobs must not wait for that
  const working = workerModules(config, modules);
  queues.startWorkers(working.flatMap((m) => m.queues ?? []));
  for (const m of working) if (m.startConsumers) stoppers.push(await m.startConsumers());
  return stoppers;
}
