/**
 * Benchmark: billing submissions in one burst (issue 13).
 *  - Worker: `--cases` qualified billing cases (default 10,000) submitted in one burst through the real API
 *    (POST /bis/api/v1/billing/submit, 500 ids a call, the calls at once), each queued (one conditional write with
 *    its history entry and event), sent by the billing-submit worker (BullMQ on Redis, 16 at a time) to the
 *    billing gateway stand-in, and its answer recorded (two more writes). Claims per second from the first Submit
 *    to the last case ACCEPTED_BY_XIFIN.
 *  - Bare: the same claims (built by the same `buildClaim`) POSTed to another stand-in by a plain loop at the same
 *    concurrency (16) with the worker's own HTTP client (gateway-client.ts), no queue, no database.
 * The stand-in answers after `--latency` ms (default 0: as fast as it can; a real billing system takes tens to
 * hundreds of ms, which hides the worker's own work). Prints claims/s of each and the ratio (target >= 0.8x).
 *
 * Between the two it waits (up to `--timeline-wait` s, default 600) until the order timeline has projected the
 * burst's billing-case events (three a claim), prints how long after the last answer that was, so the bare loop
 * never runs beside the projection's backlog. `--count-commands 1` prints the store commands of the worker phase
 * by command and collection.
 *
 *   npm run bench:billing-submit -- [--cases 10000] [--latency 0] [--timeline-wait 600] [--count-commands 1]
 *
 * Uses its own database (oncotrf_bench_billing_submit_<run>, dropped at the end) and prefixes; needs
 * `npm run infra:up`. Not a test.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { LOCAL_MONGO_URL, loadConfig, mongoUrlWithDb } from '@onco/platform';
import {
  billingModels,
  type BillingCaseDoc,
  buildClaim,
  claimKey,
  createGatewayClient,
  startGatewayStandin,
} from '@onco/billing';
import { importIcd10Fixture, qualifiedCase } from '@onco/billing/testing';
import { buildSystem } from '@onco/server';
import { createUser, login } from '@onco/testing';
import { arg, runBench } from './bench-support';

const withCommandMonitoring = (url: string, on: boolean) =>
  on ? `${url}${url.includes('?') ? '&' : '?'}monitorCommands=true` : url;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const cases = Number(arg('cases', '10000'));
  const latency = Number(arg('latency', '0'));
  // --count-commands 1: count the store commands of the worker phase by collection and command (a profiling aid)
  const countCommands = arg('count-commands', '0') === '1';
  // how long to wait for the order timeline to project the burst before the bare loop starts (seconds)
  const timelineWaitMs = Number(arg('timeline-wait', '600')) * 1000;
  const code = (n: number) => (latency > 0 ? `SLOW-${n}` : `ACC-${n}`);
  const run = randomBytes(3).toString('hex');
  const dirs = [
    mkdtempSync(path.join(os.tmpdir(), 'bench-gw-')),
    mkdtempSync(path.join(os.tmpdir(), 'bench-gw-')),
  ];
  const gateway = await startGatewayStandin({ dir: dirs[0], slowMs: latency });
  const bareGateway = await startGatewayStandin({ dir: dirs[1], slowMs: latency });
  const config = loadConfig({
    ...process.env,
    MONGO_URL: withCommandMonitoring(
      mongoUrlWithDb(process.env.MONGO_URL ?? LOCAL_MONGO_URL, `oncotrf_bench_billing_submit_${run}`),
      countCommands,
    ),
    QUEUE_PREFIX: `bench_${run}`,
    TOPIC_PREFIX: `bench_${run}.`,
    WORKERS: 'true',
    SERVE_CONSOLE: 'false',
    DEMO_MODE: 'false',
    LOG_LEVEL: 'warn',
    BILLING_GATEWAY_URL: gateway.url,
    BILLING_GATEWAY_TIMEOUT_MS: String(Math.max(10_000, latency * 10)),
  });
  // the worker's claims in flight (BILLING_SUBMIT_CONCURRENCY, default 16); the bare loop uses as many
  const { BILLING_SUBMIT_CONCURRENCY } = config;
  const system = await buildSystem(config, { logger: pino({ level: 'warn' }) });
  await system.app.ready();
  try {
    await importIcd10Fixture(system.ctx.mongo);
    const models = billingModels(system.ctx.mongo);
    const admin = await createUser(system, 'ROLE_ADMINISTRATOR');
    const auth = (await login(system, admin.loginId)).authorization;

    // the qualified cases
    const rows = Array.from({ length: cases }, (_, n) =>
      qualifiedCase(run, n, { billingCode: code(n), caseQualifiedDate: new Date() }),
    );
    for (let i = 0; i < rows.length; i += 1000) await models.BillingCase.insertMany(rows.slice(i, i + 1000));
    const docs = await models.BillingCase.find({}, { _id: 1 }).lean<Pick<BillingCaseDoc, '_id'>[]>().exec();
    const ids = docs.map((d) => d._id);
    console.log(
      `[bench] ${ids.length} qualified cases; stand-in latency ${latency} ms; worker concurrency ${BILLING_SUBMIT_CONCURRENCY}`,
    );

    // worker: the burst through the API, then every case accepted
    const commands = new Map<string, number>();
    let counting = countCommands;
    if (countCommands)
      system.ctx.mongo.getClient().on('commandStarted', (e) => {
        if (!counting) return;
        const body = e.command as Record<string, unknown>;
        const target = typeof body[e.commandName] === 'string' ? String(body[e.commandName]) : '';
        const k = `${e.commandName} ${target}`;
        commands.set(k, (commands.get(k) ?? 0) + 1);
        // the statements of a bulk command (updates, inserts, deletes), counted apart
        for (const key of ['updates', 'documents', 'deletes'])
          if (Array.isArray(body[key]))
            commands.set(`${k} (${key})`, (commands.get(`${k} (${key})`) ?? 0) + body[key].length);
      });
    const t0 = performance.now();
    const calls = [];
    for (let i = 0; i < ids.length; i += 500)
      calls.push(
        system.app
          .inject({
            method: 'POST',
            url: '/bis/api/v1/billing/submit',
            headers: { authorization: auth },
            payload: ids.slice(i, i + 500),
          })
          .then((r) => {
            if (r.statusCode !== 200 || r.json().submitted !== Math.min(500, ids.length - i))
              throw new Error(`bulk submit failed: ${r.statusCode} ${r.body.slice(0, 300)}`);
          }),
      );
    await Promise.all(calls);
    const queuedMs = performance.now() - t0;
    let last = -1;
    let lastChange = performance.now();
    for (;;) {
      const done = await models.BillingCase.countDocuments({ caseStatus: 'ACCEPTED_BY_XIFIN' }).exec();
      if (done === ids.length) break;
      if (done !== last) {
        last = done;
        lastChange = performance.now();
        if (done % 1000 < 20) console.log(`[bench] worker: ${done}/${ids.length} accepted`);
      } else if (performance.now() - lastChange > 120_000) throw new Error(`stuck at ${done} accepted`);
      await sleep(100);
    }
    const workerMs = performance.now() - t0;
    counting = false;
    process.stdout.write('\n');
    if (countCommands)
      for (const [k, n] of [...commands].sort((a, b) => b[1] - a[1]))
        console.log(
          `[bench] store commands in the worker phase: ${k}: ${n} (${(n / ids.length).toFixed(2)} a claim)`,
        );
    const held = gateway.claims().length;
    if (held !== ids.length) throw new Error(`the stand-in holds ${held} claims for ${ids.length} cases`);
    const workerRate = (ids.length / workerMs) * 1000;
    console.log(
      `[bench] worker: ${ids.length} claims in ${(workerMs / 1000).toFixed(1)} s (all queued after ${(queuedMs / 1000).toFixed(1)} s): ${workerRate.toFixed(0)} claims/s`,
    );

    // the order timeline's projection of the burst's events (three a claim: queued, submitted, accepted): not part
    // of the worker's figure, but waited for, so that its backlog does not run during the bare loop
    const timeline = system.ctx.mongo.collection('order_timeline');
    for (const started = performance.now(); ; await sleep(200)) {
      const entries = await timeline.countDocuments({ family: 'billing-case' });
      if (entries >= 3 * ids.length) {
        console.log(
          `[bench] order timeline: ${entries} billing-case entries ${((performance.now() - t0 - workerMs) / 1000).toFixed(1)} s after the last answer`,
        );
        break;
      }
      if (performance.now() - started > timelineWaitMs) {
        console.log(
          `[bench] order timeline: only ${entries} billing-case entries ${((performance.now() - t0 - workerMs) / 1000).toFixed(1)} s after the last answer; the bare loop runs anyway`,
        );
        break;
      }
    }

    // bare: the same claims posted by a plain loop at the same concurrency
    const claims = (await models.BillingCase.find({}).lean<BillingCaseDoc[]>().exec()).map((d) =>
      buildClaim(d, 1),
    );
    // the worker's own HTTP client (keep-alive, one connection per slot), so both sides pay the same client
    const client = createGatewayClient(bareGateway.url, {
      timeoutMs: Math.max(10_000, latency * 10),
      sockets: BILLING_SUBMIT_CONCURRENCY,
    });
    let next = 0;
    const t1 = performance.now();
    await Promise.all(
      Array.from({ length: BILLING_SUBMIT_CONCURRENCY }, async () => {
        while (next < claims.length) {
          const c = claims[next++];
          const res = await client.post('/claims', JSON.stringify(c), {
            'content-type': 'application/json',
            'idempotency-key': claimKey(c.billingCaseId, 1),
          });
          if (res.status !== 200) throw new Error(`bare post failed: ${res.status}`);
        }
      }),
    );
    client.close();
    const bareMs = performance.now() - t1;
    const bareRate = (claims.length / bareMs) * 1000;
    console.log(
      `[bench] bare loop of HTTP posts: ${claims.length} claims in ${(bareMs / 1000).toFixed(1)} s: ${bareRate.toFixed(0)} claims/s`,
    );
    console.log(`[bench] ratio worker/bare: ${(workerRate / bareRate).toFixed(2)}x (target >= 0.8x)`);
  } finally {
    await system.ctx.mongo.dropDatabase().catch(() => undefined);
    await system.close();
    await gateway.close();
    await bareGateway.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

runBench(main);
