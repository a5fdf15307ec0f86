/**
 * `npm run fuzz`: schemathesis (pinned, installed into .data/tools/fuzz-venv once) fuzzes every operation of the
 * OpenAPI document (/docs/json) against a server this script starts (its own database, topic and queue prefixes,
 * workers on, DEMO_MODE=false, a billing gateway stand-in of its own), once per role, as that role's own fuzz user.
 *
 *   npm run fuzz                      # the full run (every role, the report written to docs/fuzz.md)
 *   npm run fuzz -- --short           # about 2 minutes (.ci/run): fewer examples, the report under .data/fuzz
 *   npm run fuzz -- --roles npi,observer --max-examples 5 --seed 7
 *
 * Before each role's run it seeds that role's own records (scripts/fuzz-seed.ts; the short run seeds one set for
 * all roles) and hands their ids to the fuzzer (a generated schemathesis.toml: path and query parameters per operation), so operations reach their
 * logic. Checks: no 5xx (not_a_server_error), responses match the document (response_schema_conformance), and a
 * refused write changes nothing (scripts/fuzz-refusals.ts, per request, plus the seeded records' versions before
 * and after each role's run). The session is kept alive: a signature's password is always the fuzz user's own
 * (a wrong one counts toward the lockout), and what ends the caller's session (the own-password change, the
 * sign-out) is fuzzed apart, each by a throwaway user.
 * Exits 1 on any failure. Needs `npm run infra:up` and python3 (with venv and pip).
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { ROLES, type Role } from '@onco/domain';
import { LOCAL_MONGO_URL, loadConfig, mongoUrlWithDb } from '@onco/platform';
import { startGatewayStandin } from '@onco/billing';
import { buildSystem, type System } from '@onco/server';
import { createUser, login, settle, TEST_PASSWORD } from '@onco/testing';
import { seedBase, seedBundle, type FuzzBase, type FuzzBundle } from './fuzz-seed';
import { removePrefixed } from './prefix-cleanup';
import { watchRefusals } from './fuzz-refusals';
import { parseRun, type RunResult } from './fuzz-run';
import { APART, operationParameters, schemathesisConfig } from './fuzz-config';
import { failuresOf, renderReport, summaryLine, type RoleResult } from './fuzz-report';

const SCHEMATHESIS_VERSION = '4.32.5';
const TOOLS = path.resolve('.data/tools');
const VENV = path.join(TOOLS, 'fuzz-venv');
const ST = path.join(VENV, 'bin', 'st');
const REQUIREMENTS = path.resolve('scripts/fuzz-requirements.txt');
const OUT = path.resolve('.data/fuzz');
// the report's date: the day it ran
const REPORT_DATE = new Date().toISOString().slice(0, 10);
/** docs/fuzz.md's hand-written part (what the runs found and how it was fixed), kept when the report is rewritten */
const FINDINGS = '## Findings and their fixes';

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const opt = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const SHORT = flag('short');
const MAX_EXAMPLES = Number(opt('max-examples') ?? (SHORT ? 1 : 12));
const SEED = Number(opt('seed') ?? (SHORT ? 1 : Math.floor(Math.random() * 1e9)));
const ROLES_RUN = opt('roles')
  ? opt('roles')!
      .split(',')
      .map((r) => `ROLE_${r.trim().toUpperCase().replace(/\./g, '_')}` as Role)
  : [...ROLES];
/**
 * The coverage phase (every parameter's boundaries and wrong types, missing parameters, methods a path lacks;
 * ~80 cases an operation whatever --max-examples says): in the full run, for the roles that reach the most
 * operations (`--coverage-roles`, default the portal admin and the administrator); every role gets the fuzzing
 * phase.
 */
const COVERAGE_ROLES = SHORT
  ? []
  : (opt('coverage-roles') ?? 'portal_admin,administrator')
      .split(',')
      .filter(Boolean)
      .map((r) => `ROLE_${r.trim().toUpperCase().replace(/\./g, '_')}`);
const WORKERS = Number(opt('workers') ?? 4);

const log = (s: string) => console.log(`[fuzz] ${s}`);

// SIGINT or SIGTERM: the schemathesis run in progress is stopped, and main's cleanup (the server, its database,
// topics and queue keys, the gateway stand-in) runs before the exit
let current: ReturnType<typeof spawn> | null = null;
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    log(`${signal}: stopping`);
    interrupted = true;
    current?.kill('SIGTERM');
  });

/** schemathesis at the pinned version in its own venv (made once, reused); its dependencies pinned too. */
function ensureSchemathesis(): void {
  const have = existsSync(ST)
    ? execFileSync(ST, ['--version'], { encoding: 'utf8' }).trim().split(/\s+/).pop()
    : null;
  if (have === SCHEMATHESIS_VERSION) return;
  const t = Date.now();
  log(`installing schemathesis ${SCHEMATHESIS_VERSION} into ${path.relative(process.cwd(), VENV)}...`);
  mkdirSync(TOOLS, { recursive: true });
  rmSync(VENV, { recursive: true, force: true });
  execFileSync('python3', ['-m', 'venv', VENV], { stdio: 'inherit' });
  execFileSync(
    path.join(VENV, 'bin', 'pip'),
    ['install', '--quiet', '--disable-pip-version-check', '-r', REQUIREMENTS],
    { stdio: 'inherit' },
  );
  log(`schemathesis installed in ${((Date.now() - t) / 1000).toFixed(0)} s`);
}

