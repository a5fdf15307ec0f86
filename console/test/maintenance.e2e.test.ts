import { afterEach, describe, expect, it } from 'vitest';
import { clickButton, loginAs, open, profileMenu, signedInUser, useConsole, waitForText } from './harness';

const MIN = 60_000;
const SCREEN_TEXT = 'The Clinical Portal is undergoing scheduled maintenance. Please check back soon.';

/** Maintenance windows created through the API drive the banner, the screen and the logout (spec 3 section 4.4). */
describe('console maintenance (browser)', () => {
  let admin: string;
  const created: string[] = [];

  const { h } = useConsole({
    seed: async (h) => {
      admin = (await signedInUser(h, 'ROLE_PORTAL_ADMIN')).authorization;
    },
  });
  afterEach(async () => {
    while (created.length) await h.api(admin, 'DELETE', `/portal/api/v1/maintenance/${created.pop()}`);
  });

  async function schedule(startIn: number, endIn: number, extra: Record<string, unknown> = {}) {
    const res = await h.api(admin, 'POST', '/portal/api/v1/maintenance', {
      startTime: Date.now() + startIn,
      endTime: Date.now() + endIn,
      title: 'Scheduled upgrade',
      ...extra,
    });
    expect(res.status).toBe(201);
    created.push(res.body.id);
    return res.body as { startTime: number; endTime: number };
  }
  const hasBanner = (page: import('puppeteer-core').Page) =>
    page.$('[data-testid="maintenance-banner"]').then((e) => e !== null);

  it('shows the banner only for a window starting within 60 minutes, with its day, start and end', async () => {
    await schedule(3 * 60 * MIN, 4 * 60 * MIN);
    const page = await h.newPage();
    await open(page, h, '/login');
    await page.waitForSelector('[data-testid="login-form"]');
    expect(await hasBanner(page)).toBe(false);

    const w = await schedule(30 * MIN, 90 * MIN);
    await open(page, h, '/login');
    const banner = await page.waitForSelector('[data-testid="maintenance-banner"]');
    const text = await banner!.evaluate((e) => (e as HTMLElement).innerText);
    const fmt = (ms: number) => {
      const d = new Date(ms);
      const h12 = d.getHours() % 12 || 12;
      return `${String(h12).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')} ${d.getHours() < 12 ? 'AM' : 'PM'}`;
    };
    const d = new Date(w.startTime);
    const day = `${String(d.getMonth() + 1).padStart(2, '0')}/${String(d.getDate()).padStart(2, '0')}/${d.getFullYear()}`;
    expect(text).toContain(day);
    expect(text).toContain(fmt(w.startTime));
    expect(text).toContain(fmt(w.endTime));
    await h.shot(page, 'maintenance-banner-login-en');

    // inside the shell too
    const user = await h.user('ROLE_NPI');
    await loginAs(page, h, user.loginId);
    await page.waitForSelector('[data-testid="maintenance-banner"]');
    await h.shot(page, 'maintenance-banner-shell-en');
  });

  it('a window whose displayTime is still ahead shows no banner yet', async () => {
    await schedule(30 * MIN, 90 * MIN, { displayTime: Date.now() + 20 * MIN });
    const page = await h.newPage();
    await open(page, h, '/login');
    await page.waitForSelector('[data-testid="login-form"]');
    expect(await hasBanner(page)).toBe(false);
  });

  it('replaces login with the maintenance screen during a window, with the TRF document to download', async () => {
    await schedule(-MIN, 30 * MIN);
    const page = await h.newPage();
    await open(page, h, '/login');
    await page.waitForSelector('[data-testid="maintenance-screen"]');
    await waitForText(page, SCREEN_TEXT);
    expect(await page.$('[data-testid="login-form"]')).toBeNull();
    const href = await page.$eval('[data-testid="download-trf"]', (a) => (a as HTMLAnchorElement).href);
    const pdf = await page.evaluate(async (u) => {
      const r = await fetch(u);
      const b = new Uint8Array(await r.arrayBuffer());
      return {
        status: r.status,
        type: r.headers.get('content-type'),
        head: String.fromCharCode(...b.slice(0, 5)),
      };
    }, href);
    expect(pdf).toEqual({ status: 200, type: 'application/pdf', head: '%PDF-' });
    await h.shot(page, 'maintenance-screen-en');
    const zh = await h.newPage({ locale: 'zh-CN' });
    await open(zh, h, '/login');
    await waitForText(zh, '临床门户正在进行计划维护');
    await h.shot(zh, 'maintenance-screen-zh');
  });

  it('lets an administrator schedule and cancel a window from the profile menu', async () => {
    const a = await h.user('ROLE_PORTAL_ADMIN');
    const page = await h.newPage();
    await loginAs(page, h, a.loginId);
    await profileMenu(page, 'menu-maintenance');
    await page.waitForSelector('[data-testid="maintenance-schedule"]');
    const local = (ms: number) =>
      new Date(ms - new Date(ms).getTimezoneOffset() * MIN).toISOString().slice(0, 16);
    const set = (name: string, value: string) =>
      page.$eval(
        `input[name="${name}"]`,
        (el, v) => {
          const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
          setter.call(el, v);
          el.dispatchEvent(new Event('input', { bubbles: true }));
        },
        value,
      );
    await set('startTime', local(Date.now() + 30 * MIN));
    await set('endTime', local(Date.now() + 90 * MIN));
    await page.click('[data-testid="maintenance-schedule"] button[type="submit"]');
    await page.waitForFunction(
      () => document.querySelectorAll('[data-testid="maintenance-windows"] tbody tr button').length === 1,
    );
    await h.shot(page, 'maintenance-admin-en');
    const list = await h.api(admin, 'GET', '/portal/api/v1/maintenance');
    expect(list.body).toHaveLength(1);
    // Close (not Escape: the key goes wherever the focus is after the save and its notification)
    await clickButton(page, 'Close', true);
    // the dialog gone (its backdrop would take the next click)
    await page.waitForSelector('[data-testid="maintenance-schedule"]', { hidden: true });
    // the banner follows the new window at once (not at the next 15-second refresh)
    await page.waitForSelector('[data-testid="maintenance-banner"]', { timeout: 10_000 });

    await profileMenu(page, 'menu-maintenance');
    await page.waitForSelector('[data-testid="maintenance-windows"] tbody tr button');
    await page.click('[data-testid="maintenance-windows"] tbody tr button');
    await page.waitForFunction(
      () => !document.querySelector('[data-testid="maintenance-windows"] tbody tr button'),
    );
    expect((await h.api(admin, 'GET', '/portal/api/v1/maintenance')).body).toHaveLength(0);
  });

  it('logs a signed-in user out when a window begins', async () => {
    const user = await h.user('ROLE_NPI');
    const page = await h.newPage();
    await loginAs(page, h, user.loginId);
    await page.goto(h.base + '/orders', { waitUntil: 'domcontentloaded' });
    await page.waitForSelector('[data-testid="tab-draft"]');
    await schedule(5_000, 30 * MIN);
    // the windows are fetched every 15 seconds and whenever the tab becomes visible again: the user comes back
    // to the tab, the console learns the window, and signs the user out when it begins 5 seconds from now
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await page.waitForSelector('[data-testid="maintenance-screen"]', { timeout: 20_000 });
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await page.evaluate(() => localStorage.getItem('oncotrf.session'))).toBeNull();
  });
});
