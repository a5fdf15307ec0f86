import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser, type HTTPRequest, type Page } from 'puppeteer-core';
import type { Logger } from 'pino';

/**
 * HTML to PDF with Debian's chromium through puppeteer-core. One browser per process is launched on first use
 * and reused for every render (a launch costs ~0.5-1 s, a page ~50-200 ms); if chromium crashes or is killed,
 * the next render launches a new one. A page that rendered is kept for the next render (at most `maxPages` of
 * them, set up once: no JavaScript, requests intercepted; `setContent` replaces the whole document); a page
 * whose render failed is closed, and the kept pages go with their browser. Pages run
 * offline: every request except the document itself and data: URLs is aborted, so a template can never
 * reach the network (the templates also carry a `default-src 'none'` CSP). At most `maxPages` pages render at
 * once (default RENDER_PAGES); further renders wait their turn, so workers may run more jobs at once than
 * chromium has pages (their database work overlaps the renders) without overloading the browser.
 */
export const RENDER_PAGES = 2;

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-dev-shm-usage',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--headless=new',
] as const;

export interface PdfRendererOptions {
  /** ctx.config.CHROMIUM_PATH */
  executablePath: string;
  logger?: Logger;
  /** close the browser after this long without renders (0 = keep it open until close()); default 5 min */
  idleCloseMs?: number;
  /** per-render limit for loading the content and printing; default 30 s */
  timeoutMs?: number;
  /** pages rendering at once (the others wait); default RENDER_PAGES */
  maxPages?: number;
}

export interface PdfRenderer {
  /** Render self-contained HTML to a Letter-size PDF (`onPage`: called once a page is free and the render starts). */
  render(html: string, hooks?: { onPage?: () => void }): Promise<Buffer>;
  /** Wait for renders in progress (up to 10 s), then close the browser. Later renders fail. */
  close(): Promise<void>;
  /** how many browsers were launched so far (a relaunch after a crash counts) */
  readonly launches: number;
  /** the running chromium (process id, open pages), for operators and tests */
  status(): Promise<{
    launches: number;
    pid: number | null;
    openPages: number;
    active: number;
    profileDir: string | null;
  }>;
}

/** A renderer's state: its settings, its browser, its pages and renders in progress (createPdfRenderer). */
interface RendererState {
  opts: PdfRendererOptions;
  timeout: number;
  idleCloseMs: number;
  maxPages: number;
  browser: Promise<Browser> | null;
  launches: number;
  active: number;
  closed: boolean;
  idleTimer: NodeJS.Timeout | null;
  idleWaiters: Array<() => void>;
  rendering: number;
  pageWaiters: Array<() => void>;
  // rendered pages kept for the next render, with the browser they belong to
  idlePages: Array<{ page: Page; browser: Browser }>;
  profileDir: string | null;
  removals: Set<Promise<void>>;
}

async function acquirePage(s: RendererState) {
  if (s.rendering < s.maxPages) s.rendering += 1;
  else await new Promise<void>((resolve) => s.pageWaiters.push(resolve)); // the releaser hands its slot over
}

async function takePage(s: RendererState, b: Browser): Promise<Page> {
  for (let kept = s.idlePages.pop(); kept; kept = s.idlePages.pop()) {
    if (kept.browser === b && b.connected && !kept.page.isClosed()) return kept.page;
    kept.page.close().catch(() => undefined);
  }
  const page = await b.newPage();
  try {
    page.setDefaultTimeout(s.timeout);
    // templates are static HTML: no script ever runs (setContent itself works from an isolated world)
    await page.setJavaScriptEnabled(false);
    await page.setRequestInterception(true);
    page.on('request', (req: HTTPRequest) => {
      const url = req.url();
      if (url.startsWith('data:') || url === 'about:blank') void req.continue();
      else void req.abort('blockedbyclient');
    });
  } catch (err) {
    await page.close().catch(() => undefined);
    throw err;
  }
  return page;
}

/** close a page; one that cannot even be closed means a wedged browser: kill it, the next render relaunches */
async function closePage(s: RendererState, page: Page, b: Browser) {
  const pageClosed = await Promise.race([
    page.close().then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5000).unref()),
  ]);
  if (!pageClosed) {
    s.opts.logger?.error('chromium page did not close; killing the browser');
    if (s.browser) s.browser = null;
    b.process()?.kill('SIGKILL');
  }
}

function releasePage(s: RendererState) {
  const next = s.pageWaiters.shift();
  if (next) next();
  else s.rendering -= 1;
}

function launch(s: RendererState): Promise<Browser> {
  const { opts } = s;
  s.launches += 1;
  const started = Date.now();
  // our own profile directory, removed when chromium exits (even after a crash, which puppeteer's own
  // temporary profile would outlive)
  const profile = mkdtempSync(path.join(os.tmpdir(), 'oncotrf-chromium-'));
  s.profileDir = profile;
  let removal: Promise<void> | null = null;
  const removeProfile = () => {
    if (s.profileDir === profile) s.profileDir = null;
    // chromium's helper processes may still be writing for a moment after the main process exits
    removal ??= new Promise<void>((resolve) => setTimeout(resolve, 200))
      .then(() => rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }))
      .catch((err: Error) =>
        opts.logger?.warn({ err: err.message, profile }, 'could not remove the chromium profile directory'),
      )
      .finally(() => s.removals.delete(removal!));
    s.removals.add(removal);
  };
  const p = puppeteer
    .launch({
      executablePath: opts.executablePath,
      userDataDir: profile,
      headless: true,
      args: [...CHROMIUM_ARGS],
      timeout: Math.max(s.timeout, 30_000),
      // talk over a pipe, not a websocket: if this process dies (even SIGKILL) the pipe closes and chromium
      // exits with it instead of lingering as an orphan (measured: with a websocket it survives)
      pipe: true,
      // the process's own shutdown closes the browser (close()); puppeteer still kills it if the process exits
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    })
    .then((b) => {
      opts.logger?.info({ ms: Date.now() - started, pid: b.process()?.pid }, 'chromium launched');
      const child = b.process();
      if (child && child.exitCode === null) child.once('exit', removeProfile);
      else removeProfile();
      b.on('disconnected', () => {
        if (s.browser === p) {
          s.browser = null;
          if (!s.closed) opts.logger?.warn('chromium disconnected; the next render launches a new one');
        }
      });
      return b;
    });
  p.catch(() => {
    if (s.browser === p) s.browser = null;
    removeProfile();
  });
  return p;
}

