import type { Consumer } from 'kafkajs';
import type { OutageLog } from './outage-log';
import { backoffDelay, type EventsLogger } from './util';

/**
 * kafkajs restarts a crashed consumer only when it deems the error retriable: a crash it gives up on (e.g. "Failed
 * to find group coordinator" while a broker restarts) would leave the consumer dead until the process restarts, its
 * events unread. This restarts such a crash itself (connect, then `resubscribe`), with a growing pause (0.5 s
 * doubling to 1 s, reset when the consumer joins its group), until `stop()`. docs/decisions.md "Consumer session,
 * and crashes kafkajs gives up on". Crashes and failed restarts are failures of the group's `outage` (one WARN
 * when it starts; its join ends it: docs/decisions.md "One log line per outage").
 */
/** The longest pause between two restarts of a crashed consumer: it rejoins at most that long after Kafka is back. */
export const CONSUMER_RESTART_MAX_MS = 1_000;

export function restartCrashes(
  consumer: Consumer,
  opts: {
    groupId: string;
    logger: EventsLogger;
    /** the consumer group's outage log (consumer-base.ts) */
    outage: OutageLog;
    /** subscribe and run again, as at the start */
    resubscribe: () => Promise<void>;
    /** counted in the consumer's metrics */
    onRestarted: () => void;
  },
): { stop(): Promise<void> } {
  const { groupId, logger, outage } = opts;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let attempt = 0;
  let restarting: Promise<void> | undefined;
  const restart = () => {
    if (stopped) return;
    const delay = backoffDelay(++attempt, { initialMs: 500, maxMs: CONSUMER_RESTART_MAX_MS, jitter: 0.2 });
    timer = setTimeout(() => {
      if (stopped) return;
      restarting = (async () => {
        try {
          await consumer.connect();
          await opts.resubscribe();
          opts.onRestarted();
          // not the outage's end yet: that is the group's join (consumer-base.ts)
          logger.debug({ groupId, attempt }, 'consumer restarted after a crash kafkajs gave up on');
        } catch (err) {
          outage.down(err, { groupId, attempt, what: 'consumer restart failed' });
          await consumer.disconnect().catch(() => undefined);
          restart();
        }
      })();
    }, delay);
  };
  consumer.on(consumer.events.GROUP_JOIN, () => {
    attempt = 0;
  });
  consumer.on(consumer.events.CRASH, (e) => {
    outage.down(e.payload.error, { groupId, restart: e.payload.restart, what: 'consumer crashed' });
    // kafkajs has disconnected it by now; it restarts by itself only when `restart` is true
    if (!e.payload.restart) restart();
  });
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await restarting; // a restart in flight finishes first, so the consumer's disconnect is the last word
    },
  };
}