// ---- one schemathesis run ----

function runSchemathesis(
  name: string,
  schemaFile: string,
  configText: string,
  password: string,
): Promise<RunResult> {
  const dir = path.join(OUT, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const configFile = path.join(dir, 'schemathesis.toml');
  writeFileSync(configFile, configText);
  const t = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(
      ST,
      [
        '--config-file',
        configFile,
        'run',
        schemaFile,
        '--report',
        'ndjson',
        '--report-ndjson-path',
        path.join(dir, 'events.ndjson'),
        '--no-color',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FUZZ_PASSWORD: password } },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    current = child;
    child.on('error', reject);
    child.on('close', (code) => {
      current = null;
      if (interrupted) return reject(new Error('interrupted'));
      writeFileSync(path.join(dir, 'output.txt'), out);
      parseRun(path.join(dir, 'events.ndjson'))
        .then((r) => resolve({ ...r, name, seconds: (Date.now() - t) / 1000, exitCode: code ?? 1 }))
        .catch((err) =>
          reject(
            new Error(
              `${name}: schemathesis exited ${code}, its events unreadable (${String(err)}):\n${out.slice(-3000)}`,
            ),
          ),
        );
    });
  });
}

// ---- the seeded records' versions, before and after a role's run ----

type Versions = Map<string, string>;

async function versionsOf(sys: System, b: FuzzBundle, base: FuzzBase): Promise<Versions> {
  const db = sys.ctx.mongo.db!;
  const want: Array<[string, string | null]> = [
    ['requisitions', b.draft],
    ['requisitions', b.submitted],
    ['testorders', b.testOrder],
    ['samples', b.sample],
    ['billingcases', b.billingCase],
    ['messages', b.message],
    ['attachments', b.attachment],
    ['users', b.targetUser.id],
    ['patients', base.patients[0]],
    ['accounts', base.accounts[0]],
  ];
  const out: Versions = new Map();
  for (const [coll, id] of want) {
    if (!id) continue;
    const d = await db.collection(coll).findOne({ _id: id as never }, { projection: { outbox: 0 } });
    out.set(`${coll}/${id}`, d ? String(d.version ?? d.__v ?? d.updatedOn ?? 'present') : 'missing');
  }
  return out;
}

// ---- the run ----

