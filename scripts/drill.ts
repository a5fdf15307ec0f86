/**
 * `npm run drill [-- --requisitions 1000 --providers 50 --think-ms 20000 --hold-ms 10000 --seed 1 --keep]`
 * (`--faults kafka,redis` only those faults, `--log-level info` the processes' log level): the
 * fault drill under load (docs/drill.md). On the running local services (`npm run infra:up`; the drill stops and starts them, so nothing
 * else may use them meanwhile):
 *
 * 1. its own database, topic and queue prefixes; the reference data, 50 providers and a staff user seeded;
 * 2. two server processes (every area, no workers) and one worker-only process, as docs/operations.md "Running one
 *    area alone" starts them, and the billing gateway stand-in;
 * 3. the load (drill-load.ts): providers submitting requisitions, lab status changes and report uploads, billing
 *    submits, spread over both servers;
 * 4. one fault at a time, in a seeded random order and at random points: Kafka, Redis and the store (PostgreSQL
 *    and its gateway) stopped and started, a server process and the worker process SIGKILLed and started again;
 * 5. the proofs and figures (drill-check.ts), printed and written to docs/drill.md.
 *
 * Exit code 0 when every proof holds.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { createConnection } from 'mongoose';
import { LOCAL_MONGO_URL, loadConfig, mongoUrlWithDb } from '@onco/platform';
import { startGatewayStandin } from '@onco/billing';
import { withPrefix } from '@onco/events';
import { buildSystem } from '@onco/server';
import { createUser, login, REPO_ROOT } from '@onco/testing';
import { seedBase, requisitionForm } from './fuzz-seed';
import { createRecorder, runLoad } from './drill-load';
import { checkDrill, type FaultRecord } from './drill-check';
import { renderDrillReport } from './drill-report';
import { arg } from './bench-support';
import { removePrefixed } from './prefix-cleanup';

const REQUISITIONS = Number(arg('requisitions', '1000'));
const PROVIDERS = Number(arg('providers', '50'));
const HOLD_MS = Number(arg('hold-ms', '10000'));
const SEED = Number(arg('seed', '1'));
const BASELINE_MS = Number(arg('baseline-ms', '30000'));
// a provider's pause between orders: 50 providers at 20 s submit ~2.5 orders a second, what the TRF worker renders
// on a 2-core machine (a faster load only grows the worker's queue, and every figure measures that queue)
const THINK_MS = Number(arg('think-ms', '20000'));
const OUT = path.resolve(REPO_ROOT, '.data/drill');
// `--faults kafka,redis`: only these faults (a partial run's report goes under .data/drill unless --report says)
const FAULTS = arg('faults', '')
  .split(',')
  .map((f) => f.trim())
  .filter(Boolean);
const REPORT = path.resolve(
  REPO_ROOT,
  arg('report', FAULTS.length ? '.data/drill/report.md' : 'docs/drill.md'),
);
// the processes' log level (`--log-level info` shows each component's outage and recovery)
const LOG_LEVEL = arg('log-level', 'warn');

const log = (s: string) => console.log(`[drill] ${new Date().toISOString().slice(11, 19)} ${s}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A seeded random number in [0, 1) (mulberry32): the same seed, the same fault order and points. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

function infra(cmd: 'stop' | 'start', services: string[]) {
  const r = spawnSync('bash', [path.join(REPO_ROOT, 'scripts/infra.sh'), cmd, ...services], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  if (r.status !== 0)
    throw new Error(`infra.sh ${cmd} ${services.join(' ')} failed: ${r.stderr || r.stdout}`);
}

/** every process the drill started (killed when it fails) */
const started: Proc[] = [];

interface Proc {
  name: string;
  port: number;
  env: Record<string, string>;
  child: ChildProcess | null;
}

