/**
 * The fault drill's report (scripts/drill.ts, docs/drill.md): the proofs and figures drill-check.ts found, as
 * Markdown, with what the drill found and how it works.
 */
import type { DrillResult, PathCatchUp } from './drill-check';

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
    '- **Kafka: 19–21 s to catch up (target: under 5 s).** Once Kafka was back, each consumer rejoined its group as a new member, and the group coordinator, which reloads the old members from its log, completed the rebalance only when their sessions (10 s) had run out. Now a consumer rejoins as the member it was (events/src/member-id.ts; docs/decisions.md "Rejoin as the same member"), handles its topic\'s three partitions at once instead of one after another, and pauses at most 1 s between tries, as the outbox relay does; the local broker loads its group coordinator\'s log from 5 partitions instead of 50 (~3 s less before any group can rejoin). The consumers now catch up within the target.',
    '- **TRF PDFs 8.5 s late after Kafka.** Their jobs were queued only by the `requisition-submitted` consumer, so every TRF of the outage waited for Kafka, then for ~30 renders in a row. Now the submit queues its TRF job itself right after its commit, under the job id the consumer gives it (the consumer stays the guarantee): the PDFs are made during the outage (docs/decisions.md "The TRF job, queued twice").',
    "- **TRF PDFs 52 s late after the worker was killed.** BullMQ gave a dead worker's active jobs back only after their 30 s lock had lapsed. The `trf-pdf` queue now has its own 3 s lock and stalled check (a TRF job is safe to run twice): caught up in about a second.",
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
