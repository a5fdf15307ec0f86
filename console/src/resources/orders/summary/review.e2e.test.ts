/**
 * Browser test: a project manager (CAN_REVIEW_DIAGNOSIS, CAN_EDIT_BILLING) works an order's clinical review from
 * the order summary (DISQUALIFIED after a confirmation; the timeline tells it), narrows the home page's clinical
 * review counters with the Review filter, and finds Review Complete on billing unavailable, with the reasons, while
 * the primary billing is incomplete; adds a file to the submitted order from its Attachments tab. A provider sees
 * the review status as text only. Real backend, chromium.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ElementHandle } from 'puppeteer-core';
import {
  blankPdf,
  bodyText,
  chooseOption,
  clickButton,
  clickWhenReady,
  fill,
  login,
  loginAs,
  open,
  REQUISITIONS,
  submitRequisition,
  type SubmittedRequisition,
  until,
  useConsole,
  waitForText,
} from '../../../../test/harness';
import { medicareWithoutPolicyNumber } from '@onco/requisitions/testing';

const ACCOUNT = { id: 'acc-review-e2e', name: 'Harbor Oncology' };
const PHYSICIAN = 'phy-review-e2e';

describe('clinical review and the billing review gate on the order summary (real backend, chromium)', () => {
  let order: SubmittedRequisition;

  const { h, pm, npi, counselor } = useConsole({
    users: {
      pm: 'ROLE_PROJECT_MANAGER',
      npi: ['ROLE_NPI', { account: ACCOUNT, physicianId: PHYSICIAN }],
      // a clinical reviewer without CAN_EDIT_TRF: edits the specimens only
      counselor: 'ROLE_GENETIC_COUNSELOR',
    },
    signIn: ['pm', 'npi'],
    timeout: 240_000,
    // the order's account is the financial assistance account: its outcome row shows on the Billing tab
    config: { FINANCIAL_ASSISTANCE_ACCOUNT: ACCOUNT.id },
    seed: async (h, { pm, npi }) => {
      order = await submitRequisition(h, npi.authorization, {
        account: ACCOUNT,
        physicianId: PHYSICIAN,
        patientId: null,
      });
      // the lab's edit of the submitted order: a Medicare primary billing without its policy number
      const edit = await h.api(pm.authorization, 'PUT', `${REQUISITIONS}/${order.id}`, {
        billings: [medicareWithoutPolicyNumber()],
      });
      expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    },
  });

  it('sets the clinical review on the order summary, DISQUALIFIED after a confirmation, and the timeline tells it', async () => {
    const page = await h.newPage({ width: 1500, height: 1000 });
    await loginAs(page, h, pm.loginId);
    await open(page, h, `/order/${order.id}/summary/patient`);
    await page.waitForSelector('[data-testid="clinical-review-select"]');
    await chooseOption(page, 'clinical-review-select', 'NEEDS_REVIEW');
    await waitForText(page, 'The clinical review has been updated.');
    await until('the review on the server', async () => {
      const r = await h.api(pm.authorization, 'GET', `${REQUISITIONS}/${order.id}`);
      return r.body.clinicalReviewStatus === 'NEEDS_REVIEW';
    });

    // DISQUALIFIED asks first; No changes nothing
    await chooseOption(page, 'clinical-review-select', 'DISQUALIFIED');
    await waitForText(page, 'Disqualify this order?');
    await h.shot(page, 'clinical-review-disqualify-en');
    await clickButton(page, 'No', true);
    await page.waitForFunction(() => !document.querySelector('.MuiDialog-paper'));
    expect(
      (await h.api(pm.authorization, 'GET', `${REQUISITIONS}/${order.id}`)).body.clinicalReviewStatus,
    ).toBe('NEEDS_REVIEW');
    await chooseOption(page, 'clinical-review-select', 'DISQUALIFIED');
    await clickButton(page, 'Yes', true);
    await until('DISQUALIFIED on the server', async () => {
      const r = await h.api(pm.authorization, 'GET', `${REQUISITIONS}/${order.id}`);
      return r.body.clinicalReviewStatus === 'DISQUALIFIED';
    });
    await open(page, h, `/order/${order.id}/summary/timeline`);
    await waitForText(page, 'Clinical review: Needs Review → Disqualified', 45_000);
    // the lab's edit of the billing (the seed) is a form edit naming its fields in the wizard's words
    await waitForText(page, 'Form edited: Primary Billing: Billing Type, Insurance Provider', 45_000);
    await h.shot(page, 'clinical-review-timeline-en');
  }, 180_000);

  it("the home page's Review filter: open reviews by default, all reviews on demand", async () => {
    const page = await h.newPage({ width: 1500, height: 1000 });
    await loginAs(page, h, pm.loginId);
    await open(page, h, '/home');
    await page.waitForSelector('[data-testid="panel-clinical-review"]');
    await page.waitForSelector('[data-testid="clinical-NEEDS_REVIEW"]');
    expect(await page.$('[data-testid="clinical-DISQUALIFIED"]')).toBeNull();
    await chooseOption(page, 'review-filter', 'all');
    await page.waitForSelector('[data-testid="clinical-DISQUALIFIED"]');
    await page.waitForSelector('[data-testid="clinical-REVIEW_COMPLETE"]');
    await h.shot(page, 'home-review-filter-en');
  }, 120_000);

  it('Review Complete on billing is unavailable, with the reasons, while the primary billing is incomplete', async () => {
    const page = await h.newPage({ width: 1500, height: 1000 });
    await loginAs(page, h, pm.loginId);
    await open(page, h, `/order/${order.id}/summary/billing`);
    await page.waitForSelector('[data-testid="billing-review-blockers"]');
    expect(await bodyText(page)).toContain('The primary billing is missing: Policy Number.');
    const input = await page.waitForSelector('[data-testid="billing-review-select"]');
    const box = await input!.evaluateHandle((el) => el.parentElement!.querySelector('[role="combobox"]')!);
    await (box as unknown as { click(): Promise<void> }).click();
    await page.waitForSelector('li[data-value="REVIEW_COMPLETE"]');
    expect(
      await page.$eval('li[data-value="REVIEW_COMPLETE"]', (li) => li.getAttribute('aria-disabled')),
    ).toBe('true');
    await h.shot(page, 'billing-review-blocked-en');
    await page.keyboard.press('Escape');
  }, 120_000);

  it("adds a file to the submitted order from its Attachments tab, with the wizard's kinds", async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'oncotrf-attach-')), 'pathology-late.pdf');
    writeFileSync(file, blankPdf());
    const page = await h.newPage({ width: 1500, height: 1000 });
    await loginAs(page, h, pm.loginId);
    await open(page, h, `/order/${order.id}/summary/attachments`);
    await page.waitForSelector('[data-testid="attachments-add"]');
    const input = (await page.waitForSelector(
      '[data-testid="attachments-add"] input[type="file"]',
    )) as ElementHandle<HTMLInputElement>;
    await input.uploadFile(file);
    await waitForText(page, 'pathology-late.pdf has been attached.');
    await waitForText(page, 'pathology-late.pdf');
    const r = await h.api(pm.authorization, 'GET', `${REQUISITIONS}/${order.id}`);
    expect(r.body.attachments.map((a: { name: string }) => a.name)).toContain('pathology-late.pdf');
    await h.shot(page, 'attachments-after-submission-en');
    // the order's timeline tells who attached it
    await open(page, h, `/order/${order.id}/summary/timeline`);
    await waitForText(page, 'File attached: pathology-late.pdf (Clinical/Progress Notes)', 45_000);
  }, 120_000);

  it('a clinical reviewer without Edit edits the specimens of the submitted order, nothing else', async () => {
    const page = await h.newPage({ width: 1500, height: 1000 });
    await loginAs(page, h, counselor.loginId);
    await open(page, h, `/order/${order.id}/summary/patient`);
    await clickButton(page, 'Edit');
    await page.waitForSelector('[data-testid="summary-edit"]');
    expect(await page.$('[data-testid="edit-patient-mrn"]')).toBeNull();
    // the wizard's Specimen step: a clinical field the counselor may not set (CAN_ADD_DATE_OF_DIAGNOSIS,
    // CAN_ADD_PRIOR_THERAPIES) is shown, not editable
    const disabled = (path: string) =>
      page.$eval(
        `[data-testid="summary-edit-specimens"] [name="${path}"]`,
        (el) => (el as HTMLInputElement).disabled,
      );
    expect(await disabled('tumorSpecimen.dateOfDiagnosis')).toBe(true);
    expect(await disabled('tumorSpecimen.priorTherapies')).toBe(true);
    expect(await disabled('tumorSpecimen.specimenId')).toBe(false);
    await fill(page, '[name="tumorSpecimen.specimenId"]', 'BLK-REVIEWED_2');
    // a choice and the field it clears, in one step (Stage OTHER asks for the other stage; II clears it)
    await clickWhenReady(page, '#f-tumorSpecimen-stage');
    await clickWhenReady(page, 'li[data-value="OTHER"]');
    await page.waitForSelector('.MuiMenu-root', { hidden: true });
    await fill(page, '[name="tumorSpecimen.otherStage"]', 'IIIB');
    await h.shot(page, 'reviewer-specimen-edit-en');
    await clickButton(page, 'Save');
    await clickButton(page, 'Yes', true);
    await waitForText(page, 'The Test Requisition Form has been updated.');
    const auth = (await login(h.sys, counselor.loginId)).authorization;
    const saved = await h.api(auth, 'GET', `${REQUISITIONS}/${order.id}`);
    expect(saved.body.tumorSpecimen.specimenId).toBe('BLK-REVIEWED_2');
    expect(saved.body.tumorSpecimen).toMatchObject({ stage: 'OTHER', otherStage: 'IIIB' });
    // the server holds the same line: a reviewer's save of the patient is not taken
    const patient = await h.api(auth, 'PUT', `${REQUISITIONS}/${order.id}`, {
      patient: { ...saved.body.patient, mrn: 'MRN-REVIEWER' },
    });
    expect(patient.status).toBe(200);
    expect(patient.body.patient.mrn).toBe(saved.body.patient.mrn);
  }, 120_000);

  it("the provider's Edit of the submitted order covers the whole Specimen step: therapies, immunotherapy, specimen type", async () => {
    const page = await h.newPage({ width: 1500, height: 1000 });
    await loginAs(page, h, npi.loginId);
    await open(page, h, `/order/${order.id}/summary/patient`);
    await clickButton(page, 'Edit');
    await page.waitForSelector('[data-testid="summary-edit-specimens"]');
    // the therapies as chips, as in the wizard (Enter adds one)
    await fill(page, '[name="tumorSpecimen.priorTherapies"]', 'Carboplatin');
    await page.keyboard.press('Enter');
    await fill(page, '[name="tumorSpecimen.currentTherapies"]', 'Pembrolizumab');
    await page.keyboard.press('Enter');
    await page.click('[name="tumorSpecimen.planOrReceivingImmunotherapy"]');
    await fill(page, '[name="tumorSpecimen.content"]', '35');
    await waitForText(page, 'Pembrolizumab');
    await h.shot(page, 'summary-edit-specimen-en');
    await clickButton(page, 'Save');
    await clickButton(page, 'Yes', true);
    await waitForText(page, 'The Test Requisition Form has been updated.');
    const saved = await h.api(npi.authorization, 'GET', `${REQUISITIONS}/${order.id}`);
    expect(saved.body.tumorSpecimen).toMatchObject({
      priorTherapies: ['Carboplatin'],
      currentTherapies: ['Pembrolizumab'],
      planOrReceivingImmunotherapy: true,
      content: 35,
    });
    // the timeline names what changed in the wizard's words, the section once
    await open(page, h, `/order/${order.id}/summary/timeline`);
    await page.waitForFunction(
      () =>
        document.body.innerText
          .split('\n')
          .some(
            (line) =>
              line.includes('Form edited: Tumor Specimen: ') &&
              ['Current Therapies', 'Prior Therapies', 'Tumor Content'].every((f) => line.includes(f)),
          ),
      { timeout: 45_000 },
    );
    await h.shot(page, 'summary-edit-specimen-timeline-en');
  }, 120_000);

  it('records the financial assistance outcome on the Billing tab; the timeline tells it; a provider reads it', async () => {
    const page = await h.newPage({ width: 1500, height: 1000 });
    await loginAs(page, h, pm.loginId);
    await open(page, h, `/order/${order.id}/summary/billing`);
    await page.waitForSelector('[data-testid="financial-assistance-select"]');
    await chooseOption(page, 'financial-assistance-select', 'APPROVED_UP_TO_295');
    await waitForText(page, 'The financial assistance outcome has been recorded');
    const saved = await until('the outcome on the server', async () => {
      const r = await h.api(pm.authorization, 'GET', `${REQUISITIONS}/${order.id}`);
      return r.body.financialAssistance?.outcome === 'APPROVED_UP_TO_295' ? r.body : null;
    });
    expect(saved.financialAssistance.decidedBy.name).toBeTruthy();
    await page.waitForSelector('[data-testid="financial-assistance-decided"]');
    await h.shot(page, 'financial-assistance-en');
    // the financial assistance attachment kind is offered on this order's Attachments tab
    await open(page, h, `/order/${order.id}/summary/attachments`);
    await page.waitForSelector('[data-testid="attachments-add"]');
    await page.click('#attachment-kind');
    await page.waitForSelector('li[data-value="FINANCIAL_ASSISTANCE"]');
    await page.keyboard.press('Escape');
    // the timeline
    await open(page, h, `/order/${order.id}/summary/timeline`);
    await waitForText(page, 'Financial assistance: Approved up to $295', 45_000);
    // a provider sees the outcome, not the choice
    const zh = await h.newPage({ locale: 'zh-CN', width: 1400, height: 900 });
    await loginAs(zh, h, npi.loginId);
    await open(zh, h, `/order/${order.id}/summary/billing`);
    await zh.waitForSelector('[data-testid="financial-assistance-select"]');
    expect(
      await zh.$eval(
        '[data-testid="financial-assistance-select"]',
        (el) => (el as HTMLInputElement).disabled,
      ),
    ).toBe(true);
    await waitForText(zh, '已批准，最高 295 美元');
    await h.shot(zh, 'financial-assistance-provider-zh');
  }, 120_000);

  it('a provider sees the clinical review as text, in Chinese too', async () => {
    const page = await h.newPage({ locale: 'zh-CN', width: 1400, height: 900 });
    await loginAs(page, h, npi.loginId);
    await open(page, h, `/order/${order.id}/summary/patient`);
    await page.waitForSelector('[data-testid="clinical-review"]');
    expect(await page.$('[data-testid="clinical-review-select"]')).toBeNull();
    await waitForText(page, '临床审核');
    await h.shot(page, 'clinical-review-provider-zh');
  }, 120_000);
});