async function startProc(p: Proc): Promise<void> {
  const out = createWriteStream(path.join(OUT, `${p.name}.log`), { flags: 'a' });
  await new Promise((r) => out.once('open', r));
  if (!started.includes(p)) started.push(p);
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/server/src/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...p.env, PORT: String(p.port) },
    stdio: ['ignore', out, out],
  });
  p.child = child;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`${p.name} exited (${child.exitCode}); see .data/drill/${p.name}.log`);
    const ok = await fetch(`http://127.0.0.1:${p.port}/ready`, { signal: AbortSignal.timeout(2_000) })
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${p.name} not ready within 120 s`);
    await sleep(250);
  }
}

async function stopProc(p: Proc, signal: NodeJS.Signals): Promise<void> {
  const child = p.child;
  p.child = null;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill(signal);
  await Promise.race([exited, sleep(20_000)]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

async function main() {
  const began = Date.now();
  mkdirSync(OUT, { recursive: true });
  const run = `drill_${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'oncotrf-drill-'));
  const gateway = await startGatewayStandin({ dir: path.join(tmp, 'gateway') });
  const mongoUrl = mongoUrlWithDb(process.env.MONGO_URL ?? LOCAL_MONGO_URL, `oncotrf_${run}`);
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    TOKEN_SECRET: randomBytes(32).toString('hex'),
    MONGO_URL: mongoUrl,
    QUEUE_PREFIX: run,
    TOPIC_PREFIX: `${run}.`,
    MAILBOX_DIR: path.join(tmp, 'mailbox'),
    FILE_STORE_DIR: path.join(tmp, 'files'),
    SERVE_CONSOLE: 'false',
    DEMO_MODE: 'false',
    LOG_LEVEL,
    BILLING_GATEWAY_URL: gateway.url,
    BILLING_SUBMIT_BACKOFF_MS: '1000',
    // fifty providers signing in from one address: the limits would answer 429 only
    AUTH_RATE_LIMIT_PER_MINUTE: '0',
    PASSWORD_RESET_PER_EMAIL_PER_HOUR: '0',
  };
  const config = loadConfig({ ...process.env, ...env, WORKERS: 'false', PORT: '0' });
  log(`database oncotrf_${run}, prefixes ${run}; logs in .data/drill/`);

  // 1. seed (no workers), then sign everyone in
  const seeder = await buildSystem(config, {
    logger: pino({ level: 'warn' }, pino.destination(path.join(OUT, 'seed.log'))),
  });
  const base = await seedBase(seeder);
  const form = await requisitionForm(seeder, base);
  const providers: string[] = [];
  for (let i = 0; i < PROVIDERS; i++) {
    const u = await createUser(seeder, 'ROLE_NPI', {
      loginId: `drill.provider.${i}`,
      account: { id: base.accounts[0], name: 'drill account' },
      physicianId: base.physicians[0],
    });
    providers.push((await login(seeder, u.loginId)).authorization);
  }
  const staff = base.seeder.admin.authorization;
  await seeder.close();
  log(`seeded: ${PROVIDERS} providers, a staff user (${((Date.now() - began) / 1000).toFixed(0)} s)`);

  // 2. the processes
  const procs: Proc[] = [];
  for (const name of ['server-a', 'server-b'])
    procs.push({ name, port: await freePort(), env: { ...env, WORKERS: 'false' }, child: null });
  const worker: Proc = {
    name: 'worker',
    port: await freePort(),
    env: { ...env, SERVICES: 'none', WORKERS: 'true' },
    child: null,
  };
  procs.push(worker);
  await Promise.all(procs.map(startProc));
  log('two servers and a worker ready');
  const servers = () => procs.filter((p) => p !== worker).map((p) => `http://127.0.0.1:${p.port}`);

  // 3 and 4. the load, and the faults one at a time
  const rec = createRecorder();
  const rnd = random(SEED);
  const all: FaultRecord['kind'][] = ['kafka', 'redis', 'store', 'kill-server', 'kill-worker'];
  const unknown = FAULTS.filter((f) => !all.includes(f as FaultRecord['kind']));
  if (unknown.length) throw new Error(`--faults: unknown ${unknown.join(', ')} (known: ${all.join(', ')})`);
  const kinds = FAULTS.length ? all.filter((k) => FAULTS.includes(k)) : all;
  for (let i = kinds.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [kinds[i], kinds[j]] = [kinds[j], kinds[i]];
  }
  const faults: FaultRecord[] = [];
  const watch = await createConnection(config.MONGO_URL).asPromise();
  const consumedGroup = withPrefix('lab.requisition-submitted', config.TOPIC_PREFIX);
  /** wait (at most 2 minutes) until these requisitions' events are consumed and their TRFs made; ms waited */
  const workedOff = async (ids: string[]) => {
    const t = Date.now();
    while (Date.now() - t < 120_000) {
      const done = await Promise.all([
        watch
          .db!.collection('processed_events')
          .countDocuments({ groupId: consumedGroup, subject: { $in: ids } }),
        watch.db!.collection('attachments').distinct('testOrderForm.id', {
          type: 'TRF',
          deleted: { $ne: true },
          'testOrderForm.id': { $in: ids },
        }),
      ]).catch(() => null);
      if (done && done[0] >= ids.length && done[1].length >= ids.length) break;
      await sleep(250);
    }
    return Date.now() - t;
  };
  let faultsOver = false;
  const loadStarted = Date.now();
  const load = runLoad(rec, {
    servers,
    providers,
    staff,
    form,
    target: REQUISITIONS,
    thinkMs: THINK_MS,
    keepGoing: () => !faultsOver,
    log,
  });
  const faulting = (async () => {
    await sleep(BASELINE_MS);
    for (const kind of kinds) {
      await sleep(3_000 + rnd() * 7_000);
      const f: FaultRecord = { kind, start: Date.now(), back: 0 };
      log(`fault: ${kind}`);
      if (kind === 'kafka' || kind === 'redis') {
        infra('stop', [kind]);
        await sleep(HOLD_MS);
        infra('start', [kind]);
      } else if (kind === 'store') {
        infra('stop', ['documentdb', 'postgres']);
        await sleep(HOLD_MS);
        infra('start', ['postgres', 'documentdb']);
      } else {
        const victim = kind === 'kill-worker' ? worker : procs[Math.floor(rnd() * 2)];
        f.process = victim.name;
        await stopProc(victim, 'SIGKILL');
        await startProc(victim);
      }
      f.back = Date.now();
      faults.push(f);
      log(`fault: ${kind} over after ${((f.back - f.start) / 1000).toFixed(1)} s`);
      // the next fault once this one's backlog is worked off, so that no two recoveries overlap
      const waited = await workedOff(rec.submits.filter((x) => x.at <= f.back).map((x) => x.requisitionId));
      log(
        `fault: ${kind}: what was accepted before the return worked off ${(waited / 1000).toFixed(1)} s after it`,
      );
    }
    faultsOver = true;
  })();
  await faulting.catch((err) => {
    faultsOver = true;
    throw err;
  });
  await load;
  await watch.close();
  log(`load done: ${rec.submits.length} requisitions in ${((Date.now() - loadStarted) / 1000).toFixed(0)} s`);

  // 5. proofs and figures, once everything has settled
  const result = await checkDrill({ config, gateway, rec, faults, loadStarted, log });
  const report = renderDrillReport(result, {
    requisitions: REQUISITIONS,
    providers: PROVIDERS,
    holdMs: HOLD_MS,
    thinkMs: THINK_MS,
    seed: SEED,
    seconds: Math.round((Date.now() - began) / 1000),
  });
  console.log(report);
  writeFileSync(REPORT, report);
  log(`report written to ${path.relative(REPO_ROOT, REPORT)}`);

  for (const p of procs) await stopProc(p, 'SIGTERM');
  await gateway.close();
  await removePrefixed(run, config.KAFKA_BROKERS, config.REDIS_URL).catch(() => undefined);
  // the run's database too, unless asked to keep it (to look into a failed proof)
  if (!process.argv.includes('--keep')) {
    const conn = await createConnection(config.MONGO_URL).asPromise();
    await conn.dropDatabase().catch(() => undefined);
    await conn.close();
  }
  process.exitCode = result.ok ? 0 : 1;
}

main().catch((err) => {
  console.error(err);
  for (const p of started) p.child?.kill('SIGKILL');
  // whatever happened, the local services are started again
  try {
    infra('start', ['redis', 'postgres', 'documentdb', 'kafka']);
  } catch {
    // reported above
  }
  process.exit(1);
});
