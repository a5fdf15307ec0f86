/**
 * Browser test, the billing journey: a test reaches REPORT_COMPLETE and its order's billing review is set to
 * REVIEW_COMPLETE (in the order's Billing tab); billing staff find the case on /billing, assign it, set its billing
 * code (it qualifies), submit it and watch it accepted by the billing system (the gateway stand-in), open its
 * History; a second case is rejected and its error details open from the Billing Status link. Real backend
 * (workers, Kafka, the store, Redis) and the billing gateway stand-in; headless chromium; English and Chinese.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import {
  bodyText,
  clickWhenReady,
  loginAs,
  open,
  submitRequisition,
  until,
  useConsole,
  waitForText,
} from '../../../test/harness';
import {
  startGatewayStandin,
  type GatewayStandin,
} from '../../../../services/billing/src/submission/gateway-standin';
import { billingModels } from '../../../../services/billing/src/index';
import { fixtureFiles, importIcd10, referenceModels } from '../../../../services/reference/src/index';

const RQ = '/portal/api/v1/testOrderForms';
const BIS = '/bis/api/v1';

async function action(page: Page, key: string) {
  await clickWhenReady(page, '[data-testid="billing-actions"]');
  await clickWhenReady(page, `[data-testid="billing-action-${key}"]:not(.Mui-disabled)`);
}

async function selectRow(page: Page, id: string) {
  await page.waitForSelector(`[data-testid="row-${id}"] input[type="checkbox"]`);
  await page.click(`[data-testid="row-${id}"] input[type="checkbox"]`);
}

describe('billing cases: assign, code, submit, history, errors (real backend, gateway stand-in, chromium)', () => {
  let gateway: GatewayStandin;
  let auth = '';
  const cases: Array<{ id: string; testId: string }> = [];

  const { h, admin } = useConsole({
    config: async () => {
      gateway = await startGatewayStandin({
        dir: mkdtempSync(path.join(os.tmpdir(), 'oncotrf-gw-')),
        slowMs: 2_000,
      });
      return { WORKERS: 'true', BILLING_GATEWAY_URL: gateway.url, BILLING_SUBMIT_BACKOFF_MS: '200' };
    },
    users: { admin: 'ROLE_ADMINISTRATOR' },
    signIn: ['admin'],
    timeout: 300_000,
    teardown: async () => gateway?.close(),
    seed: async (h) => {
      auth = admin.authorization;
      // the ICD-10-CM catalog the pre-submit checks look the orders' codes up in
      await importIcd10(referenceModels(h.sys.ctx.mongo).Icd10Code, fixtureFiles().icd10);
      await billingModels(h.sys.ctx.mongo).BillingSpecialist.create({
        _id: 'spec-bea',
        name: 'Bea Biller',
        email: 'bea.biller@oncotrf.example.com',
        searchText: 'bea biller bea.biller@oncotrf.example.com',
        active: true,
      });
      for (let i = 0; i < 2; i++) {
        const sub = await submitRequisition(h, auth, {
          account: { id: 'acc-bill' },
          physicianId: 'phy-bill',
          patientId: null,
        });
        const testId = sub.testOrders[0].id;
        await until(
          'the lab test order',
          async () => (await h.api(auth, 'GET', `/oms/api/v1/testOrders/${testId}`)).status === 200,
        );
        for (const status of ['IN_PROGRESS', 'REPORT_COMPLETE'])
          expect(
            (
              await h.api(auth, 'POST', '/oms/api/v1/testOrders/updateTestsStatus', {
                uuids: [testId],
                status,
              })
            ).status,
          ).toBe(200);
        if (i === 1) {
          // the second order's review through the API (the first one's through its Billing tab, below)
          const r = await h.api(auth, 'PUT', `${RQ}/${sub.id}/billingReview`, { status: 'REVIEW_COMPLETE' });
          expect(r.status, JSON.stringify(r.body)).toBe(200);
        }
        const c = await until('the billing case', async () => {
          const res = await h.api(
            auth,
            'GET',
            `${BIS}/billingCases?filter=${encodeURIComponent(JSON.stringify({ testOrderId: testId }))}`,
          );
          const row = res.body?.content?.[0];
          return row && row.testStatus === 'REPORT_COMPLETE' ? row : null;
        });
        cases.push({ id: c.id, testId: c.testId });
        (cases[i] as Record<string, unknown>).requisitionId = sub.id;
      }
    },
  });

  it('review complete in the order, then assign, billing code, Submit → accepted, History', async () => {
    const [a] = cases as Array<{ id: string; testId: string; requisitionId: string }>;
    const page = await h.newPage({ width: 1600, height: 1000 });
    await loginAs(page, h, admin.loginId);

    // the billing review status, set on the order's Billing tab (CAN_EDIT_BILLING)
    await open(page, h, `/order/${a.requisitionId}/summary/billing`);
    await page.waitForSelector('[data-testid="billing-review-select"]');
    await page.evaluate(() => {
      const input = document.querySelector('[data-testid="billing-review-select"]') as HTMLElement;
      const combo = input.parentElement!.querySelector('[role="combobox"]') as HTMLElement;
      combo.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    });
    await clickWhenReady(page, 'li[data-value="REVIEW_COMPLETE"]');
    await waitForText(page, 'The billing review status has been updated');
    await until('the case review status', async () => {
      const res = await h.api(auth, 'GET', `${BIS}/billingCases/${a.id}`);
      return res.body?.reviewStatus === 'REVIEW_COMPLETE';
    });

    await open(page, h, '/billing');
    await waitForText(page, 'Billing Cases');
    await waitForText(page, a.testId);
    // not qualified yet: no billing code, Submit disabled
    expect(
      await page.$eval(`[data-testid="billing-submit-${a.id}"]`, (b) => (b as HTMLButtonElement).disabled),
    ).toBe(true);

    await selectRow(page, a.id);
    await action(page, 'assign');
    await page.type('[data-testid="billing-assign-input"]', 'Be');
    await clickWhenReady(page, '[role="option"]');
    await clickWhenReady(page, '[data-testid="billing-assign-save"]');
    await waitForText(page, 'Billing User assigned successfully');
    await waitForText(page, 'Bea Biller');

    await selectRow(page, a.id);
    await action(page, 'billingCode');
    await page.type('[data-testid="billing-billingCode-input"]', 'ACC-81479');
    await clickWhenReady(page, '[data-testid="billing-billingCode-save"]');
    await waitForText(page, 'Billing Code updated successfully');
    await page.waitForFunction(
      (id) =>
        !(document.querySelector(`[data-testid="billing-submit-${id}"]`) as HTMLButtonElement | null)
          ?.disabled,
      { timeout: 30_000 },
      a.id,
    );
    await clickWhenReady(page, `[data-testid="billing-submit-${a.id}"]`);
    await waitForText(page, 'Submitted successfully');

    const accepted = await until('the case accepted', async () => {
      const res = await h.api(auth, 'GET', `${BIS}/billingCases/${a.id}`);
      return res.body?.caseStatus === 'ACCEPTED_BY_XIFIN' ? res.body : null;
    });
    expect(gateway.claims().filter((c) => c.key.startsWith(`${a.id}:`))).toHaveLength(1);
    expect(accepted.assignee).toMatchObject({ name: 'Bea Biller' });

    await page.reload();
    await waitForText(page, a.testId);
    await clickWhenReady(page, `[data-testid="billing-history-${a.id}"]`);
    await waitForText(page, 'Billing Case History');
    await page.waitForSelector('[data-testid="billing-history"]');
    const history = await bodyText(page);
    expect(history).toContain('Accepted by XIFIN');
    expect(history).toContain('Queued For Submission');
    // who changed what: the assignee and the billing code by the signed-in user, the sending by the system
    expect(history).toContain('Assigned To: — → Bea Biller');
    expect(history).toContain('Billing Code: — → ACC-81479');
    expect(history).toMatch(/by Test [A-Z_]+/);
    expect(history).toContain('by system');
    await h.shot(page, 'billing-history-en');
  }, 240_000);

  it('a rejected case shows its error details from the Billing Status link', async () => {
    const b = cases[1];
    expect((await h.api(auth, 'POST', `${BIS}/billing/${b.id}/billingCode/REJ-0001`)).status).toBe(200);
    expect((await h.api(auth, 'POST', `${BIS}/billing/submit/${b.id}`)).status).toBe(200);
    await until('the case rejected', async () => {
      const res = await h.api(auth, 'GET', `${BIS}/billingCases/${b.id}`);
      return res.body?.caseStatus === 'REJECTED_BY_XIFIN';
    });
    const page = await h.newPage({ width: 1600, height: 1000 });
    await loginAs(page, h, admin.loginId);
    await open(page, h, '/billing');
    await clickWhenReady(page, `[data-testid="billing-error-${b.id}"]`);
    await waitForText(page, 'Billing Case Error Details');
    const details = await page.$eval('[data-testid="billing-error-details"]', (e) => e.textContent ?? '');
    expect(details.trim().length).toBeGreaterThan(3);
    await h.shot(page, 'billing-error-en');
  }, 120_000);

  it('needs attention: the dashboard counter opens the view, the case is fixed and resubmitted in bulk', async () => {
    const [a, b] = cases;
    const page = await h.newPage({ width: 1600, height: 1000 });
    await loginAs(page, h, admin.loginId);
    await open(page, h, '/');
    await page.waitForSelector('[data-testid="billing-needs-attention"]');
    await clickWhenReady(page, '[data-testid="billing-needs-attention"]');
    await waitForText(page, 'Billing Cases');
    // the view is on: the rejected case is listed, the accepted one is not
    await page.waitForSelector(`[data-testid="row-${b.id}"]`);
    expect(await page.$(`[data-testid="row-${a.id}"]`)).toBeNull();
    expect(
      await page.$eval(
        '[data-testid="billing-needs-attention-toggle"] input',
        (i) => (i as HTMLInputElement).checked,
      ),
    ).toBe(true);

    // fixed (a billing code the billing system takes), then submitted again from the view
    expect((await h.api(auth, 'POST', `${BIS}/billing/${b.id}/billingCode/ACC-0001`)).status).toBe(200);
    await selectRow(page, b.id);
    await action(page, 'submit');
    await waitForText(page, 'Submit billing cases');
    await clickWhenReady(page, '[data-testid="billing-bulk-confirm"]');
    await page.waitForSelector(`[data-testid="billing-bulk-result-${b.id}"]`);
    expect(await bodyText(page)).toContain('1 of 1 billing cases submitted');
    await h.shot(page, 'billing-bulk-submit-en');
    await until('the resubmitted case accepted', async () => {
      const res = await h.api(auth, 'GET', `${BIS}/billingCases/${b.id}`);
      return res.body?.caseStatus === 'ACCEPTED_BY_XIFIN';
    });
    expect(gateway.claims().filter((c) => c.key === `${b.id}:2`)).toHaveLength(1);
  }, 120_000);

  it('closes an accepted case as Billing Complete with a reason: the Completed chip, the history tells why', async () => {
    const a = cases[0];
    const page = await h.newPage({ width: 1600, height: 1000 });
    await loginAs(page, h, admin.loginId);
    await open(page, h, '/billing');
    await page.waitForSelector(`[data-testid="row-${a.id}"] [data-testid="billing-status-group"]`);
    expect(
      await page.$eval(
        `[data-testid="row-${a.id}"] [data-testid="billing-status-group"]`,
        (e) => e.textContent,
      ),
    ).toBe('Completed');
    await selectRow(page, a.id);
    await action(page, 'status');
    await page.waitForSelector('[name="status-reason"]');
    // the reason is required: Update stays disabled until one is typed
    expect(
      await page.$eval('[data-testid="billing-status-save"]', (b) => (b as HTMLButtonElement).disabled),
    ).toBe(true);
    await page.type('[name="status-reason"]', 'Paid in full, EOB received');
    await h.shot(page, 'billing-status-complete-en');
    await clickWhenReady(page, '[data-testid="billing-status-save"]:not([disabled])');
    await waitForText(page, 'Billing Status updated successfully');
    const done = await until('the case complete', async () => {
      const res = await h.api(auth, 'GET', `${BIS}/billingCases/${a.id}`);
      return res.body?.caseStatus === 'BILLING_COMPLETE' ? res.body : null;
    });
    expect(done.caseHistory[0]).toMatchObject({
      status: 'BILLING_COMPLETE',
      reason: 'Paid in full, EOB received',
    });
    await clickWhenReady(page, `[data-testid="billing-history-${a.id}"]`);
    await page.waitForSelector('[data-testid="billing-history-reason"]');
    expect(await bodyText(page)).toContain('Reason: Paid in full, EOB received');
    await h.shot(page, 'billing-history-reason-en');
  }, 120_000);

  it('a partial document upload offers Upload documents again; the server answers (here: uploads turned off)', async () => {
    const b = cases[1];
    // the rejected case as a partial document upload leaves it (documents.int.test.ts drives the real round)
    await billingModels(h.sys.ctx.mongo).BillingCase.updateOne(
      { _id: b.id },
      {
        $set: {
          caseStatus: 'DOC_UPLOAD_PARTIAL',
          errorDetails: 'TRF: DOC-601: The TRF could not be indexed for this claim',
        },
      },
    );
    const page = await h.newPage({ width: 1600, height: 1000 });
    await loginAs(page, h, admin.loginId);
    await open(page, h, '/billing');
    const button = `[data-testid="billing-docs-again-${b.id}"]`;
    await page.waitForSelector(button);
    // only where it applies
    expect(await page.$(`[data-testid="billing-docs-again-${cases[0].id}"]`)).toBeNull();
    expect(
      await page.$eval(
        `[data-testid="row-${b.id}"] [data-testid="billing-status-group"]`,
        (e) => e.textContent,
      ),
    ).toBe('Error');
    await page.hover(button);
    await waitForText(
      page,
      'Upload documents again: TRF: DOC-601: The TRF could not be indexed for this claim',
    );
    await h.shot(page, 'billing-docs-again-en');
    await clickWhenReady(page, `${button}:not([disabled])`);
    // the test backend runs with BILLING_DOCUMENTS off: the server's refusal is what the user reads
    await waitForText(page, 'Document uploads to the billing system are turned off (BILLING_DOCUMENTS)');
  }, 120_000);

  it('the billing list in Chinese', async () => {
    const page = await h.newPage({ locale: 'zh-CN', width: 1600, height: 1000 });
    await loginAs(page, h, admin.loginId);
    await open(page, h, '/billing');
    await waitForText(page, '计费案例');
    await waitForText(page, cases[0].testId);
    await h.shot(page, 'billing-list-zh');
  }, 120_000);
});
