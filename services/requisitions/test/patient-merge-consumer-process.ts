/**
 * The requisitions service's patient-merge consumer (`requisitions.patient-merges`, consumers/patient-merges.ts) in
 * a process of its own, for the test that kills it outright (SIGKILL) in the middle of a merge. Started with
 * child_process.fork (execArgv --import tsx) and a test system's environment (MONGO_URL, TOPIC_PREFIX,
 * KAFKA_CLIENT_ID, NODE_ENV=test, ...): the same consumer, models and requisition service as the server's
 * workers, nothing else (no HTTP, no other consumer, no outbox relay: the parent's relay publishes what it wrote).
 *
 * Test-only settings, so the parent can kill it while a merge is under way:
 *   MERGE_MOVE_DELAY_MS=<ms>   each mover waits this long after each requisition it moved
 *   MERGE_STALL_AFTER=<n>      once n requisitions are moved, every mover stops where it is and waits for ever
 *                              (so a slow parent still finds the merge unfinished)
 *   MERGE_CONCURRENCY=<n>      requisitions moved at once (default the consumer's)
 *   MERGE_SESSION_TIMEOUT_MS   its Kafka session: how soon the group gives its partitions to a new member once
 *                              this process is dead (default the consumer's 60 s)
 * It sends {ready: true, pid} once it has joined its consumer group.
 */
import { forever, openTestChild, runTestChild, sleep, type TestChildReady } from '@onco/testing';
import { createKafka, type PlatformContext } from '@onco/platform';
import { requisitionModels } from '../src/models';
import type { RequisitionDeps } from '../src/use-cases';
import { startPatientMergeConsumer, type PatientMergeHooks } from '../src/consumers/patient-merges';

const int = (name: string) => {
  const v = Number(process.env[name] || '');
  return Number.isFinite(v) && v > 0 ? Math.floor(v) : null;
};

async function main() {
  const { config, logger, mongo } = await openTestChild('patient-merge-consumer-process');
  // what the consumer and the requisition service use (no Redis, queues, mail or blobs in this process)
  const ctx = {
    config,
    logger,
    mongo,
    kafka: createKafka(config, logger),
    nudgeOutbox: () => undefined,
  } as unknown as PlatformContext;
  const models = requisitionModels(mongo);
  const deps: RequisitionDeps = { ctx, models };

  const delay = int('MERGE_MOVE_DELAY_MS');
  const stallAfter = int('MERGE_STALL_AFTER');
  const sessionTimeout = int('MERGE_SESSION_TIMEOUT_MS');
  const hooks: PatientMergeHooks = {
    concurrency: int('MERGE_CONCURRENCY') ?? undefined,
    afterMove: async (moved) => {
      if (stallAfter !== null && moved >= stallAfter) await forever();
      if (delay) await sleep(delay);
    },
  };
  const consumer = await startPatientMergeConsumer(ctx, models, deps, hooks, {
    backfill: false,
    ...(sessionTimeout
      ? {
          consumerConfig: {
            sessionTimeout,
            rebalanceTimeout: sessionTimeout,
            heartbeatInterval: Math.max(100, Math.floor(sessionTimeout / 10)),
          },
        }
      : {}),
  });
  await consumer.ready;
  return async () => {
    await consumer.stop();
    await mongo.close();
  };
}

runTestChild(main);

export type PatientMergeConsumerProcessMessage = TestChildReady;
