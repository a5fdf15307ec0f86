/**
 * Benchmark: what the audit trail adds (docs/audit.md "The figure"; issue 28: under 10% on the orders list and
 * submit p95). One system (no workers), one provider with `--orders` submitted requisitions; in rounds that
 * alternate, the same calls with the audit trail on and off:
 *  - the orders list (GET testOrderForms, 15 a page): a list read, one entry naming the page's patients inserted
 *    and awaited before the reply (group commit);
 *  - a requisition's detail (GET testOrderForms/{id}): one entry inserted and awaited before the reply;
 *  - submit (POST testOrderForms/submit of a signed draft): the transaction with the entry.
 * "Off" replaces the trail's writes with the plain writes they wrap (the update and the create without their
 * transaction and entry) and records nothing; the hooks still run. Each figure is the median of the rounds' p95,
 * and the median of each round's own on against off (the figure to read: the rounds drift as submits add orders).
 *
 *   npm run bench:audit -- [--orders 200] [--requests 300] [--submits 60] [--concurrency 4] [--rounds 3]
 *
 * Uses its own database (oncotrf_bench_audit_<run>); needs `npm run infra:up`. Not a test.
 */
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { AuditTrail, LOCAL_MONGO_URL, loadConfig, mongoUrlWithDb } from '@onco/platform';
import { completeForm } from '@onco/requisitions/testing';
import { buildSystem, type System } from '@onco/server';
import { createUser, login, TEST_PASSWORD } from '@onco/testing';
import { arg, fmt, run, runBench, type RunFigures } from './bench-support';

const API = '/portal/api/v1/testOrderForms';

/** The trail's writes as they are, and as the plain writes they wrap (the audit off). */
const on = {
  update: AuditTrail.prototype.update,
  create: AuditTrail.prototype.create,
  record: AuditTrail.prototype.record,
};
function audit(enabled: boolean) {
  if (enabled) {
    Object.assign(AuditTrail.prototype, on);
    return;
  }
  AuditTrail.prototype.update = async function (model, filter, update) {
    return model.findOneAndUpdate(filter, update, { returnDocument: 'after' }).lean().exec();
  };
  AuditTrail.prototype.create = async function (model, doc) {
    return (await model.create(doc)).toObject();
  };
  AuditTrail.prototype.record = async () => '';
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const orders = Number(arg('orders', '200'));
  const requests = Number(arg('requests', '300'));
  const submits = Number(arg('submits', '60'));
  const concurrency = Number(arg('concurrency', '4'));
  const rounds = Number(arg('rounds', '3'));
  const runId = randomBytes(3).toString('hex');
  const config = loadConfig({
    ...process.env,
    MONGO_URL: mongoUrlWithDb(process.env.MONGO_URL ?? LOCAL_MONGO_URL, `oncotrf_bench_audit_${runId}`),
    QUEUE_PREFIX: `bench_${runId}`,
    TOPIC_PREFIX: `bench_${runId}.`,
    WORKERS: 'false',
    SERVE_CONSOLE: 'false',
    DEMO_MODE: 'false',
  });
  const system: System = await buildSystem(config, { logger: pino({ level: 'warn' }) });
  await system.app.ready();
  const app = system.app;
  try {
    const u = await createUser(system, 'ROLE_NPI', {
      account: { id: 'acc-bench', name: 'Bench Oncology' },
      physicianId: 'phy-bench',
    });
    const headers = { authorization: (await login(system, u.loginId)).authorization };
    const form = completeForm({ accountId: 'acc-bench', physicianId: 'phy-bench' });
    const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
      const res = await app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
      if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json();
    };
    const signedDraft = async () => {
      const d = await call('POST', API, form);
      await call('POST', `${API}/${d.id}/sign`, { password: TEST_PASSWORD });
      return d.id as string;
    };

    console.log(
      `[bench:audit] ${orders} submitted orders, concurrency ${concurrency}, ${rounds} rounds on/off`,
    );
    const ids: string[] = [];
    for (let i = 0; i < orders; i++) {
      const id = await signedDraft();
      await call('POST', `${API}/submit`, { id });
      ids.push(id);
    }
    const figures: Record<string, Record<'on' | 'off', RunFigures[]>> = {
      'orders list': { on: [], off: [] },
      'requisition detail': { on: [], off: [] },
      submit: { on: [], off: [] },
    };
    for (let r = 0; r < rounds; r++) {
      for (const mode of r % 2 ? (['off', 'on'] as const) : (['on', 'off'] as const)) {
        audit(mode === 'on');
        let n = 0;
        figures['orders list'][mode].push(
          await run(requests, concurrency, () =>
            call('GET', `${API}?page=${n++ % 5}&size=15`).then(() => undefined),
          ),
        );
        figures['requisition detail'][mode].push(
          await run(requests, concurrency, () =>
            call('GET', `${API}/${ids[n++ % ids.length]}`).then(() => undefined),
          ),
        );
        // the drafts are made first (not timed), then submitted `concurrency` at a time
        audit(true);
        const drafts: string[] = [];
        for (let i = 0; i < submits; i++) drafts.push(await signedDraft());
        audit(mode === 'on');
        figures.submit[mode].push(
          await run(submits, concurrency, () =>
            call('POST', `${API}/submit`, { id: drafts.pop()! }).then(() => undefined),
          ),
        );
        for (const [name, f] of Object.entries(figures))
          console.log(
            `[bench:audit] round ${r + 1} audit ${mode.padEnd(3)} ${name.padEnd(19)} ${fmt(f[mode].at(-1)!)}`,
          );
      }
    }
    audit(true);
    console.log('[bench:audit] medians of the rounds:');
    for (const [name, f] of Object.entries(figures)) {
      const p95on = median(f.on.map((x) => x.p95));
      const p95off = median(f.off.map((x) => x.p95));
      const p50on = median(f.on.map((x) => x.p50));
      const p50off = median(f.off.map((x) => x.p50));
      const diff = ((p95on - p95off) / p95off) * 100;
      console.log(
        `[bench:audit] ${name.padEnd(19)} p95 ${p95off.toFixed(1)} -> ${p95on.toFixed(1)} ms (${diff >= 0 ? '+' : ''}${diff.toFixed(1)}%), p50 ${p50off.toFixed(1)} -> ${p50on.toFixed(1)} ms`,
      );
    }
    // the figure to read: each round's on against its own off (the rounds drift as the submits add orders, and
    // the medians above may take on and off from different rounds)
    console.log('[bench:audit] within each round (on against off), the median of the rounds:');
    const pct = (on: number, off: number) => ((on - off) / off) * 100;
    const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(1)}%`;
    for (const [name, f] of Object.entries(figures)) {
      const p95 = f.on.map((x, i) => pct(x.p95, f.off[i].p95));
      const p50 = f.on.map((x, i) => pct(x.p50, f.off[i].p50));
      console.log(
        `[bench:audit] ${name.padEnd(19)} p95 ${signed(median(p95))}, p50 ${signed(median(p50))} (p95 by round: ${p95.map(signed).join(' ')})`,
      );
    }
  } finally {
    audit(true);
    await system.ctx.mongo.dropDatabase().catch(() => undefined);
    await system.close();
  }
}

runBench(main);
