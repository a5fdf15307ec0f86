import { describe, expect, it } from 'vitest';
import {
  EXAMPLE_DATA,
  allTopics,
  backoffDelay,
  createEvent,
  familyOfTopic,
  outboxEntrySchemaDefinition,
  outboxEntrySchemaOptions,
  outboxForInsert,
  outboxPush,
  parseEvent,
  partitionKey,
  toOutboxEntry,
  topicFor,
  withOutbox,
} from './index';

let n = 0;
const deps = () => ({
  now: () => new Date(Date.UTC(2025, 2, 1, 12, 0, n)),
  newId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
});
const statusEvent = (status: 'IN_PROGRESS' | 'REPORT_COMPLETE' = 'IN_PROGRESS') =>
  createEvent('test-status', { data: { ...EXAMPLE_DATA['test-status'], status } }, deps());

describe('topics', () => {
  it('names topics per family with an optional prefix', () => {
    expect(topicFor('requisition-submitted')).toBe('oncotrf.requisition-submitted.v1');
    expect(topicFor('test-status', 'run42')).toBe('run42.oncotrf.test-status.v1');
    expect(topicFor('sample', 'run42.')).toBe('run42.oncotrf.sample.v1');
    expect(topicFor('billing-case', '')).toBe('oncotrf.billing-case.v1');
    expect(allTopics()).toEqual([
      'oncotrf.requisition-submitted.v1',
      'oncotrf.requisition-changed.v1',
      'oncotrf.test-status.v1',
      'oncotrf.sample.v1',
      'oncotrf.billing-case.v1',
      'oncotrf.attachment.v1',
      'oncotrf.sample-manifest.v1',
      'oncotrf.patient.v1',
      'oncotrf.patient-requisitions.v1',
      'oncotrf.audit.v1',
    ]);
    expect(familyOfTopic('p.oncotrf.sample.v1', 'p')).toBe('sample');
    expect(familyOfTopic('oncotrf.sample.v1', 'p')).toBeUndefined();
  });

  it('keys messages by the entity id', () => {
    const e = statusEvent();
    expect(partitionKey(e)).toBe(EXAMPLE_DATA['test-status'].testOrderId);
  });
});

