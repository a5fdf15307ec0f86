/**
 * The fault drill's proofs and figures (scripts/drill.ts): once the processes have worked off what the load left
 * them, what the store, Kafka and the billing gateway stand-in hold is compared with what the servers accepted.
 */
import { createConnection } from 'mongoose';
import { Kafka, logLevel } from 'kafkajs';
import { IN_FLIGHT_CASE_STATUSES } from '@onco/domain';
import { topicFor, withPrefix } from '@onco/events';
import type { Config } from '@onco/platform';
import type { GatewayStandin } from '@onco/billing';
import { collectMessages } from '@onco/testing';
import type { Recorder, ServerError, Submitted } from './drill-load';

export interface FaultRecord {
  kind: 'kafka' | 'redis' | 'store' | 'kill-server' | 'kill-worker';
  /** when the fault began, and when the dependency or process was back */
  start: number;
  back: number;
  process?: string;
}

interface Window {
  submits: number;
  p50: number | null;
  p95: number | null;
  perSecond: number;
}

export interface FaultFigures extends FaultRecord {
  during: Window;
  /**
   * per path (consumers: the test order; workers: the TRF PDF): the requisitions accepted before the return whose
   * record was made after it, and the time from the return until the first of them was made (the path flows
   * again) and until the last was (caught up); null: no backlog
   */
  consumers: PathCatchUp;
  workers: PathCatchUp;
}

export interface PathCatchUp {
  backlog: number;
  resumedMs: number | null;
  caughtUpMs: number | null;
}

export interface Proof {
  name: string;
  ok: boolean;
  detail: string;
}

