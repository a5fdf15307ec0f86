/**
 * One WARN when a component's outage starts and one INFO when it ends, with its duration: the retries in between
 * are debug lines, so a dependency that is down for a minute does not flood the log (docs/decisions.md "One log
 * line per outage"). Used by each Kafka consumer group, the outbox relay, kafkajs's own log (the Kafka client)
 * and the Redis connections (services/platform connections.ts).
 *
 *   const outage = outageLog(logger, 'outbox relay');
 *   outage.down(err);   // each failure: the first of an outage is a WARN, the others debug
 *   outage.up();        // each success: ends an outage with an INFO (nothing when there is none)
 */
import type { Kafka } from 'kafkajs';
import { errorMessage, type EventsLogger } from './util';

type Fields = Record<string, unknown>;

export interface OutageLog {
  /** A failure of `source` (default: the component as a whole). The first of an outage is a WARN, the rest debug. */
  down(err: unknown, fields?: Fields, source?: string): void;
  /**
   * A success of `source`. When no source is down any more the outage ends: one INFO with its duration (after
   * `settleMs` without a failure, when set). Nothing when there is no outage.
   */
  up(fields?: Fields, source?: string): void;
  /** True from the first failure until the outage's end has been logged. */
  readonly isDown: boolean;
}

export interface OutageLogOptions {
  /**
   * How long a recovery must last before it is logged (default 0: at once). A failure within it continues the
   * same outage (a debug line), instead of ending one and starting another: right after a broker restart, requests
   * still fail for a few seconds (the group coordinator is loading, partition leaders move).
   */
  settleMs?: number;
  /** A failure this long after the last WARN logs another (default 5 min): a long outage is not silent. */
  remindMs?: number;
  /** The clock (tests). */
  now?: () => number;
}

/** How long a Kafka component's recovery must last before it is logged (see `settleMs`). */
export const KAFKA_RECOVERY_SETTLE_MS = 5_000;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function outageLog(
  logger: EventsLogger,
  component: string,
  options: OutageLogOptions = {},
): OutageLog {
  const { settleMs = 0, remindMs = 5 * 60_000, now = Date.now } = options;
  const downSources = new Set<string>();
  let since: number | null = null; // the outage's first failure
  let lastWarn = 0;
  let failures = 0;
  let settling: { timer: NodeJS.Timeout | null; at: number } | null = null;

  const end = (at: number, fields: Fields) => {
    const durationMs = Math.max(0, at - (since ?? at));
    logger.info(
      { component, durationMs, duration: seconds(durationMs), failures, ...fields },
      'outage ended',
    );
    since = null;
    failures = 0;
    settling = null;
  };

  return {
    down(err, fields = {}, source = '') {
      downSources.add(source);
      failures += 1;
      const t = now();
      const line = { component, err: errorMessage(err), ...fields };
      if (settling) {
        // the recovery did not last: the same outage goes on
        if (settling.timer) clearTimeout(settling.timer);
        settling = null;
      }
      if (since === null) {
        since = t;
        lastWarn = t;
        logger.warn(line, 'outage started');
      } else if (t - lastWarn >= remindMs) {
        lastWarn = t;
        logger.warn(
          { ...line, durationMs: t - since, duration: seconds(t - since), failures },
          'outage continues',
        );
      } else {
        logger.debug({ ...line, failures }, 'outage continues');
      }
    },
    up(fields = {}, source = '') {
      downSources.delete(source);
      if (since === null || downSources.size > 0 || settling) return;
      const at = now();
      if (settleMs <= 0) return end(at, fields);
      settling = { at, timer: null };
      const pending = settling;
      pending.timer = setTimeout(() => {
        if (settling === pending) end(pending.at, fields);
      }, settleMs);
      pending.timer.unref?.();
    },
    get isDown() {
      return since !== null;
    },
  };
}

const clientOutages = new WeakMap<Kafka, OutageLog>();

/**
 * The outage log of a Kafka client's own log lines (kafkajs's logCreator, services/platform connections.ts): the
 * components that prove the broker reachable (a consumer joining its group, the relay publishing) end its outage,
 * since kafkajs itself logs failures only.
 */
export function setKafkaClientOutage(kafka: Kafka, outage: OutageLog): void {
  clientOutages.set(kafka, outage);
}

/** The broker answered (a group joined, a batch was published): ends the client's outage, if any. */
export function kafkaReachable(kafka: Kafka): void {
  clientOutages.get(kafka)?.up();
}
