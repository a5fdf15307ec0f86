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

export function createPdfRenderer(opts: PdfRendererOptions): PdfRenderer {
  const timeout = opts.timeoutMs ?? 30_000;
  const idleCloseMs = opts.idleCloseMs ?? 5 * 60_000;
  let browser: Promise<Browser> | null = null;
  let launches = 0;
  let active = 0;
  let closed = false;
  let idleTimer: NodeJS.Timeout | null = null;
  const idleWaiters: Array<() => void> = [];
  const maxPages = Math.max(1, opts.maxPages ?? RENDER_PAGES);
  let rendering = 0;
  const pageWaiters: Array<() => void> = [];
  const acquirePage = async () => {
    if (rendering < maxPages) rendering += 1;
    else await new Promise<void>((resolve) => pageWaiters.push(resolve)); // the releaser hands its slot over
  };
  // rendered pages kept for the next render, with the browser they belong to
  const idlePages: Array<{ page: Page; browser: Browser }> = [];
  async function takePage(b: Browser): Promise<Page> {
    for (let kept = idlePages.pop(); kept; kept = idlePages.pop()) {
      if (kept.browser === b && b.connected && !kept.page.isClosed()) return kept.page;
      kept.page.close().catch(() => undefined);
    }
    const page = await b.newPage();
    try {
      page.setDefaultTimeout(timeout);
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
  async function closePage(page: Page, b: Browser) {
    const pageClosed = await Promise.race([
      page.close().then(
        () => true,
        () => true,
      ),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5000).unref()),
    ]);
    if (!pageClosed) {
      opts.logger?.error('chromium page did not close; killing the browser');
      if (browser) browser = null;
      b.process()?.kill('SIGKILL');
    }
  }
  const releasePage = () => {
    const next = pageWaiters.shift();
    if (next) next();
    else rendering -= 1;
  };

  let profileDir: string | null = null;
  const removals = new Set<Promise<void>>();

  function launch(): Promise<Browser> {
    launches += 1;
    const started = Date.now();
    // our own profile directory, removed when chromium exits (even after a crash, which puppeteer's own
    // temporary profile would outlive)
    const profile = mkdtempSync(path.join(os.tmpdir(), 'oncotrf-chromium-'));
    profileDir = profile;
    let removal: Promise<void> | null = null;
    const removeProfile = () => {
      if (profileDir === profile) profileDir = null;
      // chromium's helper processes may still be writing for a moment after the main process exits
      removal ??= new Promise<void>((resolve) => setTimeout(resolve, 200))
        .then(() => rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }))
        .catch((err: Error) =>
          opts.logger?.warn({ err: err.message, profile }, 'could not remove the chromium profile directory'),
        )
        .finally(() => removals.delete(removal!));
      removals.add(removal);
    };
    const p = puppeteer
      .launch({
        executablePath: opts.executablePath,
        userDataDir: profile,
        headless: true,
        args: [...CHROMIUM_ARGS],
        timeout: Math.max(timeout, 30_000),
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
          if (browser === p) {
            browser = null;
            if (!closed) opts.logger?.warn('chromium disconnected; the next render launches a new one');
          }
        });
        return b;
      });
    p.catch(() => {
      if (browser === p) browser = null;
      removeProfile();
    });
    return p;
  }

  async function getBrowser(): Promise<Browser> {
    for (;;) {
      const current = browser;
      if (!current) {
        browser = launch();
        return browser;
      }
      const b = await current;
      if (b.connected) return b;
      // a dead browser: the first caller to notice replaces it, the others then use the new one
      if (browser === current) browser = null;
    }
  }

  function scheduleIdleClose() {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = null;
    if (idleCloseMs <= 0 || active > 0 || closed) return;
    idleTimer = setTimeout(() => {
      const current = browser;
      if (active > 0 || !current) return;
      browser = null;
      idlePages.length = 0;
      current.then((b) => b.close()).catch(() => undefined);
      opts.logger?.debug('chromium closed after idle time');
    }, idleCloseMs);
    idleTimer.unref();
  }

  return {
    get launches() {
      return launches;
    },

    async status() {
      const b = browser ? await browser.catch(() => null) : null;
      if (!b?.connected) return { launches, pid: null, openPages: 0, active, profileDir: null };
      // pages() includes the initial blank tab chromium opens at launch
      return {
        launches,
        pid: b.process()?.pid ?? null,
        openPages: (await b.pages()).length,
        active,
        profileDir,
      };
    },

    async render(html: string, hooks?: { onPage?: () => void }): Promise<Buffer> {
      if (closed) throw new Error('PDF renderer is closed');
      active += 1;
      if (idleTimer) clearTimeout(idleTimer);
      try {
        await acquirePage();
        try {
          if (closed) throw new Error('PDF renderer is closed');
          hooks?.onPage?.();
          const b = await getBrowser();
          const page = await takePage(b);
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
            if (ok && !closed && b.connected && idlePages.length < maxPages) {
              idlePages.push({ page, browser: b });
            } else {
              await closePage(page, b);
            }
          }
        } finally {
          releasePage();
        }
      } finally {
        active -= 1;
        if (active === 0) {
          while (idleWaiters.length) idleWaiters.shift()!();
          scheduleIdleClose();
        }
      }
    },

    async close(): Promise<void> {
      closed = true;
      if (idleTimer) clearTimeout(idleTimer);
      if (active > 0) {
        await Promise.race([
          new Promise<void>((resolve) => idleWaiters.push(resolve)),
          new Promise<void>((resolve) => setTimeout(resolve, 10_000).unref()),
        ]);
      }
      const current = browser;
      browser = null;
      idlePages.length = 0;
      if (current) await current.then((b) => b.close()).catch(() => undefined);
      await Promise.all([...removals]);
    },
  };
}