async function getBrowser(s: RendererState): Promise<Browser> {
  for (;;) {
    const current = s.browser;
    if (!current) {
      s.browser = launch(s);
      return s.browser;
    }
    const b = await current;
    if (b.connected) return b;
    // a dead browser: the first caller to notice replaces it, the others then use the new one
    if (s.browser === current) s.browser = null;
  }
}

function scheduleIdleClose(s: RendererState) {
  if (s.idleTimer) clearTimeout(s.idleTimer);
  s.idleTimer = null;
  if (s.idleCloseMs <= 0 || s.active > 0 || s.closed) return;
  s.idleTimer = setTimeout(() => {
    const current = s.browser;
    if (s.active > 0 || !current) return;
    s.browser = null;
    s.idlePages.length = 0;
    current.then((b) => b.close()).catch(() => undefined);
    s.opts.logger?.debug('chromium closed after idle time');
  }, s.idleCloseMs);
  s.idleTimer.unref();
}

/** one render on a page of its own: content loaded, printed, within a hard deadline; the page kept or closed */
async function renderOnPage(s: RendererState, html: string): Promise<Buffer> {
  const { timeout } = s;
  const b = await getBrowser(s);
  const page = await takePage(s, b);
  let timer: NodeJS.Timeout | undefined;
  let ok = false;
  try {
    const work = (async () => {
      await page.setContent(html, { waitUntil: 'load', timeout });
      return Buffer.from(await page.pdf({ format: 'Letter', printBackground: true, timeout }));
    })();
    work.catch(() => undefined);
    // a hard deadline over the whole render, in case chromium stops answering altogether
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`PDF render did not finish within ${timeout + 5000} ms`)),
        timeout + 5000,
      );
    });
    const pdf = await Promise.race([work, deadline]);
    ok = true;
    return pdf;
  } finally {
    clearTimeout(timer);
    if (ok && !s.closed && b.connected && s.idlePages.length < s.maxPages) {
      s.idlePages.push({ page, browser: b });
    } else {
      await closePage(s, page, b);
    }
  }
}

async function render(s: RendererState, html: string, hooks?: { onPage?: () => void }): Promise<Buffer> {
  if (s.closed) throw new Error('PDF renderer is closed');
  s.active += 1;
  if (s.idleTimer) clearTimeout(s.idleTimer);
  try {
    await acquirePage(s);
    try {
      if (s.closed) throw new Error('PDF renderer is closed');
      hooks?.onPage?.();
      return await renderOnPage(s, html);
    } finally {
      releasePage(s);
    }
  } finally {
    s.active -= 1;
    if (s.active === 0) {
      while (s.idleWaiters.length) s.idleWaiters.shift()!();
      scheduleIdleClose(s);
    }
  }
}

async function status(s: RendererState) {
  const b = s.browser ? await s.browser.catch(() => null) : null;
  if (!b?.connected)
    return { launches: s.launches, pid: null, openPages: 0, active: s.active, profileDir: null };
  // pages() includes the initial blank tab chromium opens at launch
  return {
    launches: s.launches,
    pid: b.process()?.pid ?? null,
    openPages: (await b.pages()).length,
    active: s.active,
    profileDir: s.profileDir,
  };
}

async function close(s: RendererState): Promise<void> {
  s.closed = true;
  if (s.idleTimer) clearTimeout(s.idleTimer);
  if (s.active > 0) {
    await Promise.race([
      new Promise<void>((resolve) => s.idleWaiters.push(resolve)),
      new Promise<void>((resolve) => setTimeout(resolve, 10_000).unref()),
    ]);
  }
  const current = s.browser;
  s.browser = null;
  s.idlePages.length = 0;
  if (current) await current.then((b) => b.close()).catch(() => undefined);
  await Promise.all([...s.removals]);
}

export function createPdfRenderer(opts: PdfRendererOptions): PdfRenderer {
  const s: RendererState = {
    opts,
    timeout: opts.timeoutMs ?? 30_000,
    idleCloseMs: opts.idleCloseMs ?? 5 * 60_000,
    maxPages: Math.max(1, opts.maxPages ?? RENDER_PAGES),
    browser: null,
    launches: 0,
    active: 0,
    closed: false,
    idleTimer: null,
    idleWaiters: [],
    rendering: 0,
    pageWaiters: [],
    idlePages: [],
    profileDir: null,
    removals: new Set<Promise<void>>(),
  };
  return {
    get launches() {
      return s.launches;
    },
    status: () => status(s),
    render: (html, hooks) => render(s, html, hooks),
    close: () => close(s),
  };
}
