/**
 * Browser test, Test Kits (/kits, spec 2 section 2.10): a provider sees "No kits requested", fills the request form
 * (Submit enabled only once every required field has a value), gets the spec's toast and sees the request in the
 * table; a wrong ZIP code is shown on its field and nothing is sent; a pathologist (no VIEW_KITS_ACTIONS) sees the
 * table without the form. Real backend and store, headless chromium.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import { clickWhenReady, fill, loginAs, open, useConsole, waitForText } from '../../../test/harness';
import { referenceModels } from '../../../../services/reference/src/index';
import { messagesModels } from '../../../../services/messages/src/models';

async function choose(page: Page, testId: string, value: string) {
  await page.waitForSelector(`[data-testid="${testId}"]`);
  await page.evaluate((id) => {
    const input = document.querySelector(`[data-testid="${id}"]`) as HTMLElement;
    const combo = input.parentElement!.querySelector('[role="combobox"]') as HTMLElement;
    combo.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
  }, testId);
  // a DOM click on the option (the menu's opening animation moves it under the mouse)
  await page.waitForSelector(`li[data-value="${value}"]`, { visible: true });
  await page.$eval(`li[data-value="${value}"]`, (li) => (li as HTMLElement).click());
  await page.waitForFunction(() => !document.querySelector('[role="listbox"]'));
}

const disabled = (page: Page) =>
  page.$eval('[data-testid="kit-submit"]', (b) => (b as HTMLButtonElement).disabled);

describe('test kits: request and list (real backend, chromium)', () => {
  const account = { id: 'acc-kits', name: 'Harbor Oncology' };
  const { h, npi, pathologist } = useConsole({
    users: { npi: ['ROLE_NPI', { account }], pathologist: ['ROLE_PATHOLOGIST', { account }] },
    timeout: 180_000,
    seed: async (h) => {
      await referenceModels(h.sys.ctx.mongo).Account.create({
        _id: account.id,
        accountId: 'K-100',
        name: account.name,
      });
    },
  });

  it('a provider requests kits and sees them listed', async () => {
    const page = await h.newPage({ width: 1440, height: 1000 });
    await loginAs(page, h, npi.loginId);
    await open(page, h, '/kits');
    await waitForText(page, 'Test Kits');
    await waitForText(page, 'No kits requested');
    expect(await disabled(page)).toBe(true);

    await choose(page, 'kit-testKitType', 'STRECK');
    await fill(page, '[data-testid="kit-numberOfKits"]', '12');
    await fill(page, '[data-testid="kit-recipient"]', 'Dr. Ada Lovelace');
    await fill(page, '[data-testid="kit-street"]', '1 Harbor Dr');
    await fill(page, '[data-testid="kit-city"]', 'San Diego');
    await fill(page, '[data-testid="kit-state"]', 'CA');
    await clickWhenReady(page, 'li[role="option"]');
    await fill(page, '[data-testid="kit-postalCode"]', '9210');
    await choose(page, 'kit-shippingRequest', 'OVER_NIGHT');
    expect(await disabled(page)).toBe(false);

    // a wrong ZIP code: shown on the field, nothing sent
    await clickWhenReady(page, '[data-testid="kit-submit"]');
    await waitForText(page, 'Enter a ZIP code as 12345 or 12345-6789');
    expect(await messagesModels(h.sys.ctx.mongo).KitRequest.countDocuments().exec()).toBe(0);

    await fill(page, '[data-testid="kit-postalCode"]', '92101');
    await clickWhenReady(page, '[data-testid="kit-submit"]');
    await waitForText(page, 'Your Kit Request Has Been Received.');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="kits-table"]')?.textContent?.includes('Dr. Ada Lovelace'),
      { timeout: 30_000 },
    );
    const table = await page.$eval('[data-testid="kits-table"]', (e) => e.textContent ?? '');
    expect(table).toContain('Streck cfDNA blood kit');
    expect(table).toContain('12');
    expect(table).toContain('Overnight');
    // the form is empty again
    expect(await page.$eval('[data-testid="kit-recipient"]', (e) => (e as HTMLInputElement).value)).toBe('');
    const stored = await messagesModels(h.sys.ctx.mongo).KitRequest.findOne().lean().exec();
    expect(stored).toMatchObject({
      numberOfKits: 12,
      state: 'CA',
      postalCode: '92101',
      account: { id: 'acc-kits', name: 'Harbor Oncology' },
      createdBy: npi._id,
    });
    await h.shot(page, 'kits-en');
  }, 180_000);

  it('a pathologist sees the table without the request form', async () => {
    const page = await h.newPage({ width: 1440, height: 900 });
    await loginAs(page, h, pathologist.loginId);
    await open(page, h, '/kits');
    await waitForText(page, 'Test Kits');
    await page.waitForSelector('[data-testid="kits-table"]');
    // the table's rows come after it (Loading.... first): wait for the empty text rather than read it at once
    await waitForText(page, 'No kits requested');
    expect(await page.$('[data-testid="kit-form"]')).toBeNull();
  }, 120_000);

  it('in Chinese, the form’s field messages are Chinese too', async () => {
    const page = await h.newPage({ locale: 'zh-CN', width: 1440, height: 1000 });
    await loginAs(page, h, npi.loginId);
    await open(page, h, '/kits');
    await waitForText(page, '检测试剂盒');
    await choose(page, 'kit-testKitType', 'STRECK');
    await fill(page, '[data-testid="kit-numberOfKits"]', '1001');
    await fill(page, '[data-testid="kit-recipient"]', 'Dr. Ada Lovelace');
    await fill(page, '[data-testid="kit-street"]', '1 Harbor Dr');
    await fill(page, '[data-testid="kit-city"]', 'San Diego 9');
    await fill(page, '[data-testid="kit-state"]', 'CA');
    await clickWhenReady(page, 'li[role="option"]');
    await fill(page, '[data-testid="kit-postalCode"]', '9210');
    await choose(page, 'kit-shippingRequest', 'GROUND');
    await clickWhenReady(page, '[data-testid="kit-submit"]');
    await waitForText(page, '请输入 12345 或 12345-6789 格式的邮政编码');
    await waitForText(page, '请输入 1 到 1000 之间的整数');
    await waitForText(page, '城市名称只能包含字母、连字符、句点和空格');
    expect(await page.evaluate(() => document.body.innerText)).not.toContain('Enter a ZIP code');
    await h.shot(page, 'kits-errors-zh');
  }, 120_000);
});
