/**
 * Benchmark: the time from navigation to an interactive orders list, in headless chromium, against the database
 * the environment points at (fill it first with `npm run seed:scale -- --requisitions 100000`).
 *
 *   npm run bench:console -- [--runs 5] [--role accessioner] [--no-build]
 *
 * Starts the backend serving the production console build (compressed assets, as in production), signs in
 * through the login page as a demo user (lab staff by default: every account), then for each run opens /orders
 * in a fresh browser context (cold: nothing cached) and again in the same context (warm: the bundle cached),
 * and measures:
 *   - interactive: navigation start -> the first rows (or the empty text) are on screen and the main thread
 *     answers within 50 ms (no long task still running);
 *   - submitted: a click on the Submitted tab -> its rows are on screen;
 *   - the list API's own time for the same requests (from the browser's resource timing).
 * Every list request is answered by the database (no answer is kept between requests). Prints p50 / max per
 * measure; not a test. Figures go to docs/benchmarks.md.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import puppeteer, { type Page } from 'puppeteer-core';
import { demoLogin } from '@onco/server';
import type { Role } from '@onco/domain';
import { arg, benchConfig, runBench, startBenchServer } from './bench-support';

const ROOT = path.resolve(import.meta.dirname, '..');

const ROWS = '[data-testid^="row-"], [data-testid="list-empty"]';

/** Resolves once a frame and a macrotask both come back within 50 ms (nothing long is running). */
async function settled(page: Page) {
  for (;;) {
    const lag = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const t = performance.now();
          requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t), 0));
        }),
    );
    if (lag < 50) return;
  }
}

/** The list API calls' durations (ms) the page made since `since` (browser resource timing). */
async function apiTimes(page: Page, since: number): Promise<number[]> {
  return page.evaluate(
    (s) =>
      performance
        .getEntriesByType('resource')
        .filter((e) => e.name.includes('/portal/api/v1/testOrderForms?') && e.startTime >= s)
        .map((e) => e.duration),
    since,
  );
}

async function openOrders(page: Page, base: string) {
  const t0 = Date.now();
  await page.goto(`${base}/orders`, { waitUntil: 'domcontentloaded' });
  await page.waitForSelector(ROWS, { timeout: 600_000 });
  await settled(page);
  const interactive = Date.now() - t0;
  const listApi = await apiTimes(page, 0);
  // Submitted: the tab click until its rows replace the Draft ones
  const before = await page.evaluate(() => performance.now());
  const t1 = Date.now();
  await page.click('[data-testid="tab-submitted"]');
  await page.waitForFunction(
    () =>
      document.querySelector('[data-testid="tab-submitted"]')?.getAttribute('aria-pressed') === 'true' &&
      !document.querySelector('[data-testid="list-loading"]') &&
      document.querySelector('[data-testid^="row-"], [data-testid="list-empty"]'),
    { timeout: 600_000, polling: 50 },
  );
  await page.waitForNetworkIdle({ idleTime: 200, timeout: 600_000 });
  await page.waitForSelector(ROWS, { timeout: 600_000 });
  const submitted = Date.now() - t1;
  const submittedApi = await apiTimes(page, before);
  const rows = await page.$$eval('[data-testid^="row-"]', (r) => r.length);
  return {
    interactive,
    submitted,
    listApi: Math.max(0, ...listApi),
    submittedApi: Math.max(0, ...submittedApi),
    rows,
  };
}

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const line = (name: string, xs: number[]) =>
  `${name.padEnd(34)} p50 ${String(p50(xs)).padStart(7)} ms   max ${String(Math.max(...xs)).padStart(7)} ms   (${xs.join(', ')})`;

async function main() {
  const runs = Number(arg('runs', '5'));
  const role = `ROLE_${arg('role', 'accessioner').toUpperCase().replace(/\./g, '_')}` as Role;
  if (!process.argv.includes('--no-build')) {
    console.log('[console] building the console (production)...');
    execFileSync('npm', ['run', 'build', '-w', 'console', '--silent'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, NODE_ENV: 'production' },
    });
  }
  const config = benchConfig({ serveConsole: true });
  const { system, base } = await startBenchServer(config);
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--lang=en-US'],
  });
  try {
    const coll = system.ctx.mongo.collection('test_order_forms');
    const total = await coll.estimatedDocumentCount();
    console.log(
      `[console] database ${config.MONGO_URL}: ${total} requisitions; as ${demoLogin(role)}; ${runs} runs`,
    );
    const cold: Array<Awaited<ReturnType<typeof openOrders>>> = [];
    const warm: typeof cold = [];
    for (let i = 0; i < runs; i++) {
      const ctx = await browser.createBrowserContext();
      const page = await ctx.newPage();
      await page.setViewport({ width: 1366, height: 860 });
      await page.goto(`${base}/login`, { waitUntil: 'domcontentloaded' });
      await page.waitForSelector('input[name="username"]');
      await page.type('input[name="username"]', demoLogin(role));
      await page.type('input[name="password"]', config.DEMO_PASSWORD);
      await page.click('button[type="submit"]');
      await page.waitForSelector('[data-testid="app-menu"]', { visible: true, timeout: 600_000 });
      // cold: a fresh context has no cached bundle (the login page above loaded it into memory, so clear it)
      const cdp = await page.createCDPSession();
      await cdp.send('Network.clearBrowserCache');
      cold.push(await openOrders(page, base));
      warm.push(await openOrders(page, base));
      console.log(
        `[console] run ${i + 1}: cold ${cold[i].interactive} ms (+${cold[i].submitted} ms Submitted), warm ${warm[i].interactive} ms (+${warm[i].submitted} ms), ${warm[i].rows} rows`,
      );
      await ctx.close();
    }
    console.log(`\nOrders list in headless chromium, ${total} requisitions in the database:`);
    console.log(
      line(
        'interactive, cold cache',
        cold.map((r) => r.interactive),
      ),
    );
    console.log(
      line(
        'interactive, warm cache',
        warm.map((r) => r.interactive),
      ),
    );
    console.log(
      line(
        '  of which the Draft list API',
        [...cold, ...warm].map((r) => Math.round(r.listApi)),
      ),
    );
    console.log(
      line(
        'Submitted tab -> rows',
        [...cold, ...warm].map((r) => r.submitted),
      ),
    );
    console.log(
      line(
        '  of which the Submitted list API',
        [...cold, ...warm].map((r) => Math.round(r.submittedApi)),
      ),
    );
  } finally {
    await browser.close();
    await system.close();
  }
}

runBench(main);
