import {
  isEventOf,
  runConsumer,
  type AnyEvent,
  type EventEnvelope,
  type EventFamily,
  type RunConsumerOptions,
  type RunningConsumer,
} from '@onco/events';
import type { PlatformContext } from '@onco/platform';

/** What one of this service's single-family consumers is: its group, its family and what an event of it does. */
export interface EventConsumerSpec<F extends EventFamily, D, R extends string> {
  /** The consumer group (prefixed with TOPIC_PREFIX, so test systems and environments never share it). */
  group: string;
  /** The family it consumes; an event of any other family is 'ignored'. */
  family: F;
  /** What one event of the family does with `deps`: its outcome, 'ignored' when it changed nothing. */
  apply: (deps: D, event: EventEnvelope<F>) => Promise<R | 'ignored'>;
  /** The info line logged for each event the consumer did not ignore (none when absent). */
  log?: { message: string; fields: (event: AnyEvent) => Record<string, unknown> };
}

export interface StartEventConsumerOptions {
  /** kafkajs session settings (default: the consumers', events/src/consumer.ts) */
  consumerConfig?: RunConsumerOptions['consumerConfig'];
}

/**
 * One of the requisitions service's consumers of one event family (its projections of the other services' events,
 * and the requisition-submitted and sample-manifest consumers), declared once: `apply` runs the spec's step on an
 * event of its family (any other event is 'ignored'); `start` starts the consumer (only in processes that run
 * workers: see the module's startConsumers) with the platform's Kafka, MongoDB (processed_events, dead_letters)
 * and logger, its group prefixed with TOPIC_PREFIX.
 */
export function defineEventConsumer<F extends EventFamily, D, R extends string>(
  spec: EventConsumerSpec<F, D, R>,
) {
  const apply = async (deps: D, event: AnyEvent): Promise<R | 'ignored'> => {
    if (!isEventOf(event, spec.family)) return 'ignored';
    return spec.apply(deps, event as unknown as EventEnvelope<F>); // the narrowed type, spelt per family
  };
  const start = (
    ctx: PlatformContext,
    deps: D,
    opts: StartEventConsumerOptions = {},
  ): Promise<RunningConsumer> =>
    runConsumer({
      kafka: ctx.kafka,
      db: ctx.mongo,
      groupId: `${ctx.config.TOPIC_PREFIX}${spec.group}`,
      topics: [spec.family],
      topicPrefix: ctx.config.TOPIC_PREFIX,
      logger: ctx.logger,
      consumerConfig: opts.consumerConfig,
      handler: async (event) => {
        const outcome = await apply(deps, event);
        if (outcome !== 'ignored' && spec.log) ctx.logger.info(spec.log.fields(event), spec.log.message);
      },
    });
  return { apply, start };
}
