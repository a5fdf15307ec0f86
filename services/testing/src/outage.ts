import { infra } from './support';

/**
 * One stop and one start of a real service (scripts/infra.sh) shared by several tests that run at once
 * (`describe.concurrent`): each test prepares, then `await outage.down()`; the service stops when every test still
 * taking part has arrived. Each does its work while the service is away, then `await outage.up()`; the service
 * starts when every one has arrived, and each checks what happened once it was back. A Kafka restart costs a JVM
 * start and every consumer group's rejoin, so three scenarios in one outage cost one restart instead of three.
 *
 * A test that fails, or finishes, calls `leave()` (in a `finally`): the others no longer wait for it.
 */
export interface GroupedOutage {
  down(): Promise<void>;
  up(): Promise<void>;
  leave(): void;
  /** true between the stop and the start: the file's afterAll starts the service again when a test failed */
  readonly stopped: boolean;
}

export function groupedOutage(
  service: 'kafka' | 'redis',
  participants: number,
  /** what stops and starts it: scripts/infra.sh (a unit test passes a recorder) */
  run: (action: 'stop' | 'start', service: string) => Promise<unknown> = infra,
): GroupedOutage {
  let expected = participants;
  let stopped = false;
  const phase = (action: () => Promise<void>) => {
    let arrived = 0;
    let started = false;
    let settle!: { resolve: () => void; reject: (err: unknown) => void };
    const done = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
    done.catch(() => undefined); // read by each arrival; never an unhandled rejection
    const check = () => {
      if (started || arrived === 0 || arrived < expected) return;
      started = true;
      action().then(settle.resolve, settle.reject);
    };
    return {
      arrive() {
        arrived += 1;
        check();
        return done;
      },
      check,
    };
  };
  const down = phase(async () => {
    stopped = true;
    await run('stop', service);
  });
  const up = phase(async () => {
    await run('start', service);
    stopped = false;
  });
  return {
    down: () => down.arrive(),
    up: () => up.arrive(),
    leave() {
      expected -= 1;
      down.check();
      up.check();
    },
    get stopped() {
      return stopped;
    },
  };
}
