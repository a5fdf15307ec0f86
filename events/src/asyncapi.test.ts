import { describe, expect, it } from 'vitest';
import {
  CURRENT_SCHEMA_VERSION,
  DATA_SCHEMAS,
  EVENT_FAMILIES,
  EVENT_TYPES,
  MESSAGE_NAMES,
  buildAsyncApiDocument,
  parseEvent,
  topicFor,
} from './index';

describe('AsyncAPI document', () => {
  const doc = buildAsyncApiDocument();

  it('is AsyncAPI 3.0 with one channel, operation and message per family', () => {
    expect(doc.asyncapi).toBe('3.0.0');
    expect(Object.keys(doc.channels)).toHaveLength(EVENT_FAMILIES.length);
    expect(Object.keys(doc.operations)).toHaveLength(EVENT_FAMILIES.length);
    const addresses = Object.values(doc.channels).map((c: any) => c.address);
    expect(addresses.sort()).toEqual(EVENT_FAMILIES.map((f) => topicFor(f)).sort());
  });

  it.each(EVENT_FAMILIES)('covers %s: every data field, the envelope, key and example', (family) => {
    const name = MESSAGE_NAMES[family];
    const message = doc.components.messages[name];
    expect(message.name).toBe(EVENT_TYPES[family]);
    expect(message.bindings.kafka.key.type).toBe('string');
    expect(message.payload.$ref).toBe(`#/components/schemas/${name}Event`);

    const envelope = doc.components.schemas[`${name}Event`];
    expect(Object.keys(envelope.properties).sort()).toEqual(
      ['data', 'id', 'schemaVersion', 'source', 'subject', 'time', 'traceId', 'type'].sort(),
    );
    expect(envelope.required).toEqual(expect.arrayContaining(['id', 'type', 'subject', 'time', 'data']));
    expect(envelope.properties.type.const).toBe(EVENT_TYPES[family]);

    const data = doc.components.schemas[`${name}Data`];
    // the document describes the current schemaVersion; fields added after version 1 are optional
    const versions = DATA_SCHEMAS[family] as Record<number, any>;
    const current = versions[CURRENT_SCHEMA_VERSION[family]];
    const fields = Object.keys(current.shape);
    const required = Object.keys(versions[1].shape);
    expect(Object.keys(data.properties).sort()).toEqual([...fields].sort());
    expect(data.required.sort()).toEqual([...required].sort());
    for (const f of fields)
      expect(typeof data.properties[f].description, `${family}.${f} description`).toBe('string');

    // the example is a valid event
    expect(() => parseEvent(message.examples[0].payload)).not.toThrow();

    const channel = Object.values(doc.channels).find((c: any) => c.address === topicFor(family)) as any;
    expect(channel.messages[name].$ref).toBe(`#/components/messages/${name}`);
    expect(channel.bindings.kafka.partitions).toBe(3);
  });

  it('lists the full enums', () => {
    const billing = doc.components.schemas.BillingCaseChangedData;
    expect(billing.properties.caseStatus.enum).toHaveLength(22);
    const test = doc.components.schemas.TestStatusChangedData;
    expect(test.properties.status.enum).toContain('TNP_AWAITING_REPLACEMENT');
    expect(JSON.stringify(doc)).not.toContain('"pattern":"^(?:(?:');
  });

  it('resolves every $ref', () => {
    const refs: string[] = [];
    JSON.stringify(doc, (k, v) => {
      if (k === '$ref') refs.push(v);
      return v;
    });
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of refs) {
      const target = ref
        .replace(/^#\//, '')
        .split('/')
        .reduce((node: any, part) => node?.[part], doc);
      expect(target, ref).toBeDefined();
    }
  });
});
