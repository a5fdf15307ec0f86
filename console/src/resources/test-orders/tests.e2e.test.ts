/**
 * Browser test, the lab journey on tests: an accessioner opens Tests filtered from the home counter, opens a
 * test, updates its status, uploads a report and sets a due date, and the test detail (timeline, history,
 * reports) shows it; a provider of the account sees the report but no lab action. Real backend, headless
 * chromium; screenshots in English and Chinese.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ElementHandle, Page } from 'puppeteer-core';
import {
  blankPdf,
  bodyText,
  clickWhenReady,
  login,
  loginAs,
  open,
  submitRequisition,
  until,
  useConsole,
  waitForText,
} from '../../../test/harness';

const ACCOUNT = { id: 'acc-tests-e2e', name: 'Lakeside Oncology' };
const PHYSICIAN = 'phy-tests-e2e';

/** A small real PDF (one blank page): what a lab report looks like to the upload's content check. */
function pdfFile(): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'oncotrf-report-')), 'report.pdf');
  writeFileSync(file, blankPdf());
  return file;
}

async function chooseStatus(page: Page, status: string) {
  await clickWhenReady(page, '.MuiDialog-paper [role="combobox"]');
  await clickWhenReady(page, `li[data-value="${status}"]`);
  await page.waitForFunction(() => !document.querySelector('.MuiPopover-paper li'));
  await clickWhenReady(page, '[data-testid="status-update"]');
  await page.waitForFunction(() => !document.querySelector('.MuiDialog-paper'), { timeout: 20_000 });
}