describe('outbox fragments', () => {
  it('outboxPush gives a $push of one entry with the envelope as a JSON string', () => {
    const e = statusEvent();
    const update = outboxPush(e);
    expect(Object.keys(update)).toEqual(['$push']);
    const entry = update.$push.outbox;
    expect(entry).toEqual({
      id: e.id,
      topic: 'oncotrf.test-status.v1',
      key: e.subject,
      type: 'test.status-changed',
      value: JSON.stringify(e),
      createdOn: new Date(e.time),
      attempts: 0,
    });
    expect(typeof entry.value).toBe('string');
    expect(parseEvent(JSON.parse(entry.value))).toEqual(e);
  });

  it('outboxPush of several events uses $each in order', () => {
    const a = statusEvent('IN_PROGRESS');
    const b = statusEvent('REPORT_COMPLETE');
    const update = outboxPush(a, b);
    expect(update.$push.outbox.$each.map((x: { id: string }) => x.id)).toEqual([a.id, b.id]);
    expect(() => outboxPush()).toThrow();
  });

  it('withOutbox merges into an update without changing the input', () => {
    const e = statusEvent();
    const input = { $set: { status: 'IN_PROGRESS' }, $inc: { version: 1 } };
    const merged = withOutbox(input, e);
    expect(input).toEqual({ $set: { status: 'IN_PROGRESS' }, $inc: { version: 1 } });
    expect(merged).toEqual({
      $set: { status: 'IN_PROGRESS' },
      $inc: { version: 1 },
      $push: { outbox: toOutboxEntry(e) },
    });
  });

  it('withOutbox moves shorthand fields into $set and keeps other $push fields', () => {
    const e = statusEvent();
    const merged = withOutbox({ status: 'X', $set: { updatedOn: 1 }, $push: { history: { s: 'X' } } }, e);
    expect(merged).toEqual({
      $set: { status: 'X', updatedOn: 1 },
      $push: { history: { s: 'X' }, outbox: toOutboxEntry(e) },
    });
  });

  it('withOutbox appends after entries already pushed, and several events keep their order', () => {
    const a = statusEvent();
    const b = statusEvent();
    const c = statusEvent();
    const merged = withOutbox(outboxPush(a), b, c);
    expect(merged.$push.outbox.$each.map((x: { id: string }) => x.id)).toEqual([a.id, b.id, c.id]);
    const merged2 = withOutbox(outboxPush(a, b), c);
    expect(merged2.$push.outbox.$each.map((x: { id: string }) => x.id)).toEqual([a.id, b.id, c.id]);
  });

  it('withOutbox refuses conflicting operators on outbox and pipeline updates', () => {
    const e = statusEvent();
    expect(() => withOutbox({ $set: { outbox: [] } }, e)).toThrow(/outbox/);
    expect(() => withOutbox([{ $set: { a: 1 } }] as never, e)).toThrow(/pipeline/);
    expect(withOutbox({ a: 1 })).toEqual({ $set: { a: 1 } });
  });

  it('outboxForInsert gives the entries for a new document', () => {
    const a = createEvent('sample', { data: EXAMPLE_DATA.sample }, deps());
    const b = createEvent('sample', { data: { ...EXAMPLE_DATA.sample, change: 'updated' } }, deps());
    const entries = outboxForInsert(a, b);
    expect(entries.map((x) => [x.id, x.topic, x.key, x.attempts])).toEqual([
      [a.id, 'oncotrf.sample.v1', EXAMPLE_DATA.sample.sampleId, 0],
      [b.id, 'oncotrf.sample.v1', EXAMPLE_DATA.sample.sampleId, 0],
    ]);
    // no nested objects other than Date
    for (const entry of entries) {
      for (const v of Object.values(entry))
        expect(typeof v === 'object' ? v instanceof Date : true).toBe(true);
    }
  });
});

describe('backoffDelay', () => {
  it('doubles from the initial delay up to the cap, with bounded jitter', () => {
    const mid = () => 0.5; // no jitter
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map((a) => backoffDelay(a, {}, mid))).toEqual([
      500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
    expect(backoffDelay(1, {}, () => 0)).toBe(400);
    expect(backoffDelay(1, {}, () => 0.999999)).toBe(600);
    expect(backoffDelay(10, {}, () => 0.999999)).toBe(30000);
    expect(backoffDelay(3, { initialMs: 100, maxMs: 1000, jitter: 0 })).toBe(400);
  });
});

describe('interop types', () => {
  it('fits mongoose updates/inserts and pino loggers (checked by tsc)', async () => {
    const { default: mongoose } = await import('mongoose');
    const { pino } = await import('pino');
    const logger: import('./index').EventsLogger = pino({ level: 'silent' });
    logger.info({ a: 1 }, 'fits');
    const schema = new mongoose.Schema({
      status: String,
      outbox: {
        type: [new mongoose.Schema(outboxEntrySchemaDefinition, outboxEntrySchemaOptions)],
        default: [],
      },
    });
    const Model = mongoose.model(`Interop${Date.now()}`, schema);
    const typecheckOnly = async () => {
      const e = statusEvent();
      await Model.updateOne({ _id: 'x', status: 'A' }, withOutbox({ $set: { status: 'B' } }, e));
      await Model.updateOne({ _id: 'x' }, outboxPush(e));
      await Model.create({ status: 'A', outbox: outboxForInsert(e) });
    };
    expect(typeof typecheckOnly).toBe('function');
    // the schema keeps entries as they are (no _id added)
    const doc = new Model({ status: 'A', outbox: outboxForInsert(statusEvent()) });
    expect(doc.toObject().outbox[0]).not.toHaveProperty('_id');
    expect(doc.toObject().outbox[0]).toMatchObject({ attempts: 0, topic: 'oncotrf.test-status.v1' });
  });
});
