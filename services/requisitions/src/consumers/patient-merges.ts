import {
  isEventOf,
  runConsumer,
  withPrefix,
  type AnyEvent,
  type PatientMergeDirection,
  type RunningConsumer,
} from '@onco/events';
import type { PlatformContext, SessionUser } from '@onco/platform';
import type { RequisitionModels } from '../models';
import type { RequisitionDeps } from '../use-cases';
import { backfillPatientRequisitions } from './patient-merges/backfill';
import { moveAll, moveLate } from './patient-merges/move';
import {
  finishRun,
  openRun,
  patientMergeRunModel,
  type MergeRunContext,
  type MergeRunProgress,
  type PatientMergeHooks,
  type PatientMergeRunDoc,
} from './patient-merges/run';

export type { PatientMergeHooks };

/** The consumer group (prefixed with TOPIC_PREFIX, so test systems and environments never share it). */
export const PATIENT_MERGES_GROUP = 'requisitions.patient-merges';

/**
 * Move the requisitions of a patient merge (`patient` event, change `merged`) to its primary patient, or back
 * (`merge-undone`) to where each was. Each requisition is ONE conditional write (on its version and its current
 * patient id) of its patient snapshot with its requisition-changed event (`patient-changed`, `patientMerge`):
 * a requisition already moved no longer matches, so a redelivery after a crash resumes where it stopped and
 * publishes nothing twice. A merge gives the requisition the primary's identity (id, number, names); the other
 * demographics stay as the form recorded them (events carry no demographics, docs/events.md). The undo restores
 * the snapshot recorded by the merge. When the list is done (plus any requisition that arrived for a duplicate
 * meanwhile), the run is finished with its `patient-requisitions` event.
 */
export async function applyPatientMergeEvent(
  ctx: Pick<PlatformContext, 'nudgeOutbox'>,
  models: RequisitionModels,
  deps: RequisitionDeps,
  event: AnyEvent,
  hooks: PatientMergeHooks = {},
): Promise<{ moved: number; total: number } | null> {
  if (!isEventOf(event, 'patient')) return null;
  const d = event.data;
  const Run = patientMergeRunModel(models.Requisition.db);
  const direction: PatientMergeDirection = d.change === 'merged' ? 'merge' : 'undo';
  const runId = `${d.mergeId}:${direction}`;
  const found = await Run.findById(runId).lean<PatientMergeRunDoc>().exec();
  if (found?.finishedOn) return { moved: 0, total: found.total };

  const delivery: MergeRunContext = { ctx, models, hooks, Run, event, direction, runId };
  const run = found ?? (await openRun(delivery));
  const actor = {
    id: d.changedBy.id,
    firstName: d.changedBy.name,
    lastName: '',
  } as unknown as SessionUser;
  const m: MergeRunProgress = { ...delivery, actor, run, moved: 0 };
  await moveAll(m, m.run.entries, m.run.total);
  await moveLate(m);
  await finishRun(m);
  return { moved: m.moved, total: m.run.total };
}

export interface PatientMergeConsumerOptions {
  /** kafkajs session settings (default: the consumers' 10 s session and 1 s heartbeat, events/src/consumer.ts) */
  consumerConfig?: { sessionTimeout?: number; heartbeatInterval?: number; rebalanceTimeout?: number };
  /** run the patient_requisitions backfill in the background at start (default true) */
  backfill?: boolean;
}

/**
 * Start the consumer (only in processes that run workers), and, beside it, the backfill of the reference
 * service's `patient_requisitions` (`backfillPatientRequisitions`, below): in the background, so the start waits
 * for nothing; stopped with the consumer.
 */
export async function startPatientMergeConsumer(
  ctx: PlatformContext,
  models: RequisitionModels,
  deps: RequisitionDeps,
  hooks: PatientMergeHooks = {},
  options: PatientMergeConsumerOptions = {},
): Promise<RunningConsumer> {
  const consumer = await runConsumer({
    kafka: ctx.kafka,
    db: ctx.mongo,
    groupId: withPrefix(PATIENT_MERGES_GROUP, ctx.config.TOPIC_PREFIX),
    topics: ['patient'],
    topicPrefix: ctx.config.TOPIC_PREFIX,
    logger: ctx.logger,
    // a merge of many requisitions takes a while: the handler heartbeats every 25 moves, so the session stays
    // the consumers' short one (a broker restart or a dead member costs 10 s, not a minute)
    consumerConfig: options.consumerConfig,
    handler: async (event, hctx) => {
      const heartbeat = (hctx as unknown as { heartbeat?: () => Promise<void> }).heartbeat;
      const r = await applyPatientMergeEvent(ctx, models, deps, event, { ...hooks, heartbeat });
      if (r) ctx.logger.info({ mergeId: (event.data as any).mergeId, ...r }, 'patient merge run applied');
    },
  });
  if (options.backfill === false) return consumer;
  const abort = new AbortController();
  const backfill = backfillPatientRequisitions(ctx, models, { signal: abort.signal }).catch((err: unknown) =>
    // not fatal: the next start tries again from where the last finished run left off
    ctx.logger.error({ err }, 'patient_requisitions backfill failed'),
  );
  return {
    ready: consumer.ready,
    metrics: consumer.metrics,
    consumer: consumer.consumer,
    async stop() {
      abort.abort();
      await backfill;
      await consumer.stop();
    },
  };
}
