import { describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { MSG } from '@onco/domain';
import { readMailbox } from '@onco/platform';
import {
  TEST_PASSWORD,
  fill,
  login,
  loginAs,
  loginWithForm,
  open,
  profileMenu,
  useConsole,
  waitForText,
} from './harness';

/** Change Password, Forgot Password and the e-mailed reset link (spec 3 sections 2.4, 2.7, 5 and 8). */
describe('console passwords (browser)', () => {
  const { h } = useConsole();

  const disabled = (page: Page, sel: string) => page.$eval(sel, (b) => (b as HTMLButtonElement).disabled);
  const rules = (page: Page) =>
    page.$$eval('[data-rule]', (els) =>
      Object.fromEntries(els.map((e) => [e.getAttribute('data-rule'), e.getAttribute('data-ok') === 'true'])),
    );

  it('Change Password enforces the live checklist and the password history', async () => {
    const user = await h.user('ROLE_NPI');
    const page = await h.newPage();
    await loginAs(page, h, user.loginId);
    await profileMenu(page, 'menu-change-password');
    await page.waitForSelector('[data-testid="change-password-form"]');
    const submit = '[data-testid="change-password-submit"]';
    expect(await disabled(page, submit)).toBe(true);

    await fill(page, 'input[name="oldPassword"]', TEST_PASSWORD);
    await fill(page, 'input[name="newPassword"]', 'short');
    expect(await rules(page)).toEqual({
      length: false,
      digit: false,
      upper: false,
      lower: true,
      match: false,
    });
    await fill(page, 'input[name="newPassword"]', 'Longer0ne');
    await fill(page, 'input[name="confirmPassword"]', 'Longer0nf');
    expect(await rules(page)).toEqual({ length: true, digit: true, upper: true, lower: true, match: false });
    expect(await disabled(page, submit)).toBe(true);
    await fill(page, 'input[name="confirmPassword"]', 'Longer0ne');
    expect(await rules(page)).toEqual({ length: true, digit: true, upper: true, lower: true, match: true });
    expect(await disabled(page, submit)).toBe(false);
    await h.shot(page, 'change-password-en');
    await page.click(submit);
    await waitForText(page, MSG.changePasswordOk);
    await h.shot(page, 'change-password-ok-en');
    expect((await login(h.sys, user.loginId, 'Longer0ne')).body.id).toBe(user._id);

    // going back to a password among the last four is refused with the spec's message
    await profileMenu(page, 'menu-change-password');
    await fill(page, 'input[name="oldPassword"]', 'Longer0ne');
    await fill(page, 'input[name="newPassword"]', TEST_PASSWORD);
    await fill(page, 'input[name="confirmPassword"]', TEST_PASSWORD);
    await page.click(submit);
    const err = await page.waitForSelector('[data-testid="change-password-error"]');
    expect(await err!.evaluate((e) => (e as HTMLElement).innerText.trim())).toBe(MSG.changePasswordFailed);
    await h.shot(page, 'change-password-history-en');
    expect((await login(h.sys, user.loginId, 'Longer0ne')).body.id).toBe(user._id);
  });

  it('Forgot Password: e-mail addresses only, company addresses told to contact IT, then the reset link works', async () => {
    const user = await h.user('ROLE_NPI', { email: `reset.${Date.now()}@clinic.example.org` });
    const page = await h.newPage();
    await open(page, h, '/login');
    await page.click('[data-testid="forgot-link"]');
    await page.waitForSelector('[data-testid="forgot-form"]');
    const reset = '[data-testid="forgot-submit"]';
    await fill(page, 'input[name="email"]', 'not-an-address');
    expect(await disabled(page, reset)).toBe(true);
    await fill(page, 'input[name="email"]', `  it.person@${h.sys.config.COMPANY_EMAIL_DOMAIN}  `);
    expect(await disabled(page, reset)).toBe(false);
    await page.click(reset);
    const err = await page.waitForSelector('[data-testid="forgot-error"]');
    expect(await err!.evaluate((e) => (e as HTMLElement).innerText.trim())).toBe(MSG.contactIt);
    expect(await readMailbox(h.sys.config.MAILBOX_DIR)).toHaveLength(0);
    await h.shot(page, 'forgot-password-en');

    await fill(page, 'input[name="email"]', user.email);
    await page.click(reset);
    await page.waitForSelector('[data-testid="forgot-sent"]');
    await waitForText(page, MSG.resetEmailSent);
    await h.shot(page, 'forgot-password-sent-en');

    const mail = (await readMailbox(h.sys.config.MAILBOX_DIR)).find((m) => m.to === user.email);
    const link = /https?:\/\/\S+reset-password\?token=\S+/.exec(mail!.text)![0];
    await page.goto(link, { waitUntil: 'domcontentloaded' });
    await page.waitForSelector('[data-testid="reset-form"]');
    expect(new URL(page.url()).pathname).toBe('/reset-password');
    await fill(page, 'input[name="newPassword"]', 'Fresh1pass');
    expect(await disabled(page, '[data-testid="reset-submit"]')).toBe(true);
    await fill(page, 'input[name="confirmPassword"]', 'Fresh1pass');
    await h.shot(page, 'reset-password-en');
    await page.click('[data-testid="reset-submit"]');
    await page.waitForSelector('[data-testid="reset-done"]');
    await open(page, h, '/login');
    await loginWithForm(page, h, user.loginId, 'Fresh1pass');
  });
});
