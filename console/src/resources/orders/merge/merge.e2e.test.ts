/**
 * Browser test: an accessioner merges a duplicate TRF of the same patient into the primary from the order
 * summary (Merge TRF); the duplicate then reads as merged with a link to its primary, and its timeline tells it.
 * Real backend, headless chromium.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bodyText,
  clickWhenReady,
  login,
  loginAs,
  open,
  startConsole,
  TEST_PASSWORD,
  waitForText,
  type ConsoleHarness,
} from '../../../../test/harness';
import { completeForm } from '@onco/requisitions/testing';

const RQ = '/portal/api/v1/testOrderForms';

describe('Merge TRF from the order summary (real backend, chromium)', () => {
  let h: ConsoleHarness;
  let lab: { loginId: string };
  let auth = '';
  const forms: Array<{ id: string; testRequisitionId: string }> = [];

  beforeAll(async () => {
    h = await startConsole({ WORKERS: 'true' });
    lab = await h.user('ROLE_ACCESSIONER');
    auth = (await login(h.sys, lab.loginId)).authorization;
    for (let i = 0; i < 2; i++) {
      const form = completeForm({ accountId: 'acc-merge', physicianId: 'phy-merge', patientId: 'pat-merge' });
      const d = await h.api(auth, 'POST', RQ, form);
      expect(d.status, JSON.stringify(d.body)).toBe(200);
      expect((await h.api(auth, 'POST', `${RQ}/${d.body.id}/sign`, { password: TEST_PASSWORD })).status).toBe(
        200,
      );
      const sub = await h.api(auth, 'POST', `${RQ}/submit`, { ...form, id: d.body.id });
      expect(sub.status, JSON.stringify(sub.body)).toBe(200);
      forms.push({ id: d.body.id, testRequisitionId: sub.body.testRequisitionId });
    }
  }, 240_000);
  afterAll(async () => h?.stop());

  it('merges the duplicate into the primary; the duplicate links to it', async () => {
    const [primary, duplicate] = forms;
    const page = await h.newPage({ width: 1400, height: 950 });
    await loginAs(page, h, lab.loginId);
    await open(page, h, `/order/${primary.id}/summary/patient`);
    await clickWhenReady(page, '[data-testid="action-merge"]');
    await waitForText(page, 'Primary TRF');
    // choose the duplicate
    await page.evaluate(() => {
      const combos = [...document.querySelectorAll('.MuiDialog-paper [role="combobox"]')] as HTMLElement[];
      combos[1].dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    });
    await clickWhenReady(page, `li[data-value="${duplicate.id}"]`);
    await page.waitForFunction(() => !document.querySelector('.MuiPopover-paper li'));
    await waitForText(page, 'Samples to copy to the primary form');
    await h.shot(page, 'merge-trf-dialog-en');
    await clickWhenReady(page, '[data-testid="merge-submit"]');
    await waitForText(page, 'The forms have been merged');

    const dup = await h.api(auth, 'GET', `${RQ}/${duplicate.id}`);
    expect(dup.body).toMatchObject({ status: 'INVALID', mergedInto: { id: primary.id } });

    await open(page, h, `/order/${duplicate.id}/summary/timeline`);
    await page.waitForSelector('[data-testid="merged-into"]');
    await waitForText(page, `This form was merged into ${primary.testRequisitionId}.`);
    // the timeline is projected from the merge's events: reload until it has them
    const deadline = Date.now() + 45_000;
    while (!(await bodyText(page)).includes('Order merged into another order (invalid)')) {
      if (Date.now() > deadline) throw new Error(`timeline without the merge: ${await bodyText(page)}`);
      await new Promise((r) => setTimeout(r, 1500));
      await page.reload();
      await page.waitForSelector('[data-testid="order-timeline"]');
    }
    await h.shot(page, 'merged-duplicate-timeline-en');
  }, 180_000);
});
