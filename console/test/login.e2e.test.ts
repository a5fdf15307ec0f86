import { describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { MSG } from '@onco/domain';
import {
  STORAGE,
  animationsDone,
  TEST_PASSWORD,
  bodyText,
  clickWhenReady,
  fill,
  profileMenu,
  loginWithForm,
  open,
  useConsole,
  waitForText,
} from './harness';

/** Submit the login form and wait for the answer (the password is cleared on a failure); the error's text. */
async function attempt(page: Page, username: string, password: string) {
  await fill(page, 'input[name="username"]', username);
  await fill(page, 'input[name="password"]', password);
  await page.click('[data-testid="login-submit"]');
  await page.waitForFunction(
    () =>
      (document.querySelector('input[name="password"]') as HTMLInputElement | null)?.value === '' &&
      !!document.querySelector('[data-testid="login-error"]'),
  );
  return page.$eval('[data-testid="login-error"]', (e) => (e as HTMLElement).innerText.trim());
}

/** Sign-in, lockout, menus by permission and the session's end (issue 3, browser tests). */
describe('console sign-in (browser)', () => {
  const { h } = useConsole();

  const submitDisabled = (page: Page) =>
    page.$eval('[data-testid="login-submit"]', (b) => (b as HTMLButtonElement).disabled);

  it('keeps Login disabled until both fields are filled, and refuses a wrong password', async () => {
    const user = await h.user('ROLE_NPI');
    const page = await h.newPage();
    await open(page, h, '/login');
    await waitForText(page, 'CANCER IS PERSONAL');
    await h.shot(page, 'login-en');
    expect(await submitDisabled(page)).toBe(true);
    await fill(page, 'input[name="username"]', '   ');
    await fill(page, 'input[name="password"]', 'x');
    expect(await submitDisabled(page)).toBe(true); // a blank username counts as empty
    await fill(page, 'input[name="username"]', user.loginId);
    await fill(page, 'input[name="password"]', '');
    expect(await submitDisabled(page)).toBe(true);
    await fill(page, 'input[name="password"]', 'a b'); // the space is refused by the field
    expect(await page.$eval('input[name="password"]', (i) => (i as HTMLInputElement).value)).toBe('ab');
    expect(await submitDisabled(page)).toBe(false);

    expect(await attempt(page, user.loginId, 'Wrong0Password')).toBe(MSG.authFailed);
    await h.shot(page, 'login-failed-en');
    expect(page.url()).toContain('/login');
  });

  it('locks the account after five wrong passwords and says so', async () => {
    const user = await h.user('ROLE_NPI');
    const page = await h.newPage();
    await open(page, h, '/login');
    for (let i = 1; i <= 4; i++)
      expect(await attempt(page, user.loginId, `Wrong${i}Password`)).toBe(MSG.authFailed);
    expect(await attempt(page, user.loginId, 'Wrong5Password')).toBe(MSG.locked);
    // even the right password now gets the locked message
    expect(await attempt(page, user.loginId, TEST_PASSWORD)).toBe(MSG.locked);
    await h.shot(page, 'login-locked-en');
  });

  it('shows an admin the Users menu and hides it from a provider, who is sent home from /users', async () => {
    const admin = await h.user('ROLE_PORTAL_ADMIN');
    const a = await h.newPage();
    await loginWithForm(a, h, admin.loginId);
    await a.waitForFunction(() => location.pathname === '/' || location.pathname === '/home');
    const adminMenu = await a.$$eval('[data-menu]', (els) => els.map((e) => e.getAttribute('data-menu')));
    expect(adminMenu).toEqual([
      'home',
      'orders',
      'patients',
      'kits',
      'tests',
      'billing',
      'messages',
      'box',
      'users',
      'audit',
    ]);
    await h.shot(a, 'home-admin-en');
    await a.click('[data-menu="users"]');
    await a.waitForFunction(() => location.pathname.startsWith('/users'));
    await a.waitForSelector('[data-menu="users"][aria-current="page"]');
    expect(await a.evaluate((k) => localStorage.getItem(k), STORAGE.activeMenu)).toBe('users');

    const provider = await h.user('ROLE_NPI');
    const p = await h.newPage();
    await loginWithForm(p, h, provider.loginId);
    const providerMenu = await p.$$eval('[data-menu]', (els) => els.map((e) => e.getAttribute('data-menu')));
    expect(providerMenu).not.toContain('users');
    expect(providerMenu).toContain('orders');
    await p.goto(h.base + '/users', { waitUntil: 'domcontentloaded' });
    await p.waitForFunction(() => location.pathname === '/home');
    await p.waitForSelector('[data-testid="home-page"]');
    expect(await bodyText(p)).not.toMatch(/\bUsers\b/);
    // an unknown path goes home too
    await p.goto(h.base + '/no-such-page', { waitUntil: 'domcontentloaded' });
    await p.waitForFunction(() => location.pathname === '/home');
  });

  it('sends an expired session to /login and back to the same page after signing in', async () => {
    const user = await h.user('ROLE_NPI');
    const page = await h.newPage();
    await loginWithForm(page, h, user.loginId);
    await page.goto(h.base + '/kits?tab=1', { waitUntil: 'domcontentloaded' });
    await page.waitForSelector('[data-testid="kits-page"]');
    // the server no longer accepts the token (as when it expires): the next call answers 401
    await page.evaluate((k) => {
      const s = JSON.parse(localStorage.getItem(k)!);
      s.token = s.token.slice(0, -4) + 'AAAA';
      localStorage.setItem(k, JSON.stringify(s));
    }, STORAGE.session);
    await profileMenu(page, 'menu-release-notes');
    await page.waitForFunction(() => location.pathname === '/login');
    expect(await page.evaluate((k) => localStorage.getItem(k), STORAGE.session)).toBeNull();
    await loginWithForm(page, h, user.loginId);
    await page.waitForFunction(() => location.pathname + location.search === '/kits?tab=1');

    // opening the app with a session the server no longer accepts: the session check sends it to /login too
    await page.evaluate((k) => {
      const s = JSON.parse(localStorage.getItem(k)!);
      s.token = s.token.slice(0, -4) + 'AAAA';
      localStorage.setItem(k, JSON.stringify(s));
    }, STORAGE.session);
    await page.goto(h.base + '/tests', { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => location.pathname === '/login');
    await loginWithForm(page, h, user.loginId);
    await page.waitForFunction(() => location.pathname === '/tests');
  });

  it('logs out from the profile menu, forgetting the menu, the session and the language', async () => {
    const user = await h.user('ROLE_NPI', { loginId: `dana.lee.${Date.now()}` });
    const page = await h.newPage();
    await loginWithForm(page, h, user.loginId);
    expect(await page.$eval('[data-testid="profile-menu"]', (e) => (e as HTMLElement).innerText)).toContain(
      'Test N.',
    );
    await clickWhenReady(page, '[data-testid="language-menu"]');
    await clickWhenReady(page, '[data-locale="zh-CN"]');
    await waitForText(page, '订单');
    // signing out happens once: a change of language after react-admin's logout used to loop (~1,800 logouts)
    const signOuts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'DELETE' && r.url().endsWith('/operations/queueBoard')) signOuts.push(r.url());
    });
    await profileMenu(page, 'menu-logout');
    await page.waitForFunction(() => location.pathname === '/login');
    await waitForText(page, 'Save Username');
    await animationsDone(page);
    expect(signOuts).toHaveLength(1);
    const kept = await page.evaluate(
      (keys) => keys.map((k) => localStorage.getItem(k)),
      [STORAGE.session, STORAGE.activeMenu, STORAGE.locale],
    );
    expect(kept).toEqual([null, null, null]);
  });
});

/** Sign-in's rate limit (AUTH_RATE_LIMIT_PER_MINUTE, docs/decisions.md "Rate limits"), as a person meets it. */
describe('console sign-in, too many attempts (browser)', () => {
  const { h } = useConsole({ config: { AUTH_RATE_LIMIT_PER_MINUTE: '2' } });

  it('says to wait, not that the password is wrong, once the limit is reached', async () => {
    const user = await h.user('ROLE_NPI');
    const page = await h.newPage();
    await open(page, h, '/login');
    await waitForText(page, 'CANCER IS PERSONAL');
    expect(await attempt(page, user.loginId, 'Wrong1Password')).toBe(MSG.authFailed);
    expect(await attempt(page, user.loginId, 'Wrong2Password')).toBe(MSG.authFailed);
    // the right password, but over the limit: the page says to wait
    expect(await attempt(page, user.loginId, TEST_PASSWORD)).toMatch(
      /^Too many attempts\. Please wait \d+ seconds? and try again\.$/,
    );
    expect(page.url()).toContain('/login');
    await h.shot(page, 'login-too-many-en');
  }, 60_000);
});