export interface DrillResult {
  ok: boolean;
  proofs: Proof[];
  baseline: Window;
  faults: FaultFigures[];
  /** from an accepted submit to its test order (consumers) and its TRF (workers) with no fault, p95 (ms) */
  latencyP95: { consumers: number | null; workers: number | null };
  serverErrors: { allowed: number; refused: ServerError[] };
  counts: {
    submits: number;
    late: number;
    statusChanges: number;
    billingSubmits: number;
    networkErrors: number;
    /** requisition-submitted messages on the topic (an event delivered twice, at least once, counts twice) */
    submittedMessages: number;
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
function windowOf(submits: Submitted[], from: number, to: number): Window {
  const inside = submits.filter((s) => s.at >= from && s.at < to);
  return {
    submits: inside.length,
    p50: pct(
      inside.map((s) => s.ms),
      50,
    ),
    p95: pct(
      inside.map((s) => s.ms),
      95,
    ),
    perSecond: inside.length / Math.max(1, (to - from) / 1000),
  };
}

/** a billing case whose submission is still on its way (the domain's rule) */
const SENDING: readonly string[] = IN_FLIGHT_CASE_STATUSES;
/** a store outage's 5xx are allowed from its start until shortly after it is back (connections re-made) */
const STORE_GRACE_MS = 10_000;

export async function checkDrill(o: {
  config: Config;
  gateway: GatewayStandin;
  rec: Recorder;
  faults: FaultRecord[];
  loadStarted: number;
  log: (s: string) => void;
}): Promise<DrillResult> {
  const { config, gateway, rec, faults, log } = o;
  const conn = await createConnection(config.MONGO_URL).asPromise();
  const db = conn.db!;
  const requisitionIds = rec.submits.map((s) => s.requisitionId);
  const testOrderIds = rec.submits.flatMap((s) => s.testOrderIds);
  const caseIds = rec.billingSubmits.map((b) => b.caseId);
  try {
    // everything accepted worked off: the test orders and TRFs made, every billing case answered (10 minutes at most)
    log('waiting for the worker to work off the load...');
    const deadline = Date.now() + 600_000;
    for (;;) {
      const orders = await db
        .collection('test_orders')
        .countDocuments({ _id: { $in: testOrderIds as never[] } });
      const trfs = (
        await db.collection('attachments').distinct('testOrderForm.id', {
          type: 'TRF',
          deleted: { $ne: true },
          'testOrderForm.id': { $in: requisitionIds },
        })
      ).length;
      const sending = await db
        .collection('billing_cases')
        .countDocuments({ _id: { $in: caseIds as never[] }, caseStatus: { $in: SENDING } });
      if (orders === testOrderIds.length && trfs === requisitionIds.length && sending === 0) break;
      if (Date.now() > deadline) {
        log(
          `not worked off after 10 minutes: ${orders}/${testOrderIds.length} test orders, ${trfs}/${requisitionIds.length} TRFs, ${sending} billing cases being sent`,
        );
        break;
      }
      await sleep(1_000);
    }

    // what reached Kafka, from the beginning of the two topics
    const kafka = new Kafka({
      clientId: `${config.QUEUE_PREFIX}-check`,
      brokers: config.KAFKA_BROKERS,
      logLevel: logLevel.NOTHING,
    });
    const topics = [
      topicFor('requisition-submitted', config.TOPIC_PREFIX),
      topicFor('test-status', config.TOPIC_PREFIX),
    ];
    const collector = await collectMessages(kafka, topics, `${config.QUEUE_PREFIX}-drill-check`);
    await collector.drained({ timeoutMs: 120_000 });
    await collector.stop();
    const events = collector.messages.map((m) => ({ topic: m.topic, e: JSON.parse(m.value ?? 'null') }));
    const submittedEvents = new Map<string, Set<string>>();
    let submittedMessages = 0;
    const statusEvents = new Map<string, Set<string>>();
    for (const { topic, e } of events) {
      if (!e?.data) continue;
      if (topic === topics[0]) {
        submittedMessages += 1;
        const set = submittedEvents.get(e.data.requisitionId) ?? new Set<string>();
        submittedEvents.set(e.data.requisitionId, set.add(e.id));
      } else if (e.data.status !== e.data.previousStatus) {
        const k = `${e.data.testOrderId} ${e.data.status}`;
        statusEvents.set(k, (statusEvents.get(k) ?? new Set<string>()).add(e.id));
      }
    }

    const proofs: Proof[] = [];
    const proof = (name: string, bad: string[], total: number) =>
      proofs.push({
        name,
        ok: bad.length === 0,
        detail: bad.length
          ? `${bad.length} of ${total}: ${bad.slice(0, 5).join('; ')}`
          : `${total} of ${total}`,
      });

    const stored = await db
      .collection('test_order_forms')
      .find({ _id: { $in: requisitionIds as never[] } }, { projection: { status: 1 } })
      .toArray();
    const status = new Map(stored.map((d) => [String(d._id), d.status]));
    proof(
      'every accepted requisition is stored as SUBMITTED',
      requisitionIds.filter((id) => status.get(id) !== 'SUBMITTED'),
      requisitionIds.length,
    );
    proof(
      'every accepted submit has exactly one requisition-submitted event',
      requisitionIds
        .filter((id) => submittedEvents.get(id)?.size !== 1)
        .map((id) => `${id}: ${submittedEvents.get(id)?.size ?? 0}`),
      requisitionIds.length,
    );
    const orders = await db
      .collection('test_orders')
      .aggregate<{ _id: string; ids: string[]; first: Date }>([
        { $match: { 'testOrderForm.id': { $in: requisitionIds } } },
        { $group: { _id: '$testOrderForm.id', ids: { $push: '$_id' }, first: { $min: '$createdOn' } } },
      ])
      .toArray();
    const ordersOf = new Map(orders.map((g) => [g._id, g]));
    proof(
      'every accepted submit has one test order per chosen test',
      rec.submits
        .filter((s) => {
          const got = ordersOf.get(s.requisitionId)?.ids.map(String).sort() ?? [];
          return got.join() !== [...s.testOrderIds].sort().join();
        })
        .map(
          (s) =>
            `${s.requisitionId}: ${ordersOf.get(s.requisitionId)?.ids.length ?? 0} of ${s.testOrderIds.length}`,
        ),
      rec.submits.length,
    );
    const trfs = await db
      .collection('attachments')
      .aggregate<{ _id: string; n: number; first: Date }>([
        { $match: { type: 'TRF', deleted: { $ne: true }, 'testOrderForm.id': { $in: requisitionIds } } },
        { $group: { _id: '$testOrderForm.id', n: { $sum: 1 }, first: { $min: '$createdOn' } } },
      ])
      .toArray();
    const trfOf = new Map(trfs.map((g) => [g._id, g]));
    proof(
      'every accepted submit has one current TRF',
      requisitionIds.filter((id) => trfOf.get(id)?.n !== 1).map((id) => `${id}: ${trfOf.get(id)?.n ?? 0}`),
      requisitionIds.length,
    );
    proof(
      'every accepted test status change has exactly one test-status event',
      rec.statusChanges
        .filter((c) => statusEvents.get(`${c.testOrderId} ${c.status}`)?.size !== 1)
        .map(
          (c) =>
            `${c.testOrderId} ${c.status}: ${statusEvents.get(`${c.testOrderId} ${c.status}`)?.size ?? 0}`,
        ),
      rec.statusChanges.length,
    );
    const cases = await db
      .collection('billing_cases')
      .find({ _id: { $in: caseIds as never[] } }, { projection: { caseStatus: 1, submission: 1 } })
      .toArray();
    const claims = gateway.claims();
    proof(
      'every billing submit has exactly one claim per generation at the billing system, and an answer',
      cases
        .filter((c) => {
          const g = (c.submission as { generation?: number } | null)?.generation ?? 0;
          const mine = claims.filter((k) => k.key.startsWith(`${String(c._id)}:`));
          const perGeneration = Array.from(
            { length: g },
            (_, i) => mine.filter((k) => k.key === `${String(c._id)}:${i + 1}`).length,
          );
          return (
            g < 1 || perGeneration.some((n) => n !== 1) || mine.length !== g || SENDING.includes(c.caseStatus)
          );
        })
        .map((c) => `${String(c._id)}: ${c.caseStatus}`)
        .concat(caseIds.length > cases.length ? [`${caseIds.length - cases.length} cases missing`] : []),
      caseIds.length,
    );
    const storeWindows = faults
      .filter((f) => f.kind === 'store')
      .map((f) => [f.start, f.back + STORE_GRACE_MS]);
    const allowed = (e: ServerError) =>
      storeWindows.some(([a, b]) => e.at >= a && e.at <= b) || (e.status === 503 && !!e.dependency);
    const refused = rec.serverErrors.filter((e) => !allowed(e));
    proofs.push({
      name: 'outside the store outage, no 5xx but a 503 naming the dependency that is down',
      ok: refused.length === 0,
      detail: refused.length
        ? `${refused.length} other: ${[...new Set(refused.map((e) => `${e.status} ${e.code} ${e.method} ${e.path}: ${e.message}`))].slice(0, 6).join('; ')}`
        : `${rec.serverErrors.length} 5xx, all allowed`,
    });

    // figures: submit latency and throughput with no fault and during each; the catch-up after each return, of
    // the consumers (the lab's consumer of the requisition-submitted event, which makes the test orders) and of the workers (the TRF
    // PDF, a BullMQ job)
    const madeAt = (d: Date | undefined) => (d ? +new Date(d) : null);
    // when the lab's consumer processed each requisition-submitted event (its marker; the test order itself
    // carries the event's time)
    const processed = await db
      .collection('processed_events')
      .find(
        {
          groupId: withPrefix('lab.requisition-submitted', config.TOPIC_PREFIX),
          subject: { $in: requisitionIds },
        },
        { projection: { subject: 1, processedOn: 1 } },
      )
      .toArray();
    const consumedAt = new Map(processed.map((d) => [String(d.subject), d.processedOn as Date]));
    const paths = {
      consumers: (id: string) => madeAt(consumedAt.get(id)),
      workers: (id: string) => madeAt(trfOf.get(id)?.first),
    };
    const first = faults[0]?.start ?? Date.now();
    const baselineSubmits = rec.submits.filter((s) => s.at < first);
    const latency = (path: keyof typeof paths) =>
      pct(
        baselineSubmits.map((s) => (paths[path](s.requisitionId) ?? s.at) - s.at),
        95,
      );
    const catchUp = (f: FaultRecord, path: keyof typeof paths) => {
      const backlog = rec.submits.filter(
        (s) => s.at <= f.back && (paths[path](s.requisitionId) ?? 0) > f.back,
      );
      const made = backlog.map((s) => paths[path](s.requisitionId)!);
      const last = Math.max(f.back, ...made);
      return {
        backlog: backlog.length,
        ms: backlog.length ? last - f.back : null,
        firstMs: backlog.length ? Math.min(...made) - f.back : null,
        last,
      };
    };
    const figures: FaultFigures[] = faults.map((f, i) => {
      const consumers = catchUp(f, 'consumers');
      const workers = catchUp(f, 'workers');
      const end = Math.min(faults[i + 1]?.start ?? Date.now(), Math.max(consumers.last, workers.last));
      return {
        ...f,
        during: windowOf(rec.submits, f.start, Math.max(end, f.back)),
        consumers: { backlog: consumers.backlog, resumedMs: consumers.firstMs, caughtUpMs: consumers.ms },
        workers: { backlog: workers.backlog, resumedMs: workers.firstMs, caughtUpMs: workers.ms },
      };
    });
    return {
      ok: proofs.every((p) => p.ok),
      proofs,
      baseline: windowOf(rec.submits, o.loadStarted, first),
      faults: figures,
      latencyP95: { consumers: latency('consumers'), workers: latency('workers') },
      serverErrors: { allowed: rec.serverErrors.length - refused.length, refused },
      counts: {
        submits: rec.submits.length,
        late: rec.submits.filter((s) => s.late).length,
        statusChanges: rec.statusChanges.length,
        billingSubmits: rec.billingSubmits.length,
        networkErrors: rec.networkErrors,
        submittedMessages,
      },
    };
  } finally {
    await conn.close();
  }
}

const ms = (x: number | null) => (x === null ? '–' : `${Math.round(x)} ms`);
const s1 = (x: number | null) => (x === null ? 'no backlog' : `${(x / 1000).toFixed(1)} s`);
const pathFigures = (p: PathCatchUp) =>
  p.caughtUpMs === null
    ? `${p.backlog}, no backlog`
    : `${p.backlog}, ${s1(p.resumedMs)}, ${s1(p.caughtUpMs)}`;

export function renderDrillReport(
  r: DrillResult,
  run: {
    requisitions: number;
    providers: number;
    holdMs: number;
    thinkMs: number;
    seed: number;
    seconds: number;
  },
): string {
  const lines = [
    '# Fault drill report',
    '',
    `${new Date().toISOString().slice(0, 10)}. \`npm run drill\` (scripts/drill.ts): ${run.providers} providers submitting at least ${run.requisitions} requisitions (each pausing ${run.thinkMs / 1000} s on average between orders), lab status changes and report uploads, billing submits, over two server processes and one worker process; each fault held ${run.holdMs / 1000} s; seed ${run.seed}; ${run.seconds} s on this 2-core machine.`,
    '',
    `**${r.ok ? 'Every proof holds' : 'A proof failed'}.** ${r.counts.submits} requisitions accepted (${r.counts.late} found submitted after an unanswered submit), ${r.counts.statusChanges} test status changes, ${r.counts.billingSubmits} billing submits; ${r.counts.networkErrors} requests refused at the connection (a process down), retried. The requisition-submitted topic holds ${r.counts.submittedMessages} messages for them (a message twice is an event delivered at least once; consumers apply each event id once).`,
    '',
    '## Proofs',
    '',
    '| proof | holds | |',
    '|---|---|---|',
    ...r.proofs.map((p) => `| ${p.name} | ${p.ok ? 'yes' : '**no**'} | ${p.detail.replace(/\|/g, '/')} |`),
    '',
    '## Figures',
    '',
    `Submit (the \`POST /testOrderForms/submit\` call) with no fault: ${r.baseline.submits} submits, p50 ${ms(r.baseline.p50)}, p95 ${ms(r.baseline.p95)}, ${r.baseline.perSecond.toFixed(1)} per second. From an accepted submit to its test order (the consumers) with no fault: p95 ${ms(r.latencyP95.consumers)}; to its TRF PDF (the workers): p95 ${ms(r.latencyP95.workers)}.`,
    '',
    '| fault | held | submits during | p50 | p95 | per second | consumers: backlog, resumed, caught up | workers: backlog, resumed, caught up |',
    '|---|---|---|---|---|---|---|---|',
    ...r.faults.map(
      (f) =>
        `| ${f.kind}${f.process ? ` (${f.process})` : ''} | ${((f.back - f.start) / 1000).toFixed(1)} s | ${f.during.submits} | ${ms(f.during.p50)} | ${ms(f.during.p95)} | ${f.during.perSecond.toFixed(1)} | ${pathFigures(f.consumers)} | ${pathFigures(f.workers)} |`,
    ),
    '',
    '**Caught up**: the time from the dependency or process being back until the last requisition accepted before then has its test order (consumers) or its TRF PDF (workers); **resumed**: until the first of them has it (the path flows again); the backlog is how many were still waiting at the return (target: caught up in under 5 s).',
    '',
    `Server errors: ${r.serverErrors.allowed} allowed (during the store outage, or 503 naming the dependency), ${r.serverErrors.refused.length} not.`,
    '',
    '## What the drill found, and the fixes (2026-11-29)',
    '',
    '- **500s while a dependency was away.** The store, Redis or Kafka away made requests fail with a 500 that said nothing. Now a 503 `DEPENDENCY_UNAVAILABLE` naming it (`details.dependency`), and the local store\'s words for PostgreSQL stopping are known (docs/decisions.md "A dependency away is a 503").',
    '- **500s after a server was killed.** A server SIGKILLed inside a transaction leaves it open in the store until the store aborts it (30 s); a submit of the same order on the other server conflicted with it past its 10 s of retries. Now a 409 the client retries.',
    '- **A TRF lost to a Redis outage.** The TRF consumer could not add its job while Redis was away, gave up after its tries and dead-lettered the event: the order never got its TRF. A handler that finds a dependency away is now retried until it is back, never dead-lettered (events/src/consumer.ts).',
    "- **Kafka: 19–21 s to catch up (target: under 5 s).** Once Kafka was back, each consumer rejoined its group as a new member, and the group coordinator, which reloads the old members from its log, completed the rebalance only when their sessions (10 s) had run out. Now a consumer rejoins as the member it was (events/src/member-id.ts; docs/decisions.md \"Rejoin as the same member\"), handles its topic's three partitions at once instead of one after another, and pauses at most 1 s between tries, as the outbox relay does; the local broker loads its group coordinator's log from 5 partitions instead of 50 (~3 s less before any group can rejoin). The consumers now catch up within the target; the TRF workers' backlog is bound by rendering (~3 PDFs a second on this 2-core machine).",
    "- **The TRF worker bounds the load.** On this 2-core machine the worker renders ~3 TRF PDFs a second beside everything else; a faster load only grows its queue, and every figure would measure that queue. Hence the providers' pause between orders (`--think-ms`).",
    '',
    '## How the drill works',
    '',
    '- **The stack**: two server processes (every area, no workers) and one worker-only process (`SERVICES=none WORKERS=true`), as docs/operations.md "Running one area alone" starts them, with `NODE_ENV=production`, on the local Kafka, Redis and store, each with its own database, topic and queue prefixes; the billing gateway stand-in in the drill\'s process. Every request goes to one of the two servers at random, as behind a load balancer; a refused connection (a process down) is retried on the next pick.',
    "- **The load** (scripts/drill-load.ts): each provider drafts, signs and submits a NEXT_DX requisition, then pauses; when a submit is not answered 200 the provider looks at the order and submits it again while it is still a draft (an order found submitted counts as accepted). Lab staff move every test to In Progress and upload its report (REPORT_COMPLETE); billing staff complete the billing review, set a billing code and submit every eighth reported test's case. Any 5xx or refused connection is retried.",
    '- **The faults**, one at a time in a seeded random order after a baseline, each at a random point: `infra.sh stop kafka` / `start kafka`, the same for Redis, the store (PostgreSQL and its gateway), a SIGKILL of one server process (then started again), a SIGKILL of the worker process (then started again).',
    "- **The proofs** (scripts/drill-check.ts), once every accepted requisition has its test order and TRF and no billing case is still being sent: the store, the `requisition-submitted` and `test-status` topics (read from the beginning) and the stand-in's claims against what the servers accepted. An event is counted by its id: the relay publishes at least once, and a message delivered twice is one event.",
    '',
  ];
  return lines.join('\n');
}
