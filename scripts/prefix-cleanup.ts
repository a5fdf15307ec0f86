/**
 * Remove what a run named with its prefix from Kafka (consumer groups, topics) and Redis (keys): the test levels'
 * teardown (scripts/test-support/global-setup.ts), the fuzzer and the drill (bench-support.ts removeLeftovers).
 * Light on purpose (kafkajs and ioredis only): the test levels' global setup loads it.
 */
import { Kafka, logLevel } from 'kafkajs';
import { Redis } from 'ioredis';

export async function removePrefixed(
  prefix: string,
  kafkaBrokers: string[],
  redisUrl: string,
): Promise<{ groups: number; topics: number; keys: number }> {
  const admin = new Kafka({
    clientId: `${prefix.replace(/\W+$/, '')}-cleanup`,
    brokers: kafkaBrokers,
    logLevel: logLevel.NOTHING,
  }).admin();
  const removed = { groups: 0, topics: 0, keys: 0 };
  await admin.connect();
  try {
    const groups = (await admin.listGroups()).groups
      .map((g) => g.groupId)
      .filter((g) => g.startsWith(prefix));
    if (groups.length) await admin.deleteGroups(groups).catch(() => undefined);
    removed.groups = groups.length;
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(prefix));
    for (let i = 0; i < topics.length; i += 100)
      await admin.deleteTopics({ topics: topics.slice(i, i + 100), timeout: 30_000 });
    removed.topics = topics.length;
  } finally {
    await admin.disconnect();
  }
  const redis = new Redis(redisUrl, { lazyConnect: true });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) removed.keys += await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return removed;
}
