/**
 * Benchmark: TRF PDFs.
 *  1. submit-to-TRF-available: a signed requisition is submitted (createPdf=true) through the HTTP API, then
 *     Print (GET /testOrderForms/{id}/trf) is polled until the PDF is there. The whole path: outbox relay ->
 *     Kafka -> consumer -> BullMQ job -> chromium -> file store -> attachment. Prints p50/p95.
 *  2. TRF PDFs per minute: a burst of submissions through the same path (end to end, sequential submits
 *     included), then the worker alone: `burst` submitted requisitions whose TRF jobs are added at once, timed
 *     from the adds to the last job's completion (BullMQ finishedOn; a completed job's TRF is stored and listed,
 *     and Print is then checked for each). Against a bare puppeteer `page.pdf` of the same HTML with as many
 *     pages at once as the worker's renderer (TRF_RENDER_PAGES): a new page per PDF (the target's baseline: the
 *     worker at least 0.8x), and pages reused (the strongest baseline).
 *
 *   npm run bench:trf -- [--latency 10] [--burst 20]
 *
 * Uses its own database (oncotrf_bench_trf_<run>) and topic/queue prefixes; needs `npm run infra:up`. Not a
 * test.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { Queue } from 'bullmq';
import pino from 'pino';
import puppeteer from 'puppeteer-core';
import { LOCAL_MONGO_URL, loadConfig, mongoUrlWithDb } from '@onco/platform';
import {
  CHROMIUM_ARGS,
  trfFormHtml,
  submissionKeyOf,
  TRF_CONCURRENCY,
  TRF_QUEUE,
  TRF_RENDER_PAGES,
  trfJobId,
} from '@onco/requisitions';
import { completeForm } from '@onco/requisitions/testing';
import { buildSystem } from '@onco/server';
import { createUser, login, TEST_PASSWORD } from '@onco/testing';
import { arg } from './bench-support';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

async function main() {
  const latencyRuns = Number(arg('latency', '10'));
  const burst = Number(arg('burst', '20'));
  const run = randomBytes(3).toString('hex');
  const base = process.env.MONGO_URL ?? LOCAL_MONGO_URL;
  const config = loadConfig({
    ...process.env,
    MONGO_URL: mongoUrlWithDb(base, `oncotrf_bench_trf_${run}`),
    QUEUE_PREFIX: `bench_${run}`,
    TOPIC_PREFIX: `bench_${run}.`,
    FILE_STORE_DIR: `.data/bench-files-${run}`,
    WORKERS: 'true',
    SERVE_CONSOLE: 'false',
    DEMO_MODE: 'false',
  });
  const system = await buildSystem(config, { logger: pino({ level: 'warn' }) });
  await system.app.ready();
  const app = system.app;
  try {
    const u = await createUser(system, 'ROLE_NPI', {
      account: { id: 'acc-bench', name: 'Bench Oncology' },
      physicianId: 'phy-bench',
    });
    const auth = { authorization: (await login(system, u.loginId)).authorization };
    const API = '/portal/api/v1/testOrderForms';
    const form = completeForm({ accountId: 'acc-bench', physicianId: 'phy-bench' });

    async function submitOne(createPdf = true): Promise<string> {
      const d = (await app.inject({ method: 'POST', url: API, headers: auth, payload: form })).json();
      await app.inject({
        method: 'POST',
        url: `${API}/${d.id}/sign`,
        headers: auth,
        payload: { password: TEST_PASSWORD },
      });
      const res = await app.inject({
        method: 'POST',
        url: `${API}/submit?createPdf=${createPdf}`,
        headers: auth,
        payload: { id: d.id },
      });
      if (res.statusCode !== 200) throw new Error(`submit failed: ${res.statusCode} ${res.body}`);
      return d.id;
    }
    async function untilTrf(id: string, timeoutMs = 180_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const r = await app.inject({ method: 'GET', url: `${API}/${id}/trf`, headers: auth });
        if (r.statusCode === 200) return;
        if (Date.now() > deadline) throw new Error(`no TRF for ${id} after ${timeoutMs} ms`);
        await sleep(50);
      }
    }
    /**
     * Until Print answers for every id: one client sweeping the pending ids, one request at a time (a finished
     * sweep waits 100 ms). Twenty clients polling every 50 ms each, as before, were themselves a load on
     * the store that the bare puppeteer run does not carry (hundreds of Print requests a second competing with the
     * worker's reads and writes).
     */
    async function untilAllTrf(list: string[], timeoutMs: number) {
      const deadline = Date.now() + timeoutMs;
      const pending = new Set(list);
      while (pending.size) {
        for (const id of [...pending]) {
          const r = await app.inject({ method: 'GET', url: `${API}/${id}/trf`, headers: auth });
          if (r.statusCode === 200) pending.delete(id);
        }
        if (!pending.size) return;
        if (Date.now() > deadline) throw new Error(`no TRF for ${[...pending]} after ${timeoutMs} ms`);
        await sleep(100);
      }
    }

    // warm-up: consumers joined, chromium launched
    console.log('[bench:trf] warming up (consumers joining, chromium starting)...');
    await untilTrf(await submitOne(), 240_000);

    const latencies: number[] = [];
    for (let i = 0; i < latencyRuns; i++) {
      const id = await submitOne();
      const t = performance.now();
      await untilTrf(id);
      latencies.push(performance.now() - t);
      process.stdout.write(`\r[bench:trf] submit-to-TRF ${i + 1}/${latencyRuns}`);
    }
    console.log(
      `\n[bench:trf] submit-to-TRF-available: p50 ${pct(latencies, 50).toFixed(0)} ms, p95 ${pct(latencies, 95).toFixed(0)} ms (${latencyRuns} sequential submissions)`,
    );

    // burst through the whole pipeline (submit -> relay -> Kafka -> consumer -> worker)
    const t0 = performance.now();
    const pipelineIds = [];
    for (let i = 0; i < burst; i++) pipelineIds.push(await submitOne());
    await untilAllTrf(pipelineIds, 600_000);
    const pipelineRate = (burst / (performance.now() - t0)) * 60_000;

    // the worker alone: submitted requisitions (no PDF asked), then their TRF jobs added at once
    const ids: string[] = [];
    for (let i = 0; i < burst; i++) ids.push(await submitOne(false));
    const queueConnection = system.ctx.redis.duplicate();
    const queue = new Queue(TRF_QUEUE, {
      connection: queueConnection,
      prefix: config.QUEUE_PREFIX,
    });
    const docs = await system.ctx.mongo
      .collection('test_order_forms')
      .find({ _id: { $in: ids as never[] } })
      .toArray();
    // let the submissions' own aftermath (outbox relay, lab and messages consumers, projections) finish first:
    // it is not the worker's work, and the bare run below has none of it
    for (let i = 0; i < 600; i++) {
      const outboxes = await system.ctx.mongo
        .collection('test_order_forms')
        .find({ _id: { $in: ids as never[] } }, { projection: { outbox: 1 } })
        .toArray();
      if (outboxes.every((d) => !d.outbox?.length)) break;
      await sleep(100);
    }
    await sleep(3000);
    const t2 = Date.now();
    await Promise.all(
      docs.map((d) => {
        const submittedOn = new Date(d.updatedOn).toISOString();
        const submissionKey = submissionKeyOf(submittedOn);
        return queue.add(
          'trf',
          { requisitionId: String(d._id), submissionKey, submittedOn, eventId: randomUUID() },
          {
            jobId: trfJobId(String(d._id), submissionKey),
            attempts: 5,
            backoff: { type: 'exponential', delay: 2000 },
          },
        );
      }),
    );
    // done when the last job completed (its finishedOn; BullMQ's state is polled in Redis, no load on the
    // database the worker uses). A completed job's TRF is stored and listed on its requisition, so Print serves
    // it: checked for each once the clock has stopped.
    const jobIds = docs.map((d) => trfJobId(String(d._id), submissionKeyOf(new Date(d.updatedOn))));
    for (const deadline = Date.now() + 600_000; ;) {
      const states = await Promise.all(jobIds.map((j) => queue.getJobState(j)));
      if (states.includes('failed')) throw new Error('a TRF job failed');
      if (states.every((st) => st === 'completed')) break;
      if (Date.now() > deadline) throw new Error('TRF jobs not done after 600 s');
      await sleep(100);
    }
    const finished = await Promise.all(jobIds.map(async (j) => (await queue.getJob(j))!.finishedOn ?? 0));
    const workerRate = (burst / (Math.max(...finished) - t2)) * 60_000;
    await untilAllTrf(ids, 60_000);
    // where a job's time goes: chromium's render vs the rest (reads, file store, attachment, requisition)
    const jobs = (await queue.getJobs(['completed'], 0, 10_000)).filter((j) =>
      ids.includes(j.data.requisitionId),
    );
    const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    const renderAvg = avg(jobs.map((j) => Number(j.returnvalue?.renderMs ?? 0)));
    const jobAvg = avg(jobs.map((j) => (j.finishedOn ?? 0) - (j.processedOn ?? 0)));
    const steps = ['readMs', 'pageWaitMs', 'renderMs', 'storeMs', 'insertMs', 'linkMs', 'linkLockMs']
      .map(
        (k) =>
          `${k.replace('Ms', '')} ${avg(jobs.map((j) => Number(j.returnvalue?.timings?.[k] ?? 0))).toFixed(0)}`,
      )
      .join(', ');
    await queue.close();
    // a Queue does not close a connection it was given: left open, it kept the script from exiting
    await queueConnection.quit().catch(() => undefined);

    // the same HTML with bare puppeteer, same concurrency as the worker
    const doc = await system.ctx.mongo.collection('test_order_forms').findOne({ _id: ids[0] as never });
    const html = trfFormHtml(doc as never, { submittedOn: new Date() });
    void pipelineIds;
    const browser = await puppeteer.launch({
      executablePath: config.CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS],
    });
    try {
      const warm = await browser.newPage();
      await warm.setContent(html);
      await warm.pdf({ format: 'letter', printBackground: true });
      await warm.close();
      let next = 0;
      const t1 = performance.now();
      await Promise.all(
        Array.from({ length: TRF_RENDER_PAGES }, async () => {
          while (next < burst) {
            next++;
            const page = await browser.newPage();
            await page.setContent(html, { waitUntil: 'load' });
            await page.pdf({ format: 'letter', printBackground: true });
            await page.close();
          }
        }),
      );
      const bareRate = (burst / (performance.now() - t1)) * 60_000;
      // the strongest bare baseline: each of the pages opened once and reused for every PDF (as the worker does)
      next = 0;
      const t3 = performance.now();
      await Promise.all(
        Array.from({ length: TRF_RENDER_PAGES }, async () => {
          const page = await browser.newPage();
          while (next < burst) {
            next++;
            await page.setContent(html, { waitUntil: 'load' });
            await page.pdf({ format: 'letter', printBackground: true });
          }
          await page.close();
        }),
      );
      const bareReusedRate = (burst / (performance.now() - t3)) * 60_000;
      console.log(
        `[bench:trf] ${burst} TRFs, end to end (sequential submits included): ${pipelineRate.toFixed(1)} PDFs/min`,
      );
      console.log(
        `[bench:trf] ${burst} TRF jobs, the worker (render, store, attach; ${TRF_CONCURRENCY} jobs at once, ${TRF_RENDER_PAGES} pages): ${workerRate.toFixed(1)} PDFs/min`,
      );
      console.log(
        `[bench:trf] bare puppeteer page.pdf, concurrency ${TRF_RENDER_PAGES}: ${bareRate.toFixed(1)} PDFs/min`,
      );
      console.log(
        `[bench:trf] bare puppeteer page.pdf, concurrency ${TRF_RENDER_PAGES}, pages reused: ${bareReusedRate.toFixed(1)} PDFs/min`,
      );
      console.log(
        `[bench:trf] ratio worker/bare: ${(workerRate / bareRate).toFixed(2)}x (target: at least 0.8x); worker/bare with pages reused: ${(workerRate / bareReusedRate).toFixed(2)}x`,
      );
      console.log(
        `[bench:trf] per job: ${jobAvg.toFixed(0)} ms, of which the render ${renderAvg.toFixed(0)} ms (${jobs.length} jobs; ms per step: ${steps})`,
      );
    } finally {
      await browser.close();
    }
  } finally {
    await system.ctx.mongo.dropDatabase().catch(() => undefined);
    await system.close();
    await rm(config.FILE_STORE_DIR, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
