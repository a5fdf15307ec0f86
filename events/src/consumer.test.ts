import { describe, expect, it } from 'vitest';
import {
  EXAMPLE_DATA,
  createEvent,
  createIdempotentHandler,
  memoryProcessedStore,
  type AnyEvent,
} from './index';

const event = () => createEvent('requisition-submitted', { data: EXAMPLE_DATA['requisition-submitted'] });

describe('createIdempotentHandler', () => {
  it('delivering the same event twice has one effect', async () => {
    const effects: string[] = [];
    const store = memoryProcessedStore();
    const handle = createIdempotentHandler(store, async (e: AnyEvent) => {
      effects.push(e.id);
    });
    const e = event();
    expect(await handle(e, undefined)).toBe('processed');
    expect(await handle(JSON.parse(JSON.stringify(e)), undefined)).toBe('duplicate');
    expect(effects).toEqual([e.id]);
    expect(store.ids.has(e.id)).toBe(true);

    const other = event();
    expect(await handle(other, undefined)).toBe('processed');
    expect(effects).toEqual([e.id, other.id]);
  });

  it('a failing handler leaves no marker, so a redelivery runs it again', async () => {
    const store = memoryProcessedStore();
    let calls = 0;
    const handle = createIdempotentHandler(store, () => {
      calls++;
      if (calls === 1) throw new Error('db down');
    });
    const e = event();
    await expect(handle(e, undefined)).rejects.toThrow('db down');
    expect(store.ids.size).toBe(0);
    expect(await handle(e, undefined)).toBe('processed');
    expect(await handle(e, undefined)).toBe('duplicate');
    expect(calls).toBe(2);
  });

  it('passes the context through', async () => {
    const seen: number[] = [];
    const handle = createIdempotentHandler<{ attempt: number }>(memoryProcessedStore(), (_e, ctx) => {
      seen.push(ctx.attempt);
    });
    await handle(event(), { attempt: 7 });
    expect(seen).toEqual([7]);
  });
});
