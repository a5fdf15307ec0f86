import { describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { completeForm } from '@onco/requisitions/testing';
import {
  animationsDone,
  bodyText,
  clickWhenReady,
  login,
  loginAs,
  open,
  profileMenu,
  useConsole,
  waitForText,
} from './harness';

/**
 * Every main page of the shell in English and in Simplified Chinese, saved under .data/screenshots (git-ignored)
 * for a person to look at; checks that no raw translation key reaches the screen.
 */
describe('console screens in English and Chinese (browser)', () => {
  const { h } = useConsole({
    seed: async (h) => {
      const now = new Date();
      await h.sys.ctx.mongo.collection('release_notes').insertOne({
        _id: 'rn-1-2-0',
        majorRevision: 1,
        minorRevision: 2,
        patchRevision: 0,
        revisionOrder: 10200,
        name: 'Clinical Portal 1.2',
        featureNoteVOs: [
          {
            title: 'Ordering',
            featureNoteItemVOs: [
              { title: 'Save a requisition as a draft and finish it later', subFeatureNoteItemVOs: [] },
              {
                title: 'Sign requisitions with your portal password',
                subFeatureNoteItemVOs: [{ title: 'A PDF of the signed form is kept with the order' }],
              },
            ],
          },
          {
            title: 'Account',
            featureNoteItemVOs: [
              { title: 'Change your password from the profile menu', subFeatureNoteItemVOs: [] },
            ],
          },
        ],
        deleted: false,
        version: 0,
        createdOn: now,
        updatedOn: now,
      } as any);
    },
  });

  /** No react-admin or app key (app.x.y, ra.x.y, lists.x) left untranslated on the page. */
  async function noRawKeys(page: Page) {
    const text = await bodyText(page);
    expect(text).not.toMatch(/\b(app|ra|lists|dialogs|users)\.[a-z]+\.[a-zA-Z_.]+/);
  }

  for (const locale of ['en', 'zh-CN'] as const) {
    const tag = locale === 'en' ? 'en' : 'zh';
    const zh = locale === 'zh-CN';

    it(`public pages (${locale})`, async () => {
      const page = await h.newPage({ locale });
      await open(page, h, '/login');
      await waitForText(page, zh ? '登录临床门户' : 'Sign in to the Clinical Portal');
      await noRawKeys(page);
      await h.shot(page, `login-${tag}`, { always: true });
      await open(page, h, '/forgot-password');
      await page.waitForSelector('[data-testid="forgot-form"]');
      await noRawKeys(page);
      await h.shot(page, `forgot-password-${tag}`, { always: true });
      await open(page, h, '/tac');
      await waitForText(page, zh ? '医疗服务提供者及申办方使用条款' : 'Provider & Sponsor Terms of Use');
      expect(await page.$$eval('[data-testid="certifications"] li', (l) => l.length)).toBe(6);
      await noRawKeys(page);
      await h.shot(page, `terms-${tag}`, { always: true });
      await open(page, h, '/reset-password?token=abcdefghijklmnop');
      await page.waitForSelector('[data-testid="reset-form"]');
      await h.shot(page, `reset-password-${tag}`, { always: true });
    });

    it(`the shell and its dialogs (${locale})`, async () => {
      const admin = await h.user('ROLE_PORTAL_ADMIN');
      const page = await h.newPage({ locale });
      await loginAs(page, h, admin.loginId);
      await page.waitForSelector('[data-testid="home-page"]');
      await noRawKeys(page);
      await h.shot(page, `home-${tag}`, { always: true });

      await clickWhenReady(page, '[data-menu="users"]');
      await page.waitForFunction(() => location.pathname === '/users');
      await page.waitForFunction(
        () =>
          !document.body.innerText.includes('Loading....') && !document.body.innerText.includes('加载中....'),
      );
      await animationsDone(page);
      await noRawKeys(page);
      await h.shot(page, `users-${tag}`, { always: true });

      await clickWhenReady(page, '[data-menu="orders"]');
      await page.waitForSelector('[data-testid="tab-draft"]'); // the orders list (resources/orders/list)
      await noRawKeys(page);
      await h.shot(page, `orders-${tag}`, { always: true });

      await clickWhenReady(page, '[data-testid="help-button"]');
      await waitForText(page, zh ? '客户服务时间' : 'Client-services hours: Monday-Friday 9 AM-5 PM PST');
      await h.shot(page, `contact-${tag}`, { always: true });
      await page.keyboard.press('Escape');

      await profileMenu(page, 'menu-about');
      await page.waitForSelector('[data-testid="about-table"]');
      await h.shot(page, `about-${tag}`, { always: true });
      await page.keyboard.press('Escape');

      await profileMenu(page, 'menu-release-notes');
      await page.waitForSelector('[data-testid="release-note"]');
      await waitForText(page, 'Sign requisitions with your portal password');
      await h.shot(page, `release-notes-${tag}`, { always: true });
      await page.keyboard.press('Escape');

      await profileMenu(page, 'menu-change-password');
      await page.waitForSelector('[data-testid="password-checklist"]');
      await noRawKeys(page);
      await h.shot(page, `change-password-${tag}`, { always: true });
    });
  }

  it('the order wizard in Chinese: option labels and the consent text', async () => {
    const account = { id: 'acc-screens', name: 'Alpha Oncology' };
    const npi = await h.user('ROLE_NPI', { account, physicianId: 'phy-screens' } as never);
    const auth = (await login(h.sys, npi.loginId)).authorization;
    const d = await h.api(auth, 'POST', '/portal/api/v1/testOrderForms', {
      ...completeForm({ accountId: account.id, physicianId: 'phy-screens' }),
      currentStep: undefined,
    });
    expect(d.status, JSON.stringify(d.body)).toBe(200);
    const page = await h.newPage({ locale: 'zh-CN' });
    await loginAs(page, h, npi.loginId);
    await open(page, h, `/order/${d.body.id}`);
    await waitForText(page, '检测申请单');
    await clickWhenReady(page, '[data-step="specimen"]:not([disabled])');
    await waitForText(page, '肿瘤标本');
    const specimen = await bodyText(page);
    for (const s of ['肺', '乳腺', 'FFPE 蜡块', '诊所采集']) expect(specimen, s).toContain(s);
    expect(specimen).not.toMatch(/\bwizard\.[a-zA-Z]+\.[a-zA-Z_.]+/);
    await h.shot(page, 'wizard-specimen-zh');
    await clickWhenReady(page, '[data-step="authorization"]:not([disabled])');
    await waitForText(page, '签署本申请单即表示本人证明');
    await h.shot(page, 'wizard-authorization-zh');
  });
});
