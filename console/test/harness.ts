/**
 * Browser-test harness for the console (`console/**\/*.e2e.test.ts`; one file:
 * `npx vitest run --project e2e console/test/login.e2e.test.ts`).
 *
 * One real backend for the level (createTestSystem: its own database, topics, queues and mailbox, workers on)
 * listening on a free port and serving the BUILT console (console/dist, rebuilt here when console/src is newer),
 * and one headless Debian chromium driven by puppeteer-core; each page is a browser context of its own. Nothing
 * is mocked. Tests keep apart by their own accounts, users and records.
 *
 *   const { h, npi } = useConsole({ users: { npi: 'ROLE_NPI' } }); // in the describe: its beforeAll/afterAll
 *   const page = await h.newPage();            // a fresh browser context (own local storage)
 *   await loginAs(page, h, npi.loginId);       // a session from the API (loginWithForm: the login page)
 *   await h.shot(page, 'users-en');            // .data/screenshots/users-en.png with E2E_SCREENSHOTS=1
 *
 * useConsole starts the harness (startConsole) in the file's beforeAll, makes its users and seeds, and stops it
 * in afterAll (closing this file's pages). Fixture builders for the seeding (a submitted requisition, waiting for
 * what the workers learn) are in ./fixtures.ts, re-exported here.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core';
import type { Role } from '@onco/domain';
import { DEFAULT_CHROMIUM_PATH } from '@onco/platform';
import { afterAll, beforeAll, onTestFailed } from 'vitest';
import { b64, createTestSystem, createUser, login, resetTestSystem, TEST_PASSWORD } from '@onco/testing';

export { createUser, login, TEST_PASSWORD };
export * from './fixtures';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DIST_INDEX = path.join(ROOT, 'console/dist/index.html');
export const SCREENSHOT_DIR = path.join(ROOT, '.data/screenshots');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH;

/** Keys the console keeps in local storage (mirrors console/src/providers/storage.ts). */
export const STORAGE = {
  session: 'oncotrf.session',
  locale: 'oncotrf.locale',
  activeMenu: 'oncotrf.activeMenu',
  savedUsername: 'oncotrf.savedUsername',
  redirect: 'oncotrf.redirect',
} as const;

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** Build console/dist when it is missing or older than console/src (or when E2E_BUILD=1). */
export function ensureConsoleBuilt() {
  const sources = Math.max(
    newestMtime(path.join(ROOT, 'console/src')),
    statSync(path.join(ROOT, 'console/index.html')).mtimeMs,
    ...(existsSync(path.join(ROOT, 'console/public'))
      ? [newestMtime(path.join(ROOT, 'console/public'))]
      : []),
    ...(existsSync(path.join(ROOT, 'services/domain/src'))
      ? [newestMtime(path.join(ROOT, 'services/domain/src'))]
      : []),
  );
  const stale = !existsSync(DIST_INDEX) || statSync(DIST_INDEX).mtimeMs < sources;
  if (stale || process.env.E2E_BUILD === '1') {
    execFileSync('npm', ['run', 'build', '-w', 'console', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export type TestSystem = Awaited<ReturnType<typeof createTestSystem>>;

export interface ConsoleHarness {
  /** the backend (app, ctx, config, logs...) */
  sys: TestSystem;
  /** http://127.0.0.1:{port} */
  base: string;
  browser: Browser;
  /** a page in a fresh incognito-like context (its own local storage), 1366x860 */
  newPage(opts?: { locale?: 'en' | 'zh-CN'; width?: number; height?: number }): Promise<Page>;
  /** create an ACTIVE user with TEST_PASSWORD (see services/testing/src/system.ts) */
  user(role: Role, opts?: Parameters<typeof createUser>[2]): ReturnType<typeof createUser>;
  /** call the API as a user: api(authorization, 'POST', '/portal/api/v1/maintenance', body) */
  api(
    authorization: string | null,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    body?: unknown,
  ): Promise<{ status: number; body: any }>;
  /**
   * Save .data/screenshots/{name}.png (git-ignored) and return its path: when E2E_SCREENSHOTS=1, or always for a
   * test that exists to produce pictures (`{ always: true }`). A failing test's pages are saved anyway.
   */
  shot(page: Page, name: string, opts?: { always?: boolean }): Promise<string | null>;
  stop(): Promise<void>;
}

/** What a browser test may pass to its backend; the level's shared backend runs with these (workers on). */
const SHARED_CONFIG: Parameters<typeof createTestSystem>[0] = { WORKERS: 'true' };

interface Backend {
  sys: TestSystem;
  base: string;
}

async function startBackend(overrides: Parameters<typeof createTestSystem>[0]): Promise<Backend> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const sys = await createTestSystem({
    SERVE_CONSOLE: 'true',
    PORT: String(port),
    PUBLIC_URL: base,
    ...overrides,
  });
  await sys.app.listen({ port, host: '127.0.0.1' });
  return { sys, base };
}

/**
 * One backend and one chromium for the whole browser level: the e2e project runs its files one after another
 * in one process without isolation (vitest.config.ts), so these outlive a file. A file that needs another
 * configuration (a rate limit, a billing gateway) gets a backend of its own, on the same chromium. Databases,
 * topics and queues are removed by the level's global teardown (scripts/test-support/global-setup.ts).
 */
let sharedBackend: Promise<Backend> | undefined;
let sharedBrowser: Promise<Browser> | undefined;

function launchBrowser(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--lang=en-US'],
  });
}

function isShared(overrides: Parameters<typeof createTestSystem>[0] = {}): boolean {
  return Object.entries(overrides).every(([k, v]) => (SHARED_CONFIG as Record<string, string>)[k] === v);
}

/** The level's backend (serving the built console) and chromium, started by the first file that asks. */
export async function startConsole(
  overrides: Parameters<typeof createTestSystem>[0] = {},
): Promise<ConsoleHarness> {
  ensureConsoleBuilt();
  const own = !isShared(overrides);
  let backend: Backend;
  if (own) backend = await startBackend({ ...SHARED_CONFIG, ...overrides });
  else {
    const fresh = !sharedBackend;
    sharedBackend ??= startBackend(SHARED_CONFIG);
    backend = await sharedBackend.catch((err) => {
      sharedBackend = undefined;
      throw err;
    });
    // each file starts from empty collections, mailbox and files, as on a backend of its own
    if (!fresh) await resetTestSystem(backend.sys);
  }
  sharedBrowser ??= launchBrowser();
  let browser = await sharedBrowser;
  if (!browser.connected) {
    sharedBrowser = launchBrowser();
    browser = await sharedBrowser;
  }
  const { sys, base } = backend;
  const contexts: BrowserContext[] = [];
  const pages: Page[] = [];
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // what the server's Content-Security-Policy refused on any page: the file fails at stop() if anything was
  // (a blocked script, style, frame or request is a broken screen even when the test's own checks passed)
  const cspViolations: string[] = [];

  const save = async (page: Page, name: string) => {
    const file = path.join(SCREENSHOT_DIR, `${name}.png`);
    // let MUI transitions (dialogs, menus) finish
    await animationsDone(page).catch(() => undefined);
    await page.bringToFront();
    await page.screenshot({ path: file as `${string}.png`, fullPage: false });
    return file;
  };

  return {
    sys,
    base,
    browser,
    async newPage(opts = {}) {
      const ctx = await browser.createBrowserContext();
      contexts.push(ctx);
      const page = await ctx.newPage();
      pages.push(page);
      // a failing test leaves a picture of each page it opened (.data/screenshots/failed-*.png)
      try {
        onTestFailed(async ({ task }) => {
          const name = `failed-${task.name.replace(/[^A-Za-z0-9]+/g, '-').slice(0, 80)}-${pages.indexOf(page)}`;
          // bounded: a picture must not hold the failing test up (a closed or hung tab)
          await Promise.race([save(page, name), new Promise((r) => setTimeout(r, 10_000))]).catch(
            () => undefined,
          );
        });
      } catch {
        /* opened outside a test (beforeAll) */
      }
      page.on('console', (m) => {
        if (m.type() === 'error' && /Content Security Policy/i.test(m.text()))
          cspViolations.push(`${page.url()}: ${m.text()}`);
      });
      await page.setViewport({ width: opts.width ?? 1366, height: opts.height ?? 860 });
      page.setDefaultTimeout(30_000); // 2 shared cores: be patient
      if (opts.locale) {
        const locale = opts.locale;
        await page.evaluateOnNewDocument(
          (key, value) => {
            if (!localStorage.getItem(key)) localStorage.setItem(key, value);
          },
          STORAGE.locale,
          locale,
        );
      }
      return page;
    },
    user: (role, opts) => createUser(sys, role, opts),
    async api(authorization, method, url, body) {
      const res = await sys.app.inject({
        method,
        url,
        headers: authorization ? { authorization } : {},
        ...(body === undefined ? {} : { payload: body as any }),
      });
      let parsed: any = res.body;
      try {
        parsed = res.json();
      } catch {
        /* not JSON */
      }
      return { status: res.statusCode, body: parsed };
    },
    async shot(page, name, opts = {}) {
      if (!opts.always && process.env.E2E_SCREENSHOTS !== '1') return null;
      return save(page, name);
    },
    async stop() {
      for (const c of contexts) await c.close().catch(() => undefined);
      if (own) await sys.close();
      if (cspViolations.length)
        throw new Error(
          `the Content-Security-Policy refused ${cspViolations.length} thing(s):\n${cspViolations.slice(0, 10).join('\n')}`,
        );
    },
  };
}

/** Options of a user made by `h.user` (account, physicianId, loginId, email...). */
export type UserOptions = Parameters<typeof createUser>[2];
/** A user a file needs: its role, or its role and options (as `h.user` takes them). */
export type UserSpec = Role | readonly [Role, UserOptions?];
/** A user made by useConsole; `authorization` (the API's bearer header) is set for those it signed in. */
export type ConsoleUser = Awaited<ReturnType<typeof createUser>> & { authorization: string };
export type ConsoleUsers<U> = { [K in keyof U]: ConsoleUser };

export interface ConsoleSetup<U extends Record<string, UserSpec>> {
  /** the backend's configuration (startConsole's overrides), or a function making it, run first in beforeAll */
  config?: Parameters<typeof createTestSystem>[0] | (() => Promise<Parameters<typeof createTestSystem>[0]>);
  /** the users to make once the backend is up, in this order: name (not 'h') → role, or [role, options] */
  users?: U & { h?: never };
  /** which of `users` to sign in through the API as well (their `authorization`) */
  signIn?: ReadonlyArray<keyof U & string>;
  /** the rest of the file's data, made after the users */
  seed?: (h: ConsoleHarness, users: ConsoleUsers<U>) => Promise<void>;
  /** beforeAll's timeout in ms (the level's hookTimeout when not given) */
  timeout?: number;
  /** run in afterAll once the harness has stopped (a stand-in to close) */
  teardown?: () => Promise<unknown>;
}

/** Make a user with `h.user` and sign it in through the API (its `authorization`). */
export async function signedInUser(
  h: Pick<ConsoleHarness, 'sys' | 'user'>,
  role: Role,
  opts?: UserOptions,
): Promise<ConsoleUser> {
  const user = await h.user(role, opts);
  return { ...user, authorization: (await login(h.sys, user.loginId)).authorization };
}

/**
 * The set-up of a browser-test file, declared once (call it in the file's describe): registers its beforeAll
 * (startConsole with `config`; `users` made in order, those named in `signIn` signed in; then `seed`) and its
 * afterAll (h.stop(), then `teardown`). It returns the harness `h` and each user under its name: objects that
 * beforeAll fills in, to take at once (`const { h, lab } = useConsole({ users: { lab: 'ROLE_ACCESSIONER' } })`)
 * and read in hooks and tests.
 */
export function useConsole<U extends Record<string, UserSpec> = Record<never, UserSpec>>(
  setup: ConsoleSetup<U> = {},
): { h: ConsoleHarness } & ConsoleUsers<U> {
  const h = {} as ConsoleHarness;
  const specs = Object.entries(setup.users ?? {}) as Array<[keyof U & string, UserSpec]>;
  const users = Object.fromEntries(specs.map(([name]) => [name, {}])) as ConsoleUsers<U>;
  let started = false;
  beforeAll(async () => {
    const config = typeof setup.config === 'function' ? await setup.config() : setup.config;
    Object.assign(h, await startConsole(config));
    started = true;
    for (const [name, spec] of specs) {
      const [role, opts] = typeof spec === 'string' ? [spec] : spec;
      const user = setup.signIn?.includes(name)
        ? await signedInUser(h, role, opts)
        : await h.user(role, opts);
      Object.assign(users[name], user);
    }
    await setup.seed?.(h, users);
  }, setup.timeout);
  afterAll(async () => {
    try {
      if (started) await h.stop();
    } finally {
      await setup.teardown?.();
    }
  });
  return { ...users, h };
}

/** Open `path` (default /login) and wait for the console to have rendered. */
export async function open(page: Page, h: Pick<ConsoleHarness, 'base'>, p = '/login') {
  await page.goto(h.base + p, { waitUntil: 'domcontentloaded' });
  await page.waitForSelector('#root > *');
}

/** The input found by selector, focused and emptied (what typing or pasting over its text does first). */
async function emptied(page: Page, selector: string) {
  const el = await page.waitForSelector(selector, { visible: true });
  await el!.click({ clickCount: 3 });
  await page.keyboard.press('Backspace');
  return el!;
}

/** Type into an input found by selector, replacing what it holds. */
export async function fill(page: Page, selector: string, text: string) {
  const el = await emptied(page, selector);
  if (text) await el.type(text);
}

/** Paste `text` into an input found by selector, replacing what it holds: one insertion, as a paste is (the
 * field's own limits, a maxlength, apply as they do to a paste). For long texts, where typing key by key costs
 * seconds. */
export async function paste(page: Page, selector: string, text: string) {
  await emptied(page, selector);
  await page.keyboard.sendCharacter(text);
}

/**
 * Sign in through the real login page and wait for the shell (the top menu). Only the sign-in tests need this:
 * the others use `loginAs`, which signs in through the API.
 */
export async function loginWithForm(
  page: Page,
  h: Pick<ConsoleHarness, 'base'>,
  loginId: string,
  password = TEST_PASSWORD,
) {
  if (!page.url().includes('/login')) await open(page, h, '/login');
  await fill(page, 'input[name="username"]', loginId);
  await fill(page, 'input[name="password"]', password);
  await page.click('button[type="submit"]');
  await page.waitForSelector('[data-testid="app-menu"]', { visible: true });
}

/**
 * Sign in as the login page does, through the API (POST /uam/api/v1/authenticate), keep the session where the
 * console keeps it, open the page a sign-in would lead to (the remembered one, or /) and wait for the shell.
 */
export async function loginAs(
  page: Page,
  h: Pick<ConsoleHarness, 'base'>,
  loginId: string,
  password = TEST_PASSWORD,
) {
  const res = await fetch(`${h.base}/uam/api/v1/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: b64(loginId), password: b64(password) }),
  });
  const session = await res.json();
  if (res.status !== 200)
    throw new Error(`sign-in of ${loginId} refused: ${res.status} ${JSON.stringify(session)}`);
  // local storage belongs to the console's origin: be on one of its pages first
  if (!page.url().startsWith(h.base)) await page.goto(`${h.base}/health`, { waitUntil: 'domcontentloaded' });
  const to = await page.evaluate(
    (keys, value) => {
      localStorage.setItem(keys.session, value);
      const r = localStorage.getItem(keys.redirect);
      localStorage.removeItem(keys.redirect);
      return r && r.startsWith('/') && !r.startsWith('//') ? r : '/';
    },
    STORAGE,
    JSON.stringify(session),
  );
  await page.goto(h.base + to, { waitUntil: 'domcontentloaded' });
  await page.waitForSelector('[data-testid="app-menu"]', { visible: true });
}

/**
 * Wait until no finite CSS transition or animation runs on the page (MUI's dialogs, menus and poppers moving in
 * or out); endless ones (a spinner) do not count.
 */
export async function animationsDone(page: Page) {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
  );
}

/** Click an element once it is visible and its (MUI) open transition has settled. */
export async function clickWhenReady(page: Page, selector: string) {
  const el = await page.waitForSelector(selector, { visible: true });
  await animationsDone(page);
  await el!.click();
}

/** Open the profile menu and choose an entry: 'menu-change-password', 'menu-release-notes', 'menu-about', 'menu-logout'. */
export async function profileMenu(page: Page, item: string) {
  await clickWhenReady(page, '[data-testid="profile-menu"]');
  await clickWhenReady(page, `[data-testid="${item}"]`);
}

/** Text of the whole page body (for toBe/toContain checks on what a user reads). */
export async function bodyText(page: Page): Promise<string> {
  return page.evaluate(() => document.body.innerText);
}

/** Wait until the page body contains `text`. */
export async function waitForText(page: Page, text: string, timeout = 30_000) {
  await page.waitForFunction((t) => document.body.innerText.includes(t), { timeout }, text);
}

/** Click the enabled button whose text is exactly `text` (inside an open dialog when `inDialog`), once it exists. */
export async function clickButton(page: Page, text: string, inDialog = false) {
  const selector = inDialog ? '.MuiDialog-root button' : 'button';
  await page.waitForFunction(
    (t, sel) =>
      [...document.querySelectorAll(sel)].some(
        (b) => b.textContent?.trim() === t && !(b as HTMLButtonElement).disabled,
      ),
    {},
    text,
    selector,
  );
  await animationsDone(page); // let an opening dialog's transition settle
  await page.evaluate(
    (t, sel) => {
      const b = [...document.querySelectorAll(sel)].find(
        (x) => x.textContent?.trim() === t && !(x as HTMLButtonElement).disabled,
      );
      (b as HTMLButtonElement).click();
    },
    text,
    selector,
  );
}

/** Set a React-controlled input's value (date inputs included) as typing would: React sees an input event. */
export async function setValue(page: Page, selector: string, value: string) {
  await page.waitForSelector(selector);
  await page.$eval(
    selector,
    (el, v) => {
      const input = el as HTMLInputElement;
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, v);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    },
    value,
  );
}

/** Choose an option of a MUI select whose hidden input has data-testid `testId`, and wait for its menu to close. */
export async function chooseOption(page: Page, testId: string, value: string) {
  const input = await page.waitForSelector(`[data-testid="${testId}"]`);
  const box = await input!.evaluateHandle((el) => el.parentElement!.querySelector('[role="combobox"]')!);
  await (box as unknown as { click(): Promise<void> }).click();
  await clickWhenReady(page, `li[data-value="${value}"]`);
  await page.waitForFunction(() => !document.querySelector('.MuiPopover-paper li'));
}

/**
 * Open a list's facet filter (data-testid `facet-{facet}`), tick the entry whose text includes `item` and Apply.
 * `entries` selects the popover's entries (`shown`: what to wait for before the click, by default the entries).
 */
export async function pickFacet(
  page: Page,
  facet: string,
  item: string,
  {
    entries = '.MuiPopover-paper .MuiListItemButton-root',
    shown = entries,
  }: { entries?: string; shown?: string } = {},
) {
  await clickWhenReady(page, `[data-testid="facet-${facet}"]`);
  await page.waitForFunction(
    (t, sel) => [...document.querySelectorAll(sel)].some((e) => e.textContent?.includes(t)),
    {},
    item,
    shown,
  );
  await page.evaluate(
    (t, sel) => {
      const el = [...document.querySelectorAll(sel)].find((e) => e.textContent?.includes(t)) as HTMLElement;
      el.click();
    },
    item,
    entries,
  );
  await page.evaluate(() => {
    const b = [...document.querySelectorAll('.MuiPopover-paper button')].find(
      (x) => x.textContent?.trim() === 'Apply',
    ) as HTMLButtonElement;
    b.click();
  });
  await page.waitForFunction(() => !document.querySelector('.MuiPopover-paper'));
}
