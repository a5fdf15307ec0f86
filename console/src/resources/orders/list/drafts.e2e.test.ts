/**
 * Browser test: a provider deletes a draft from the orders list's Draft tab and another from the wizard, each
 * after a confirmation; the server has them deleted and the list no longer shows them. Real backend, chromium.
 */
import { describe, expect, it } from 'vitest';
import {
  clickButton,
  clickWhenReady,
  loginAs,
  open,
  REQUISITIONS,
  requisitionForm,
  until,
  useConsole,
  waitForText,
} from '../../../../test/harness';

const ACCOUNT = { id: 'acc-drafts-e2e', name: 'Bayside Oncology' };
const PHYSICIAN = 'phy-drafts-e2e';

describe('deleting drafts (real backend, chromium)', () => {
  const drafts: string[] = [];
  const { h, npi } = useConsole({
    users: { npi: ['ROLE_NPI', { account: ACCOUNT, physicianId: PHYSICIAN }] },
    signIn: ['npi'],
    seed: async (h, { npi }) => {
      for (const last of ['Draftone', 'Drafttwo']) {
        const form = requisitionForm({
          account: ACCOUNT,
          physicianId: PHYSICIAN,
          patientId: null,
          patient: { firstName: 'Ada', lastName: last },
        });
        const d = await h.api(npi.authorization, 'POST', REQUISITIONS, form);
        expect(d.status, JSON.stringify(d.body)).toBe(200);
        drafts.push(d.body.id);
      }
    },
  });
  // a deleted draft is gone for its provider (404: they may not see deleted forms; the record stays, soft-deleted)
  const deletedOnServer = (id: string) =>
    until(`draft ${id} deleted`, async () => {
      const r = await h.api(npi.authorization, 'GET', `${REQUISITIONS}/${id}`);
      return r.status === 404;
    });

  it("from the Draft tab's Delete column, after a confirmation", async () => {
    const page = await h.newPage({ width: 1500, height: 1000 });
    await loginAs(page, h, npi.loginId);
    await open(page, h, '/orders');
    await waitForText(page, 'Draftone');
    await clickWhenReady(page, `[data-testid="delete-${drafts[0]}"]`);
    await waitForText(
      page,
      'Are you sure you want to delete this draft Test Requisition Form (patient: Ada Draftone)?',
    );
    await h.shot(page, 'draft-delete-confirm-en');
    await clickButton(page, 'Yes', true);
    await waitForText(page, 'The Test Requisition Form has been deleted.');
    await deletedOnServer(drafts[0]);
    await page.waitForFunction(() => !document.body.innerText.includes('Draftone'), { timeout: 20_000 });
    expect(await page.evaluate(() => document.body.innerText.includes('Drafttwo'))).toBe(true);
  }, 120_000);

  it('from the wizard, after a confirmation', async () => {
    const page = await h.newPage({ width: 1500, height: 1000 });
    await loginAs(page, h, npi.loginId);
    await open(page, h, `/order/${drafts[1]}`);
    await clickWhenReady(page, '[data-testid="wizard-delete-draft"]');
    await waitForText(page, 'Are you sure you want to delete this draft Test Requisition Form?');
    await clickButton(page, 'Yes', true);
    await page.waitForFunction(() => location.pathname === '/orders', { timeout: 20_000 });
    await waitForText(page, 'The draft has been deleted.');
    await deletedOnServer(drafts[1]);
  }, 120_000);
});
