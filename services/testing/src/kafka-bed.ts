import { Kafka, logLevel } from 'kafkajs';
import mongoose from 'mongoose';
import { allTopics, ensureTopics } from '@onco/events';
import { LOCAL_MONGO_URL, mongoUrlWithDb } from '@onco/platform';
import { kafkaTestLock, runSuffix } from './support';

export const TEST_KAFKA_BROKERS = (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',');
export const TEST_MONGO_URL = process.env.MONGO_URL ?? mongoUrlWithDb(LOCAL_MONGO_URL, 'oncotrf_test');

/**
 * Kafka and the store without a system, for the events package's own tests: a run of its own (`run`), topics
 * under `test_<run>-<name>`, a kafkajs client `<name>-it-<run>`. open() takes the shared Kafka test lock,
 * connects to the test database and makes every topic of the prefix; close() closes the connection, deletes the
 * prefix's topics and releases the lock.
 */
export function kafkaTestBed(name: string) {
  const run = runSuffix();
  const prefix = `test_${run}-${name}`;
  const kafka = new Kafka({
    clientId: `${name}-it-${run}`,
    brokers: TEST_KAFKA_BROKERS,
    logLevel: logLevel.NOTHING,
    retry: { retries: 3, initialRetryTime: 300 }, // the product's (platform connections.ts): a new topic's leader can lag
  });
  let release: () => void = () => {};
  let conn: mongoose.Connection | undefined;
  return {
    run,
    prefix,
    kafka,
    async open(): Promise<mongoose.Connection> {
      release = await kafkaTestLock('shared');
      conn = await mongoose
        .createConnection(TEST_MONGO_URL, { serverSelectionTimeoutMS: 10_000 })
        .asPromise();
      await ensureTopics(kafka, prefix);
      return conn;
    },
    async close(): Promise<void> {
      try {
        await conn?.close();
        const admin = kafka.admin();
        await admin.connect().catch(() => undefined);
        await admin.deleteTopics({ topics: allTopics(prefix), timeout: 10_000 }).catch(() => undefined);
        await admin.disconnect().catch(() => undefined);
      } finally {
        release();
      }
    },
  };
}
