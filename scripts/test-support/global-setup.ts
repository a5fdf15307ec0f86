import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import net from 'node:net';

/**
 * Where the integration tests find MongoDB, Kafka and Redis:
 *  - the URLs in MONGO_URL / KAFKA_BROKERS / REDIS_URL when given;
 *  - otherwise, when a Docker engine is reachable, containers started here with testcontainers;
 *  - otherwise the local processes that `npm run infra:up` started (scripts/test.sh starts them).
 * Never a mock.
 */
function dockerReachable(): boolean {
  if (process.env.DOCKER_HOST) return true;
  return existsSync('/var/run/docker.sock');
}

function probe(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host, port, timeout: 1500 }, () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
    s.on('timeout', () => {
      s.destroy();
      resolve(false);
    });
  });
}

let stop: (() => Promise<void>) | undefined;

/**
 * Every database, Kafka topic, consumer group and BullMQ key a test run creates is named after this run
 * (createTestSystem: `oncotrf_test_{run}…`, `test_{run}…`); the teardown removes them all, so hundreds of topics do
 * not pile up on the broker, and a crashed test file's leftovers go too.
 */
const RUN = `r${Date.now().toString(36)}${randomBytes(2).toString('hex')}x`;

export async function setup() {
  process.env.ONCO_TEST_RUN = RUN;
  const given = process.env.MONGO_URL || process.env.KAFKA_BROKERS || process.env.REDIS_URL;
  const local =
    (await probe('127.0.0.1', 27017)) && (await probe('127.0.0.1', 9092)) && (await probe('127.0.0.1', 6379));
  if (given || local || !dockerReachable()) {
    if (!given && !local) {
      throw new Error(
        'MongoDB, Kafka or Redis is not reachable on 127.0.0.1. Run `npm run infra:up` (or `npm test`, which starts them).',
      );
    }
    return;
  }
  const { GenericContainer, Wait } = await import('testcontainers');
  const mongo = await new GenericContainer('mongo:7').withExposedPorts(27017).start();
  const redis = await new GenericContainer('redis:7').withExposedPorts(6379).start();
  const kafka = await new GenericContainer('apache/kafka:3.9.1')
    .withExposedPorts({ container: 9092, host: 19092 })
    .withEnvironment({
      KAFKA_NODE_ID: '1',
      KAFKA_PROCESS_ROLES: 'broker,controller',
      KAFKA_LISTENERS: 'PLAINTEXT://:9092,CONTROLLER://:9093',
      KAFKA_ADVERTISED_LISTENERS: 'PLAINTEXT://127.0.0.1:19092',
      KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
      KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
      KAFKA_NUM_PARTITIONS: '3',
    })
    .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
    .start();
  process.env.MONGO_URL = `mongodb://${mongo.getHost()}:${mongo.getMappedPort(27017)}/oncotrf`;
  process.env.REDIS_URL = `redis://${redis.getHost()}:${redis.getMappedPort(6379)}`;
  process.env.KAFKA_BROKERS = '127.0.0.1:19092';
  stop = async () => {
    await Promise.all([mongo.stop(), redis.stop(), kafka.stop()]);
  };
}

/** Remove what this run created: databases, topics and consumer groups, BullMQ keys. Best effort, reported. */
async function removeRunLeftovers() {
  const { LOCAL_MONGO_URL } = await import('@onco/platform');
  const started = Date.now();
  const removed = { databases: 0, topics: 0, groups: 0, keys: 0 };
  const mongoose = (await import('mongoose')).default;
  const conn = await mongoose.createConnection(process.env.MONGO_URL ?? LOCAL_MONGO_URL).asPromise();
  try {
    const { databases } = await conn.db!.admin().listDatabases({ nameOnly: true });
    for (const d of databases.filter((x) => x.name.startsWith(`oncotrf_test_${RUN}`))) {
      await conn.useDb(d.name).dropDatabase();
      removed.databases++;
    }
  } finally {
    await conn.close();
  }
  const { removePrefixed } = await import('../prefix-cleanup');
  const gone = await removePrefixed(
    `test_${RUN}`,
    (process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(','),
    process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  );
  Object.assign(removed, gone);
  console.log(
    `[test] removed this run's ${removed.databases} databases, ${removed.topics} topics, ${removed.groups} consumer groups and ${removed.keys} queue keys in ${Date.now() - started} ms`,
  );
}

export async function teardown() {
  if (!stop) await removeRunLeftovers().catch((err) => console.warn(`[test] leftovers not removed: ${err}`));
  await stop?.();
}
