/**
 * Clean shutdowns of the real process (issue 28 item 4):
 * - SIGTERM with Kafka and Redis stopped: the server exits on its own within SHUTDOWN_TIMEOUT_MS (before this, a
 *   kafkajs disconnect and BullMQ's close retried for ~30 s, an orchestrator's whole grace period), naming the
 *   steps it gave up on.
 * - `npm start` (scripts/start.sh) stops what it started when it is stopped: the server and the billing gateway
 *   stand-in (before, the stand-in was left running, orphaned).
 *
 * Stops and starts Kafka and Redis (scripts/infra.sh), so it runs alone (the `serial` project, with the exclusive
 * Kafka test lock); under `npm test` on the serial level's own Kafka and Redis.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_MONGO_URL, mongoUrlWithDb } from '@onco/platform';
import { infra, kafkaTestLock, REPO_ROOT, runSuffix, waitFor } from '@onco/testing';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A child whose output is kept (pino JSON lines and the scripts' own lines). */
function run(
  cmd: string,
  args: string[],
  env: Record<string, string>,
  base: NodeJS.ProcessEnv = process.env,
) {
  const child = spawn(cmd, args, { cwd: REPO_ROOT, env: { ...base, ...env }, stdio: 'pipe' });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, output: () => out };
}

describe('clean shutdowns of the real process (real Kafka, Redis, the store)', () => {
  const suffix = `${runSuffix()}shutdown`;
  const env = (port: number): Record<string, string> => ({
    NODE_ENV: 'development',
    PORT: String(port),
    MONGO_URL: mongoUrlWithDb(process.env.MONGO_URL ?? LOCAL_MONGO_URL, `oncotrf_test_${suffix}`),
    TOPIC_PREFIX: `test_${suffix}.`,
    QUEUE_PREFIX: `test_${suffix}`,
    DEMO_MODE: 'false',
    SERVE_CONSOLE: 'false',
    LOG_LEVEL: 'info',
    SHUTDOWN_TIMEOUT_MS: '6000',
  });
  let release: () => void = () => {};
  const stopped: string[] = [];
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    release = await kafkaTestLock('exclusive');
  }, 300_000);
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    if (stopped.length) await infra('start', ...stopped).catch((err) => console.error(err));
    release();
  }, 180_000);

  it('SIGTERM with Kafka and Redis stopped: exits on its own within SHUTDOWN_TIMEOUT_MS, naming what it gave up on', async () => {
    const port = await freePort();
    const server = run(join(REPO_ROOT, 'node_modules/.bin/tsx'), ['services/server/src/main.ts'], env(port));
    children.push(server.child);
    await waitFor(() => server.output().includes('oncotrf is up'), {
      what: 'the server up',
      timeoutMs: 120_000,
    });
    // the workers are running (consumers joined, queues open) when their dependencies go away
    await waitFor(() => server.output().includes('consumer joined group'), {
      what: 'a consumer',
      timeoutMs: 90_000,
    });
    stopped.push('kafka', 'redis');
    await infra('stop', 'kafka', 'redis');

    const signalled = Date.now();
    server.child.kill('SIGTERM');
    const code = await server.exited;
    const tookMs = Date.now() - signalled;
    expect(code, server.output().slice(-3000)).toBe(0);
    // the budget (6 s) and the process's exit after it; an orchestrator's grace period is 30 s
    expect(tookMs).toBeLessThan(10_000);
    const finished = server
      .output()
      .split('\n')
      .filter((l) => l.includes('"shutdown finished"'))
      .map((l) => JSON.parse(l) as { abandoned: string[]; tookMs: number });
    expect(finished).toHaveLength(1);
    expect(finished[0].tookMs).toBeLessThanOrEqual(6_500);

    await infra('start', 'kafka', 'redis');
    stopped.length = 0;
  }, 240_000);

  it('npm start stops the server and the billing gateway stand-in it started when it is stopped', async () => {
    const port = await freePort();
    const gatewayPort = await freePort();
    const pidFile = join(REPO_ROOT, '.data/billing-gateway.pid');
    // a stand-in some other `npm start` left running would be reused, not started: none may be running here
    if (existsSync(pidFile)) expect(alive(Number(readFileSync(pidFile, 'utf8')))).toBe(false);
    // npm start on the main local services (up for the whole suite), not the serial level's own Kafka and Redis:
    // its `infra.sh up` must not see the serial level's settings (a second store would be started)
    const mainEnv = Object.fromEntries(
      Object.entries(process.env).filter(
        ([k]) => !k.startsWith('INFRA_') && k !== 'KAFKA_BROKERS' && k !== 'REDIS_URL',
      ),
    );
    const start = run(
      'bash',
      ['scripts/start.sh'],
      { ...env(port), BILLING_GATEWAY_PORT: String(gatewayPort), ONCO_KEEP_INFRA: '1' },
      mainEnv,
    );
    children.push(start.child);
    await waitFor(() => start.output().includes('oncotrf is up'), {
      what: 'npm start up',
      timeoutMs: 180_000,
    });
    const gatewayPid = Number(readFileSync(pidFile, 'utf8'));
    expect(alive(gatewayPid)).toBe(true);
    expect((await fetch(`http://127.0.0.1:${gatewayPort}/claims`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/health`)).ok).toBe(true);

    start.child.kill('SIGTERM');
    const code = await start.exited;
    expect(code, start.output().slice(-3000)).toBe(143);
    expect(start.output()).toContain('billing gateway stand-in stopped');
    expect(alive(gatewayPid)).toBe(false);
    expect(existsSync(pidFile)).toBe(false);
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
  }, 300_000);
});
