import { describe, expect, it } from 'vitest';
import { shutdownWithin } from './shutdown';

const never = () => new Promise<void>(() => undefined);

describe('shutdownWithin: every step in order, the whole within one budget', () => {
  it('runs the steps in order when each finishes', async () => {
    const order: string[] = [];
    const report = await shutdownWithin(1_000, [
      { what: 'http', run: async () => void order.push('http') },
      { what: 'workers', run: async () => void order.push('workers') },
      { what: 'connections', run: async () => void order.push('connections') },
    ]);
    expect(order).toEqual(['http', 'workers', 'connections']);
    expect(report.abandoned).toEqual([]);
  });

  it('gives up on a hanging step at the budget, keeping what later steps reserve, and still runs them', async () => {
    const order: string[] = [];
    const report = await shutdownWithin(300, [
      { what: 'http', run: async () => void order.push('http') },
      { what: 'consumers (Kafka down)', run: never },
      { what: 'connections', run: async () => void order.push('connections'), reserveMs: 100 },
    ]);
    expect(order).toEqual(['http', 'connections']);
    expect(report.abandoned).toEqual(['consumers (Kafka down)']);
    expect(report.tookMs).toBeLessThan(1_000);
  });

  it('a failing step is reported and the next one runs', async () => {
    const report = await shutdownWithin(500, [
      { what: 'queues', run: () => Promise.reject(new Error('Connection is closed.')) },
      { what: 'connections', run: async () => undefined },
    ]);
    expect(report.failed).toEqual([{ what: 'queues', error: 'Connection is closed.' }]);
    expect(report.abandoned).toEqual([]);
  });

  it('a step with its own maximum is given up on at it, leaving the rest of the budget to the next', async () => {
    const report = await shutdownWithin(10_000, [
      { what: 'relay', run: never, maxMs: 50 },
      { what: 'connections', run: async () => undefined },
    ]);
    expect(report.abandoned).toEqual(['relay']);
    expect(report.tookMs).toBeLessThan(5_000);
  });
});