describe('tests list and test detail: the lab journey (real backend, chromium)', () => {
  let labAuth = '';
  const tests: Array<{ id: string; testOrderId: string }> = [];

  const { h, lab, provider } = useConsole({
    users: { lab: 'ROLE_ACCESSIONER', provider: ['ROLE_NPI', { account: ACCOUNT, physicianId: PHYSICIAN }] },
    signIn: ['lab'],
    timeout: 240_000,
    seed: async (h, { lab }) => {
      labAuth = lab.authorization;
      for (let i = 0; i < 2; i++) {
        const sub = await submitRequisition(h, labAuth, {
          account: ACCOUNT,
          physicianId: PHYSICIAN,
          patientId: null,
        });
        tests.push({ id: sub.testOrders[0].id, testOrderId: sub.testOrders[0].testOrderId });
      }
      // the lab creates the test orders from the requisition-submitted events
      let list: { body: any } | undefined;
      await until(
        () => `the test orders: ${JSON.stringify(list?.body)}`,
        async () => {
          list = await h.api(labAuth, 'GET', '/oms/api/v1/testOrders?filter=%7B%7D&perPage=50');
          const ids = (list.body?.content ?? []).map((x: { id: string }) => x.id);
          return tests.every((x) => ids.includes(x.id));
        },
      );
    },
  });

  it('home counter → Tests filtered → test detail → Update Status → Upload Report → Due Date', async () => {
    const page = await h.newPage({ width: 1500, height: 1000 });
    await loginAs(page, h, lab.loginId);
    await open(page, h, '/home');
    await clickWhenReady(page, '[data-testid="status-TEST_ORDERED"]');
    await page.waitForFunction(() => location.pathname === '/tests');
    await waitForText(page, 'Test Orders');
    await page.waitForSelector('[data-testid="nav-status"]');
    for (const x of tests) await waitForText(page, x.testOrderId);
    expect(await bodyText(page)).toContain('Lakeside Oncology');
    await h.shot(page, 'tests-list-en');

    // open the first test from its Test # link
    const target = tests[0];
    await page.evaluate((num) => {
      const a = [...document.querySelectorAll('a')].find((x) => x.textContent?.trim() === num) as HTMLElement;
      a.click();
    }, target.testOrderId);
    await page.waitForFunction((id) => location.pathname === `/test/${id}`, {}, target.id);
    await waitForText(page, `Test Order ${target.testOrderId}`);
    await page.waitForSelector('[data-testid="timeline"]');
    await waitForText(page, 'Test Ordered');

    // Update Status: In Progress
    await clickWhenReady(page, '[data-testid="action-status"]');
    await chooseStatus(page, 'IN_PROGRESS');
    await page.waitForFunction(
      () => document.querySelector('[data-testid="test-status"]')?.textContent?.includes('In Progress'),
      { timeout: 20_000 },
    );
    await waitForText(page, 'Status changed');

    // Upload Report: a PDF → Report Complete, version 1 listed
    await clickWhenReady(page, '[data-testid="action-report"]');
    const input = (await page.waitForSelector(
      '.MuiDialog-paper input[type="file"]',
    )) as ElementHandle<HTMLInputElement>;
    await input.uploadFile(pdfFile());
    await page.evaluate(() => {
      const b = [...document.querySelectorAll('.MuiDialog-paper button')].find(
        (x) => x.textContent?.trim() === 'Upload',
      ) as HTMLButtonElement;
      b.click();
    });
    await page.waitForFunction(
      () => document.querySelector('[data-testid="test-status"]')?.textContent?.includes('Report Complete'),
      { timeout: 30_000 },
    );
    await page.waitForSelector('[data-testid="report-v1"]');
    await waitForText(page, 'Report uploaded');
    // the order's timeline tells it too (projected from the test-status event)
    await waitForText(page, `Test ${target.testOrderId}: report version 1 uploaded`, 45_000);

    // Update Due Date: 10 days ahead
    const due = new Date(Date.now() + 10 * 86_400_000);
    const us = `${String(due.getUTCMonth() + 1).padStart(2, '0')}/${String(due.getUTCDate()).padStart(2, '0')}/${due.getUTCFullYear()}`;
    await clickWhenReady(page, '[data-testid="action-due"]');
    await page.type('[data-testid="due-input"]', us);
    await clickWhenReady(page, '[data-testid="due-update"]');
    await page.waitForFunction(() => !document.querySelector('.MuiDialog-paper'), { timeout: 20_000 });
    await page.waitForFunction(
      (d) => document.querySelector('[data-testid="test-fields"]')?.textContent?.includes(d),
      {},
      us,
    );
    await h.shot(page, 'test-detail-en');

    // the server has it: history entries for status, report and due date
    const doc = await h.api(labAuth, 'GET', `/oms/api/v1/testOrders/${target.id}`);
    expect(doc.body.status).toBe('REPORT_COMPLETE');
    // the first entry: the test ordered, by the submitter (change 'created')
    expect(doc.body.testHistories.map((x: { change: string }) => x.change)).toEqual([
      'created',
      'status',
      'report',
      'due-date',
    ]);
  }, 180_000);

  it('a provider sees the test and its report, but no lab action', async () => {
    const target = tests[0];
    const page = await h.newPage({ width: 1400, height: 900 });
    await loginAs(page, h, provider.loginId);
    await open(page, h, `/test/${target.id}`);
    await waitForText(page, `Test Order ${target.testOrderId}`);
    await page.waitForSelector('[data-testid="report-v1"]');
    expect(await page.$('[data-testid="action-status"]')).toBeNull();
    expect(await page.$('[data-testid="action-report"]')).toBeNull();
    // the due date the lab set and the LIMS project are the lab's (spec 2 section 6): not shown, and the
    // server did not send them (the test's reply has neither)
    await waitForText(page, `Test ${target.testOrderId}: report version 1 uploaded`, 45_000);
    const text = await bodyText(page);
    expect(text).not.toMatch(/due date/i);
    expect(text).not.toContain('LIMS Project #');
    await clickWhenReady(page, '[data-testid="report-v1"]');
    await waitForText(page, 'Test Report');
    // the server refuses the action too
    const auth = (await login(h.sys, provider.loginId)).authorization;
    const res = await h.api(auth, 'POST', '/oms/api/v1/testOrders/updateTestsStatus', {
      uuids: [target.id],
      status: 'CANCELLED',
    });
    expect(res.status).toBe(403);
    const seen = await h.api(auth, 'GET', `/oms/api/v1/testOrders/${target.id}`);
    expect(seen.body).not.toHaveProperty('dueOn');
    expect(seen.body).not.toHaveProperty('limsProjectId');
    // and the Tests list has no Due Date, Test Duration or LIMS Project # column for them
    await open(page, h, '/tests');
    await waitForText(page, target.testOrderId);
    const heads = await page.$$eval('th', (ths) => ths.map((th) => th.textContent ?? ''));
    expect(heads.join('|')).not.toMatch(/Due Date|Test Duration|LIMS Project/);
    expect(heads.length).toBeGreaterThan(3);
  }, 120_000);

  it('the Tests list and the test detail in Chinese', async () => {
    const page = await h.newPage({ locale: 'zh-CN', width: 1500, height: 1000 });
    await loginAs(page, h, lab.loginId);
    await open(page, h, '/tests');
    await waitForText(page, '检测订单');
    for (const x of tests) await waitForText(page, x.testOrderId);
    await h.shot(page, 'tests-list-zh');
    await open(page, h, `/test/${tests[0].id}`);
    await waitForText(page, `检测订单 ${tests[0].testOrderId}`);
    await waitForText(page, '检测历史');
    await h.shot(page, 'test-detail-zh');
  }, 120_000);
});
