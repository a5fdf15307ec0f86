/**
 * Browser test of the orders list, the order summary and the home dashboard (needs the routes wired in App.tsx:
 * /orders -> OrdersListPage, /order/:id/summary/:tab -> OrderSummaryPage, / and /home -> HomePage).
 * Real backend with workers (the TRF PDF is made by the trf-pdf worker after submit), headless chromium.
 */
import { describe, expect, it } from 'vitest';
import {
  bodyText,
  clickButton,
  clickWhenReady,
  fill,
  login,
  loginAs,
  open,
  requisitionForm,
  submitRequisition,
  useConsole,
  waitForText,
} from '../../../../test/harness';

const API = '/portal/api/v1/testOrderForms';
const ACCOUNT = { id: 'acc-orders-e2e', name: 'Alpha Oncology' };

describe('orders list, order summary and home dashboard (real backend, chromium)', () => {
  let submittedId = '';
  let trf = '';

  const { h, npi, admin, observer } = useConsole({
    // NEXT_DX initial orders offer the one-click subsequent order in this run
    config: { WORKERS: 'true', SUBSEQUENT_ORDER_TEST_TYPE: 'NEXT_DX' },
    users: {
      npi: ['ROLE_NPI', { account: ACCOUNT, physicianId: 'phy-A' }],
      admin: ['ROLE_ADMINISTRATOR', { account: ACCOUNT }],
      observer: ['ROLE_OBSERVER', { account: ACCOUNT }],
    },
    signIn: ['npi'],
    timeout: 240_000,
    seed: async (h, { npi }) => {
      const order = { account: ACCOUNT, physicianId: 'phy-A' };
      const sub = await submitRequisition(h, npi.authorization, order, '?createPdf=true');
      submittedId = sub.id;
      trf = sub.testRequisitionId;
      const draft = await h.api(
        npi.authorization,
        'POST',
        API,
        requisitionForm({
          ...order,
          patient: { name: 'Draft Person', firstName: 'Draft', lastName: 'Person' },
        }),
      );
      expect(draft.status).toBe(200);
    },
  });

  it('home: Welcome Back!, the counters and the empty Recently Completed Tests', async () => {
    const page = await h.newPage();
    await loginAs(page, h, npi.loginId);
    await open(page, h, '/home');
    await waitForText(page, 'Welcome Back!');
    await waitForText(page, 'No recently completed Tests');
    const text = await bodyText(page);
    expect(text).toContain('Completed');
    expect(text).not.toContain('Test Selected');
    expect(text).not.toContain('Clinical Review'); // no CAN_REVIEW_DIAGNOSIS
    await h.shot(page, 'orders-home');
  }, 120_000);

  it('list: Draft by default, Submitted rows, row click opens the summary', async () => {
    const page = await h.newPage();
    await loginAs(page, h, npi.loginId);
    await open(page, h, '/orders');
    await waitForText(page, 'Test Requisition Forms');
    await waitForText(page, 'Draft Person');
    expect(await bodyText(page)).not.toContain('Download CSV');
    await h.shot(page, 'orders-list-draft');
    await clickWhenReady(page, '[data-testid="tab-submitted"]');
    await waitForText(page, trf);
    await h.shot(page, 'orders-list-submitted');
    await clickWhenReady(page, `[data-testid="row-${submittedId}"]`);
    await page.waitForSelector('[data-testid="order-summary"]');
    expect(new URL(page.url()).pathname).toBe(`/order/${submittedId}/summary/patient`);
  }, 120_000);

  it('summary: header, progress, Print, comments with the delete confirmation, Copy', async () => {
    const page = await h.newPage();
    await loginAs(page, h, npi.loginId);
    await open(page, h, `/order/${submittedId}/summary/patient`);
    await waitForText(page, `Test Requisition Form : ${trf}`);
    for (const s of [
      'Ada Lovelace',
      'PAT-000001',
      '02/03/1961',
      'MRN-77',
      'C34.90',
      'Grace Hopper',
      'Test Ordered',
      'In Progress',
      'Report Complete',
    ])
      await waitForText(page, s); // the patient panel and the timeline load beside the header
    await waitForText(page, 'No comment added', 60_000);
    await waitForText(page, 'Print', 90_000); // once the worker has made the TRF PDF
    await h.shot(page, 'orders-summary');
    await fill(page, '[data-testid="comment-input"]', 'Please expedite');
    await clickButton(page, 'Add');
    await waitForText(page, 'Please expedite');
    await clickWhenReady(page, '[data-testid^="comment-delete-"]');
    await waitForText(page, 'Are you sure you want to delete this comment?');
    await clickButton(page, 'Yes', true);
    await waitForText(page, 'No comment added');
    // Edit: the MRN, saved after 'Are you sure you want to update the Test Requisition Form?'
    await clickButton(page, 'Edit');
    await fill(page, '[data-testid="edit-patient-mrn"]', 'MRN-78');
    expect(await bodyText(page)).not.toMatch(/\bCopy\b/);
    await clickButton(page, 'Save');
    await waitForText(page, 'Are you sure you want to update the Test Requisition Form?');
    await clickButton(page, 'Yes', true);
    await waitForText(page, 'The Test Requisition Form has been updated.');
    await page.waitForFunction(() => !document.querySelector('[data-testid="summary-edit"]'));
    expect(await bodyText(page)).toContain('MRN-78');
    await clickButton(page, 'Copy');
    await waitForText(
      page,
      'Are you sure you want to copy the Test Requisition Form for Patient# PAT-000001 with diagnosis Lung?',
    );
    await clickButton(page, 'Yes', true);
    await page.waitForFunction(
      (id) => /^\/order\/[^/]+$/.test(location.pathname) && !location.pathname.includes(id),
      {},
      submittedId,
    );
  }, 240_000);

  it('summary: Confirm Subsequent Order with a collection mode opens the new order', async () => {
    const page = await h.newPage();
    await loginAs(page, h, npi.loginId);
    await open(page, h, `/order/${submittedId}/summary/tests`);
    await clickButton(page, 'Subsequent Order');
    await waitForText(page, 'Confirm Subsequent Order');
    await clickWhenReady(page, '.MuiDialog-root [role="combobox"]');
    await clickWhenReady(page, 'li[data-value="COLLECT_IN_CLINIC"]');
    await h.shot(page, 'orders-subsequent-order');
    await clickButton(page, 'Yes', true);
    await page.waitForFunction(
      (id) => /^\/order\/[^/]+/.test(location.pathname) && !location.pathname.includes(id),
      {},
      submittedId,
    );
  }, 120_000);

  it("list: the TRF cell opens the PDF viewer; each row's Order button makes a subsequent order", async () => {
    const page = await h.newPage();
    await loginAs(page, h, npi.loginId);
    await open(page, h, '/orders');
    await clickWhenReady(page, '[data-testid="tab-submitted"]');
    await waitForText(page, trf);
    await clickWhenReady(page, `[data-testid="trf-${submittedId}"]`);
    await page.waitForSelector('.MuiDialog-root iframe, .MuiDialog-root object, .MuiDialog-root embed', {
      timeout: 30_000,
    });
    expect(new URL(page.url()).pathname).toBe('/orders'); // the link did not open the row
    await h.shot(page, 'orders-list-trf-viewer');
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('.MuiDialog-root'));
    await clickWhenReady(page, `[data-testid="subsequent-${submittedId}"]`);
    await waitForText(page, 'Confirm Subsequent Order');
    await clickButton(page, 'Yes', true);
    await page.waitForFunction(
      (id) => /^\/order\/[^/]+/.test(location.pathname) && !location.pathname.includes(id),
      {},
      submittedId,
    );
    const newId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);
    const auth = (await login(h.sys, npi.loginId)).authorization;
    const made = await h.api(auth, 'GET', `${API}/${newId}`);
    expect(made.status).toBe(200);
    expect(made.body.parentTestOrderForm?.id).toBe(submittedId);
  }, 180_000);

  it('admin: Delete column, Deleted included and the delete rule; observer cannot start an order', async () => {
    const page = await h.newPage();
    await loginAs(page, h, admin.loginId);
    await open(page, h, '/orders');
    await clickWhenReady(page, '[data-testid="tab-submitted"]');
    await waitForText(page, trf);
    expect(await bodyText(page)).toContain('Deleted included');
    expect(await bodyText(page)).toContain('Download CSV');
    // a test is ordered: the domain rule refuses deletion
    expect(
      await page.$eval(`[data-testid="delete-${submittedId}"]`, (b) => (b as HTMLButtonElement).disabled),
    ).toBe(true);
    await h.shot(page, 'orders-list-admin');

    const obs = await h.newPage();
    await loginAs(obs, h, observer.loginId);
    await open(obs, h, '/orders');
    await waitForText(obs, 'Start a New Order');
    const disabled = await obs.evaluate(
      () =>
        [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Start a New Order')!
          .disabled,
    );
    expect(disabled).toBe(true);
  }, 120_000);
});
