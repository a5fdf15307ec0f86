import { afterEach, describe, expect, it, vi } from 'vitest';
import { outageLog } from './outage-log';

/** A logger that records (level, message, fields), and a clock the test moves. */
function recorder() {
  const lines: { level: string; msg: string; obj: Record<string, unknown> }[] = [];
  const at = (level: string) => (obj: Record<string, unknown>, msg?: string) =>
    lines.push({ level, msg: msg ?? '', obj });
  const logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  const clock = { t: 1_000_000 };
  const levels = () => lines.map((l) => `${l.level} ${l.msg}`);
  return { lines, logger, clock, now: () => clock.t, levels };
}

afterEach(() => vi.useRealTimers());

describe('outageLog: one WARN when an outage starts, one INFO with its duration when it ends', () => {
  it('logs the first failure as a WARN, the repeats as debug, and the recovery once as an INFO', () => {
    const r = recorder();
    const o = outageLog(r.logger, 'outbox relay', { now: r.now });
    o.up(); // no outage: nothing
    expect(r.lines).toEqual([]);
    o.down(new Error('connect ECONNREFUSED'), { consecutiveFailures: 1 });
    expect(o.isDown).toBe(true);
    for (let i = 0; i < 50; i++) {
      r.clock.t += 200;
      o.down(new Error('connect ECONNREFUSED'));
    }
    r.clock.t += 2_500; // 12.5 s after the first failure
    o.up({ published: 3 });
    o.up(); // already ended: nothing more
    expect(o.isDown).toBe(false);
    expect(r.levels()).toEqual([
      'warn outage started',
      ...Array(50).fill('debug outage continues'),
      'info outage ended',
    ]);
    expect(r.lines[0].obj).toMatchObject({
      component: 'outbox relay',
      err: 'connect ECONNREFUSED',
      consecutiveFailures: 1,
    });
    expect(r.lines.at(-1)!.obj).toMatchObject({
      component: 'outbox relay',
      durationMs: 12_500,
      duration: '12.5 s',
      failures: 51,
      published: 3,
    });
  });

  it('a second outage is logged again', () => {
    const r = recorder();
    const o = outageLog(r.logger, 'redis', { now: r.now });
    o.down('ECONNREFUSED');
    r.clock.t += 1_000;
    o.up();
    r.clock.t += 60_000;
    o.down('ECONNREFUSED');
    r.clock.t += 3_000;
    o.up();
    expect(r.levels()).toEqual([
      'warn outage started',
      'info outage ended',
      'warn outage started',
      'info outage ended',
    ]);
    expect(r.lines.map((l) => l.obj.durationMs).filter(Boolean)).toEqual([1_000, 3_000]);
  });

  it('with sources, ends when every source that failed is back', () => {
    const r = recorder();
    const o = outageLog(r.logger, 'redis', { now: r.now });
    o.down('ECONNREFUSED', {}, 'client 1');
    o.down('ECONNREFUSED', {}, 'client 2');
    o.up({}, 'client 3'); // never failed: changes nothing
    o.up({}, 'client 1');
    expect(o.isDown).toBe(true);
    r.clock.t += 4_000;
    o.up({}, 'client 2');
    expect(r.levels()).toEqual(['warn outage started', 'debug outage continues', 'info outage ended']);
    expect(r.lines.at(-1)!.obj.durationMs).toBe(4_000);
  });

  it('with settleMs, a failure soon after a recovery continues the same outage (no second WARN)', () => {
    vi.useFakeTimers();
    const r = recorder();
    const o = outageLog(r.logger, 'kafka client', { now: r.now, settleMs: 5_000 });
    o.down('Connection error: connect ECONNREFUSED');
    r.clock.t += 10_000;
    o.up(); // the broker answers once...
    vi.advanceTimersByTime(1_000);
    o.down('The coordinator is loading'); // ...and not yet for good
    r.clock.t += 3_000;
    o.up();
    vi.advanceTimersByTime(4_999);
    expect(r.levels()).toEqual(['warn outage started', 'debug outage continues']);
    expect(o.isDown).toBe(true);
    vi.advanceTimersByTime(1);
    expect(r.levels()).toEqual(['warn outage started', 'debug outage continues', 'info outage ended']);
    // the duration runs to the recovery that lasted, not to the end of the wait
    expect(r.lines.at(-1)!.obj).toMatchObject({ durationMs: 13_000, failures: 2 });
    expect(o.isDown).toBe(false);
  });

  it('reminds with a WARN when an outage goes on for longer than remindMs', () => {
    const r = recorder();
    const o = outageLog(r.logger, 'kafka consumer g', { now: r.now, remindMs: 60_000 });
    o.down('No broker available');
    for (let i = 0; i < 30; i++) {
      r.clock.t += 5_000;
      o.down('No broker available');
    }
    // 150 s: a reminder at 60 s and at 120 s, each with the duration so far
    const warns = r.lines.filter((l) => l.level === 'warn');
    expect(warns.map((l) => l.msg)).toEqual(['outage started', 'outage continues', 'outage continues']);
    expect(warns.slice(1).map((l) => l.obj.durationMs)).toEqual([60_000, 120_000]);
  });
});