async function main() {
  const started = Date.now();
  ensureSchemathesis();
  mkdirSync(OUT, { recursive: true });
  const run = `fuzz_${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'oncotrf-fuzz-'));
  const gateway = await startGatewayStandin({ dir: path.join(tmp, 'gateway') });
  const mongoUrl = mongoUrlWithDb(process.env.MONGO_URL ?? LOCAL_MONGO_URL, `oncotrf_${run}`);
  const config = loadConfig({
    ...process.env,
    MONGO_URL: `${mongoUrl}${mongoUrl.includes('?') ? '&' : '?'}monitorCommands=true`,
    QUEUE_PREFIX: run,
    TOPIC_PREFIX: `${run}.`,
    KAFKA_CLIENT_ID: `oncotrf-${run}`,
    MAILBOX_DIR: path.join(tmp, 'mailbox'),
    FILE_STORE_DIR: path.join(tmp, 'files'),
    WORKERS: 'true',
    SERVE_CONSOLE: 'false',
    DEMO_MODE: 'false',
    LOG_LEVEL: 'warn',
    BILLING_GATEWAY_URL: gateway.url,
    // the fuzzer signs in and asks for resets far more often than a person: the limits would answer 429 only
    AUTH_RATE_LIMIT_PER_MINUTE: '0',
    PASSWORD_RESET_PER_EMAIL_PER_HOUR: '0',
    PORT: '0',
  });
  const serverLog = path.join(OUT, 'server.log');
  const logger = pino({ level: 'warn' }, pino.destination({ dest: serverLog, sync: true, append: false }));
  log(
    `server: database oncotrf_${run}, prefixes ${run}, workers on, log ${path.relative(process.cwd(), serverLog)}`,
  );
  const system = await buildSystem(config, { logger });
  const refusals = watchRefusals(system.app, system.ctx.mongo);
  await system.app.listen({ port: 0, host: '127.0.0.1' });
  const address = system.app.server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  // the document, read once (schemathesis loads it from the file each run, with base-url for the calls)
  const schemaFile = path.join(OUT, 'openapi.json');
  writeFileSync(schemaFile, await (await fetch(`${baseUrl}/docs/json`)).text());
  const results: RoleResult[] = [];
  // the shared services going down under the run (another process stopping them) makes its 5xx and 401s
  // meaningless: /ready is watched throughout, and an outage is reported as such and fails the run
  const outages: string[] = [];
  let running = 'seeding';
  let notReady = 0; // polls in a row: one slow answer of a busy broker is not an outage
  const watch = setInterval(() => {
    fetch(`${baseUrl}/ready`)
      .then(async (res) => {
        notReady = res.status === 200 ? 0 : notReady + 1;
        if (notReady >= 2 && outages.length < 20)
          outages.push(`${new Date().toISOString()} during ${running}: ${await res.text()}`);
      })
      .catch(() => undefined);
  }, 2_000);
  try {
    const base = await seedBase(system);
    log(
      `seeded: ${ROLES_RUN.length} fuzz users, 2 accounts, ${base.patients.length} patients (${((Date.now() - started) / 1000).toFixed(0)} s)`,
    );
    // the short run shares one bundle (what a role's writes used up answers 404 to the next roles)
    let shared: FuzzBundle | undefined;
    for (const role of ROLES_RUN) {
      if (interrupted) throw new Error('interrupted');
      const name = role.replace(/^ROLE_/, '').toLowerCase();
      running = role;
      const bundle = (SHORT && shared) || (await seedBundle(system, base, name));
      if (SHORT) shared = bundle;
      await settle({ ...system, config }, { timeoutMs: 20_000 });
      const token = (await login(system, base.users[role].loginId)).body.token as string;
      const before = await versionsOf(system, bundle, base);
      const seen = refusals.findings.length;
      const r = await runSchemathesis(
        name,
        schemaFile,
        schemathesisConfig({
          workers: WORKERS,
          baseUrl,
          token,
          maxExamples: MAX_EXAMPLES,
          seed: SEED,
          operations: operationParameters(base, bundle),
          exclude: APART.map(([op]) => op),
          coverage: COVERAGE_ROLES.includes(role),
        }),
        TEST_PASSWORD,
      );
      await settle({ ...system, config }, { timeoutMs: 20_000 });
      const after = await versionsOf(system, bundle, base);
      const changed = [...before]
        .filter(([k, v]) => after.get(k) !== v)
        .map(([k, v]) => `${k} ${v} → ${after.get(k)}`);
      const result = { ...r, role, versionsChanged: changed, refusals: refusals.findings.slice(seen) };
      results.push(result);
      log(summaryLine(result));
    }
    // what ends its own session (a changed password, a sign-out), apart: each by a throwaway user of its own
    for (const [i, [operation, what]] of APART.entries()) {
      const throwaway = await createUser(system, 'ROLE_NPI', { loginId: `fuzz.throwaway.${i}` });
      const seen = refusals.findings.length;
      const r = await runSchemathesis(
        `throwaway-${i}`,
        schemaFile,
        schemathesisConfig({
          workers: WORKERS,
          baseUrl,
          token: (await login(system, throwaway.loginId)).body.token as string,
          maxExamples: MAX_EXAMPLES,
          seed: SEED,
          operations: operation.includes('{id}') ? [[operation, { 'path.id': throwaway._id }]] : [],
          include: [operation],
          coverage: !SHORT,
        }),
        TEST_PASSWORD,
      );
      // its session may end with the first accepted call: not a failure here
      const result = {
        ...r,
        role: `throwaway (${what})`,
        versionsChanged: [],
        refusals: refusals.findings.slice(seen),
      };
      result.sessionLost = 0;
      results.push(result);
      log(summaryLine(result));
    }
  } finally {
    clearInterval(watch);
    await system.ctx.mongo.dropDatabase().catch(() => undefined);
    await system.close();
    await gateway.close();
    await removePrefixed(run, config.KAFKA_BROKERS, config.REDIS_URL).catch((err) =>
      log(`leftovers not removed: ${String(err)}`),
    );
    rmSync(tmp, { recursive: true, force: true });
  }
  const seconds = (Date.now() - started) / 1000;
  const report =
    renderReport(results, seconds, refusals.writesChecked, {
      date: REPORT_DATE,
      short: SHORT,
      version: SCHEMATHESIS_VERSION,
      seed: SEED,
      maxExamples: MAX_EXAMPLES,
      coverageRoles: COVERAGE_ROLES,
    }) +
    (outages.length
      ? `\n**The shared services were down during the run** (its failures are not the fuzzer's findings; run it again):\n\n${outages.map((o) => `- ${o}`).join('\n')}\n`
      : '');
  console.log(report);
  const file =
    SHORT || opt('roles') || opt('max-examples') ? path.join(OUT, 'report.md') : path.resolve('docs/fuzz.md');
  // the hand-written findings of docs/fuzz.md (from its heading on) are kept under each new report
  const kept = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const at = kept.indexOf(FINDINGS);
  writeFileSync(file, at >= 0 ? `${report}\n${kept.slice(at)}` : report);
  if (outages.length) {
    log(`the shared services were down during the run (not findings of the fuzzer; run it again):`);
    for (const o of outages) log(`  ${o}`);
  }
  const failures = results.reduce((n, r) => n + failuresOf(r), 0) + outages.length;
  log(
    `${failures ? `${failures} FAILURES` : 'no failures'}; report written to ${path.relative(process.cwd(), file)}; ${seconds.toFixed(0)} s`,
  );
  process.exit(failures ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
