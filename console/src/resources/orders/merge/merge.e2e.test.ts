/**
 * Browser test: an accessioner merges a duplicate TRF of the same patient into the primary from the order
 * summary (Merge TRF); the duplicate then reads as merged with a link to its primary, and its timeline tells it.
 * Real backend, headless chromium.
 */
import { describe, expect, it } from 'vitest';
import {
  bodyText,
  clickWhenReady,
  loginAs,
  open,
  submitRequisition,
  useConsole,
  waitForText,
} from '../../../../test/harness';

const RQ = '/portal/api/v1/testOrderForms';

describe('Merge TRF from the order summary (real backend, chromium)', () => {
  let auth = '';
  const forms: Array<{ id: string; testRequisitionId: string }> = [];

  const { h, lab } = useConsole({
    users: { lab: 'ROLE_ACCESSIONER' },
    signIn: ['lab'],
    timeout: 240_000,
    seed: async (h, { lab }) => {
      auth = lab.authorization;
      for (let i = 0; i < 2; i++) {
        const sub = await submitRequisition(h, auth, {
          account: { id: 'acc-merge' },
          physicianId: 'phy-merge',
          patientId: 'pat-merge',
        });
        forms.push({ id: sub.id, testRequisitionId: sub.testRequisitionId });
      }
    },
  });

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
