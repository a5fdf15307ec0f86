import { describe, expect, it } from 'vitest';
import { kafkaLogKind } from './connections';

/** kafkajs's own lines, as createKafka's logCreator sorts them (docs/decisions.md "One log line per outage"). */
describe("kafkajs's log lines", () => {
  it('a broker that cannot be reached is the Kafka client outage', () => {
    for (const said of [
      'Connection error: connect ECONNREFUSED 127.0.0.1:9092',
      'Failed to connect to seed broker, trying another broker from the list: Connection error: connect ECONNREFUSED 127.0.0.1:9092',
      'Crash: KafkaJSNumberOfRetriesExceeded: Connection error: connect ECONNREFUSED 127.0.0.1:9092',
      'Connection timeout',
      'Request Metadata(key: 3, version: 6) timed out',
      'Crash: KafkaJSNoBrokerAvailableError: No broker available',
    ])
      expect(kafkaLogKind(said), said).toBe('unavailable');
  });

  it('what kafkajs retries by itself, or the consumer groups report, is debug', () => {
    for (const said of [
      "Crash: KafkaJSProtocolError: The coordinator is loading and hence can't process requests for this group",
      'Restarting the consumer in 1000ms',
      'Response Produce(key: 0, version: 7): This server is not the leader for that topic-partition',
      'Failed to send messages: This server is not the leader for that topic-partition',
      'Response Heartbeat(key: 12, version: 3): This is not the correct coordinator for this group',
      'Response Metadata(key: 3, version: 6): There is no leader for this topic-partition as we are in the middle of a leadership election',
      'The group is rebalancing, re-joining',
      'Limiting retries for the idempotent producer may invalidate EoS guarantees',
    ])
      expect(kafkaLogKind(said), said).toBe('routine');
  });

  it('anything else keeps its level (a handler error, a message too large)', () => {
    for (const said of [
      'Error when calling eachMessage',
      'Failed to send messages: The request included a message larger than the max message size the server will accept',
      'Offset out of range, resetting to default offset',
    ])
      expect(kafkaLogKind(said), said).toBe('other');
  });
});
