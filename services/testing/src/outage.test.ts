import { describe, expect, it } from 'vitest';
import { groupedOutage } from './outage';

const recorder = () => {
  const calls: string[] = [];
  return { calls, run: async (action: string, service: string) => void calls.push(`${action} ${service}`) };
};
const tick = () => new Promise((r) => setImmediate(r));

describe('groupedOutage: one stop and one start for the tests taking part', () => {
  it('stops when every test has arrived, and starts when every one is done with the outage', async () => {
    const r = recorder();
    const o = groupedOutage('kafka', 3, r.run);
    const downs = [o.down(), o.down()];
    await tick();
    expect(r.calls).toEqual([]); // the third has not arrived
    downs.push(o.down());
    await Promise.all(downs);
    expect(r.calls).toEqual(['stop kafka']);
    expect(o.stopped).toBe(true);
    const ups = [o.up(), o.up()];
    await tick();
    expect(r.calls).toEqual(['stop kafka']);
    ups.push(o.up());
    await Promise.all(ups);
    expect(r.calls).toEqual(['stop kafka', 'start kafka']);
    expect(o.stopped).toBe(false);
  });

  it('a test that fails before the outage is no longer waited for', async () => {
    const r = recorder();
    const o = groupedOutage('kafka', 3, r.run);
    const downs = [o.down(), o.down()];
    await tick();
    expect(r.calls).toEqual([]);
    o.leave(); // the third failed while preparing
    await Promise.all(downs);
    expect(r.calls).toEqual(['stop kafka']);
    const first = o.up();
    o.leave(); // the second failed during the outage
    await first;
    expect(r.calls).toEqual(['stop kafka', 'start kafka']);
  });

  it('a failed stop reaches every test waiting for it', async () => {
    const o = groupedOutage('redis', 2, async () => {
      throw new Error('infra.sh stop redis failed');
    });
    const downs = [o.down(), o.down()];
    for (const d of downs) await expect(d).rejects.toThrow('infra.sh stop redis failed');
  });
});
