import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Producer } from 'kafkajs';
import {
  createEvent,
  DEAD_LETTERS_COLLECTION,
  EXAMPLE_DATA,
  topicFor,
  type AnyEvent,
  type RunningConsumer,
} from '@onco/events';
import { kafkaTestSystem, waitFor, type KafkaTestSystem } from '@onco/testing';
import { requisitionModels } from '../models';
import { recordTimelineBatch, startTimelineProjection, TIMELINE_GROUP } from './timeline';

const billingEvent = (requisitionId: string, caseStatus: string) =>
  createEvent('billing-case', {
    data: {
      ...EXAMPLE_DATA['billing-case'],
      requisitionId,
      caseStatus,
      changedOn: new Date().toISOString(),
    } as never,
  });

/**
 * The order timeline's projection (real Kafka, DocumentDB): a batch is one bulk write, idempotent per event (a
 * redelivered event or one twice in a batch writes one entry); poison messages are dead-lettered and skipped.
 */
describe('requisitions: order timeline projection (real Kafka, DocumentDB)', () => {
  let sys: KafkaTestSystem;
  let producer: Producer;
  let projection: RunningConsumer | null = null;

  beforeAll(async () => {
    sys = await kafkaTestSystem({}, { ensureTopics: true });
    producer = await sys.producer();
  });
  afterAll(async () => {
    await projection?.stop();
    await sys?.close();
  });

  it('records a batch once: duplicates in it and a second delivery write nothing new', async () => {
    const models = requisitionModels(sys.ctx.mongo);
    const a = billingEvent('r-batch', 'QUEUED_FOR_SUBMISSION');
    const b = billingEvent('r-batch', 'SUBMITTED_TO_XIFIN');
    expect((await recordTimelineBatch(models, [a, b, a])).inserted).toBe(2);
    expect(await recordTimelineBatch(models, [b, a])).toEqual({ inserted: 0, refused: [] });
    const rows = await models.TimelineEntry.find({ requisitionId: 'r-batch' }).lean();
    expect(rows.map((r) => [r._id, r.family, r.data.caseStatus]).sort()).toEqual(
      [
        [a.id, 'billing-case', 'QUEUED_FOR_SUBMISSION'],
        [b.id, 'billing-case', 'SUBMITTED_TO_XIFIN'],
      ].sort(),
    );
  });

  it('through Kafka: every event once, a redelivery ignored, poison messages dead-lettered', async () => {
    const models = requisitionModels(sys.ctx.mongo);
    projection = await startTimelineProjection(sys.ctx, models);
    const topic = topicFor('billing-case', sys.config.TOPIC_PREFIX);
    const events: AnyEvent[] = Array.from({ length: 30 }, (_, i) =>
      billingEvent('r-kafka', i % 2 ? 'SUBMITTED_TO_XIFIN' : 'ACCEPTED_BY_XIFIN'),
    );
    const wrongTopic = createEvent('sample', { data: EXAMPLE_DATA.sample });
    const message = (e: AnyEvent) => ({ key: e.subject, value: JSON.stringify(e) });
    await producer.send({
      topic,
      messages: [
        { key: 'x', value: 'not json' },
        ...events.map(message),
        message(wrongTopic),
        message(events[3]), // a redelivery
      ],
    });
    await waitFor(
      async () => (await models.TimelineEntry.countDocuments({ requisitionId: 'r-kafka' })) === 30,
      {
        what: 'the 30 timeline entries',
        timeoutMs: 45_000,
      },
    );
    const groupId = `${sys.config.TOPIC_PREFIX}${TIMELINE_GROUP}`;
    const letters = await waitFor(
      async () => {
        const rows = await sys.ctx.mongo.collection(DEAD_LETTERS_COLLECTION).find({ groupId }).toArray();
        return rows.length === 2 ? rows : null;
      },
      { what: 'two dead letters' },
    );
    expect(letters.map((l) => [l.reason, l.eventId]).sort()).toEqual(
      [
        ['unparseable', null],
        ['unparseable', wrongTopic.id],
      ].sort(),
    );
    expect(await models.TimelineEntry.countDocuments({ requisitionId: 'r-kafka' })).toBe(30);
  });
});
