/**
 * Browser test of the order wizard (spec 1): a provider fills the nine steps with both pickers, both modals and
 * an attachment, is stopped by validation messages on bad input, saves and exits, resumes where they left,
 * signs with a wrong then the right password, submits and finds the order on the Submitted tab. An observer
 * cannot start an order. Real backend (reference fixtures: accounts, locations, physicians, ICD-10, OncoTree),
 * headless chromium; screenshots under .data/screenshots (wizard-*, orders-list-*, home-*).
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ElementHandle, Page } from 'puppeteer-core';
import { createReferenceModule } from '@onco/reference';
import {
  bodyText,
  clickButton,
  clickWhenReady,
  fill,
  login,
  loginAs,
  open,
  setValue,
  TEST_PASSWORD,
  useConsole,
  waitForText,
} from '../../../../test/harness';

/** Click the enabled button whose text is `text` (in the open dialog when `inDialog`). */

const buttonEnabled = (page: Page, text: string) =>
  page.evaluate((t) => {
    const b = [...document.querySelectorAll('button')].find((x) => x.textContent?.trim() === t);
    return b ? !(b as HTMLButtonElement).disabled : null;
  }, text);

const id = (path: string) => `#f-${path.replace(/\./g, '-')}`;
const field = (path: string) => `[name="${path}"]`;

async function choose(page: Page, path: string, value: string) {
  await clickWhenReady(page, id(path));
  await clickWhenReady(page, `li[data-value="${value}"]`);
  await page.waitForSelector('.MuiMenu-root', { hidden: true });
}

/** Type 3+ characters in a picker and take the first option. */
async function pick(page: Page, selector: string, term: string) {
  await fill(page, selector, term);
  // the options of the whole term (not of a prefix typed before), then a click on the first one
  await page.waitForFunction(
    (t) =>
      !document.querySelector('.MuiAutocomplete-loading') &&
      [...document.querySelectorAll('.MuiAutocomplete-option')].some((o) =>
        (o.textContent ?? '').toLowerCase().includes(t),
      ),
    {},
    term.toLowerCase(),
  );
  await page.click('.MuiAutocomplete-option');
  await page.waitForSelector('.MuiAutocomplete-popper', { hidden: true });
}

const stepIs = (page: Page, step: string) => page.waitForSelector(`[data-wizard-step="${step}"]`);
const stateOf = (page: Page, step: string) =>
  page.$eval(`[data-step="${step}"]`, (el) => el.getAttribute('data-state'));

async function continueTo(page: Page, step: string) {
  await clickButton(page, 'Continue');
  await stepIs(page, step);
}

const isoDaysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('order wizard (real backend, chromium)', () => {
  let provider: { loginId: string };
  let observer: { loginId: string };
  let physicianLast = '';

  const { h } = useConsole({
    config: { WORKERS: 'true' }, // the TRF PDF worker makes the TRF that Print shows
    timeout: 240_000,
    seed: async (h) => {
      const seed = await createReferenceModule(h.sys.ctx).seedReference({ referenceData: 'fixtures' });
      const account = { id: seed.accounts[0].id, name: seed.accounts[0].name };
      const physician = seed.physicians.find((p) => p.accountIds.includes(account.id))!;
      physicianLast = physician.name.split(' ').pop()!;
      provider = await h.user('ROLE_NPI', { account, physicianId: physician.id });
      observer = await h.user('ROLE_OBSERVER', { account });
    },
  });

  it('a provider fills the nine steps, saves and resumes, signs, submits and finds the order', async () => {
    const page = await h.newPage();
    await loginAs(page, h, provider.loginId);
    await open(page, h, '/order/new');
    await stepIs(page, 'patient');
    await waitForText(page, 'Test Requisition Form');
    await h.shot(page, 'wizard-1-patient');

    // Continue with nothing: the draft is created (its id in the URL) and Patient is incomplete
    await continueTo(page, 'provider');
    await page.waitForFunction(
      () => /^\/order\/[^/]+$/.test(location.pathname) && !location.pathname.endsWith('/new'),
    );
    const orderPath = new URL(page.url()).pathname;
    expect(await stateOf(page, 'patient')).toBe('incomplete');
    await clickWhenReady(page, '[data-step="patient"]');
    await stepIs(page, 'patient');
    await waitForText(page, 'This field is required'); // 1

    // Patient, with a bad phone first
    await page.click(field('orderInformation.nextDx'));
    await fill(page, field('patient.firstName'), 'Marie');
    await fill(page, field('patient.lastName'), 'Curie');
    await setValue(page, field('patient.dateOfBirth'), '1967-11-07');
    await choose(page, 'patient.birthSex', 'FEMALE');
    await fill(page, field('patient.address.street'), '11 Rue Pierre');
    await fill(page, field('patient.address.city'), 'Seattle');
    await fill(page, field('patient.address.state'), 'WA');
    await fill(page, field('patient.address.postalCode'), '98104');
    await fill(page, field('patient.phone'), '123');
    await clickButton(page, 'Continue');
    await waitForText(page, 'Invalid Phone'); // 2
    await stepIs(page, 'patient');
    await h.shot(page, 'wizard-1-patient-invalid');
    await fill(page, field('patient.phone'), '2065550199');
    await fill(page, field('patient.race'), 'White');
    await fill(page, field('patient.trialName'), 'ONC-TRIAL-7');
    await fill(page, field('patient.studyPatientId'), 'SP-0042');
    await continueTo(page, 'provider');
    expect(await stateOf(page, 'patient')).toBe('complete');

    // Provider: physician, account and location pickers; the report delivery method, chosen first, survives the pick
    const delivery = (v: string) => `input[name="physician.deliveryMethod"][value="${v}"]`;
    await page.click(delivery('BOTH'));
    await pick(page, '#physician-search', physicianLast);
    await page.waitForFunction(
      (n) => (document.querySelector('[name="physician.lastName"]') as HTMLInputElement)?.value === n,
      {},
      physicianLast,
    );
    expect(await page.$eval(delivery('BOTH'), (e) => (e as HTMLInputElement).checked)).toBe(true);
    // fax delivery needs the provider's fax: without it the step says so under the method
    const fax = await page.$eval(field('physician.fax'), (e) => (e as HTMLInputElement).value);
    await fill(page, field('physician.fax'), '');
    await waitForText(page, "Delivery by fax needs the provider's fax number");
    await h.shot(page, 'wizard-2-provider-delivery');
    await fill(page, field('physician.fax'), fax || '2065550141');
    await page.waitForFunction(() => !document.body.innerText.includes('Delivery by fax needs'));
    if (!(await page.$eval(field('physician.email'), (e) => (e as HTMLInputElement).value)))
      await fill(page, field('physician.email'), 'provider@clinic.example.org');
    await pick(page, '#account-search', 'Pacific');
    await pick(page, '#hospitalLocation-search', 'First');
    await page.waitForFunction(
      () => !!(document.querySelector('[name="hospitalLocation.name"]') as HTMLInputElement)?.value,
    );
    await h.shot(page, 'wizard-2-provider');
    await continueTo(page, 'pathology');
    expect(await stateOf(page, 'provider')).toBe('complete');
    await h.shot(page, 'wizard-3-pathology');
    await continueTo(page, 'additionalProvider');
    await h.shot(page, 'wizard-4-additional-provider');
    await continueTo(page, 'specimen');

    // Specimen: diagnosis, ICD-10 modal (3+ characters), diagnosis modal, tumor and normal
    await page.click('input[value="BREAST"]');
    await clickWhenReady(page, '[data-open="tumorSpecimen.icd10Codes"]');
    await page.waitForSelector('.MuiDialog-root input', { visible: true });
    await fill(page, '.MuiDialog-root input', 'C5');
    await waitForText(page, 'Minimum 3 characters required to search.'); // 3
    await fill(page, '.MuiDialog-root input', 'C50.9');
    await clickWhenReady(page, '[data-code]');
    await page.waitForSelector('[data-selected-code]');
    await h.shot(page, 'wizard-5-icd10-modal');
    await clickButton(page, 'Done', true);
    await page.waitForSelector('.MuiDialog-root', { hidden: true });
    await clickWhenReady(page, '[data-open="tumorSpecimen.octDxBreadCrumb"]');
    await page.waitForSelector('input[placeholder="Search Diagnosis Abbreviation or Keyword"]', {
      visible: true,
    });
    await fill(page, 'input[placeholder="Search Diagnosis Abbreviation or Keyword"]', 'zzqx');
    await waitForText(page, 'No results found');
    await fill(page, 'input[placeholder="Search Diagnosis Abbreviation or Keyword"]', 'Invasive Breast');
    await clickWhenReady(page, '[data-dx="BRCA"] input[type="radio"]');
    await h.shot(page, 'wizard-5-diagnosis-modal');
    await clickButton(page, 'Done', true);
    await page.waitForSelector('.MuiDialog-root', { hidden: true });
    await choose(page, 'tumorSpecimen.specimenType', 'FFPE_BLOCK');
    // the clinical fields: the primary site, the therapies as chips (Enter, or leaving the field), immunotherapy
    await fill(page, field('tumorSpecimen.primaryTumorSite'), 'Left breast, upper outer quadrant');
    await fill(page, field('tumorSpecimen.currentTherapies'), 'Tamoxifen');
    await page.keyboard.press('Enter');
    await fill(page, field('tumorSpecimen.priorTherapies'), 'Doxorubicin');
    await page.keyboard.press('Enter');
    await page.type(field('tumorSpecimen.priorTherapies'), 'Paclitaxel'); // (fill clears: a Backspace drops a chip)
    await page.click(field('tumorSpecimen.planOrReceivingImmunotherapy'));
    await waitForText(page, 'Paclitaxel'); // the chip the blur made
    await choose(page, 'normalSpecimen.specimenType', 'BLOOD');
    await setValue(page, field('normalSpecimen.collectionDate'), isoDaysFromNow(-20)); // BLOOD: 10 days back at most
    await clickButton(page, 'Continue');
    await waitForText(page, 'Date must be no earlier than'); // 4
    await stepIs(page, 'specimen');
    await setValue(page, field('normalSpecimen.collectionDate'), isoDaysFromNow(-1));
    await h.shot(page, 'wizard-5-specimen');
    await continueTo(page, 'billing');
    expect(await stateOf(page, 'specimen')).toBe('complete');

    // Billing: Medicare; a future insured date of birth is refused; then SELF
    await choose(page, 'billings.0.billingType', 'MEDICARE');
    // no Medicare warning: it is for an order with NeXT Personal Dx (spec 1 section 5; its own test below)
    expect(await bodyText(page)).not.toContain('mandatory for Medicare Payment Type');
    await setValue(page, field('billings.0.insuredDob'), isoDaysFromNow(30));
    await clickButton(page, 'Continue');
    await waitForText(page, 'Date must be on/before'); // 6
    await stepIs(page, 'billing');
    await h.shot(page, 'wizard-6-billing-medicare');
    await choose(page, 'billings.0.billingType', 'SELF');
    await page.waitForFunction(() => !document.body.innerText.includes('Date must be on/before'));
    await h.shot(page, 'wizard-6-billing');
    await continueTo(page, 'attachments');
    expect(await stateOf(page, 'billing')).toBe('complete');

    // Attachments: upload, then Save & Exit
    const input = await page.waitForSelector('input[name="attachment-file"]');
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'wizard-e2e-')), 'pathology-report.pdf');
    writeFileSync(file, '%PDF-1.4\n% pathology report\n');
    await (input as ElementHandle<HTMLInputElement>).uploadFile(file);
    await waitForText(page, 'pathology-report.pdf');
    await h.shot(page, 'wizard-7-attachments');
    await clickButton(page, 'Save & Exit');
    await page.waitForFunction(() => location.pathname === '/orders');

    // reopen: resumes at Attachments
    await open(page, h, orderPath);
    await stepIs(page, 'attachments');
    await continueTo(page, 'summary');
    await waitForText(page, 'Marie');
    await h.shot(page, 'wizard-8-summary');
    expect(await buttonEnabled(page, 'Continue to Consent')).toBe(true);
    await clickButton(page, 'Continue to Consent');
    await stepIs(page, 'authorization');
    expect(await buttonEnabled(page, 'Submit Order')).toBe(false);

    // Authorization: the consent unlocks when scrolled to the end; wrong then right password
    await page.$eval('[data-testid="consent-text"]', (el) => {
      el.scrollTop = el.scrollHeight;
      el.dispatchEvent(new Event('scroll', { bubbles: true }));
    });
    await fill(page, '[name="signature-password"]', 'Wrong-password-1');
    await clickButton(page, 'Sign');
    await waitForText(page, 'Incorrect password. Try again.'); // 7
    await fill(page, '[name="signature-password"]', TEST_PASSWORD);
    await clickButton(page, 'Sign');
    await page.waitForFunction(() =>
      [...document.querySelectorAll('button')].some(
        (b) => b.textContent?.trim() === 'Submit Order' && !(b as HTMLButtonElement).disabled,
      ),
    );
    await h.shot(page, 'wizard-9-authorization');
    await clickButton(page, 'Submit Order');
    await waitForText(page, 'Order submitted successfully.');
    await page.waitForFunction(() => location.pathname === '/orders');

    // the order is on the Submitted tab
    await clickWhenReady(page, '[data-testid="tab-submitted"]');
    await waitForText(page, 'Curie');
    await h.shot(page, 'orders-list-en');

    // the summary of the submitted order (the wizard route sends it there)
    await open(page, h, orderPath);
    await page.waitForFunction(() => /\/summary\/patient$/.test(location.pathname));
    await waitForText(page, 'Marie');
    await h.shot(page, 'order-summary-en');

    // Print: the TRF the worker generated from this submission, in the PDF viewer
    await waitForText(page, 'Print', 120_000);
    await clickButton(page, 'Print');
    await page.waitForSelector('.MuiDialog-root iframe', { timeout: 60_000 });
    const orderId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);
    const auth = (await login(h.sys, provider.loginId)).authorization;
    const pdf = await h.sys.app.inject({
      method: 'GET',
      url: `/portal/api/v1/testOrderForms/${orderId}/trf`,
      headers: { authorization: auth },
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('.MuiDialog-root'));

    // Copy: a new draft of the same order
    await clickButton(page, 'Copy');
    await waitForText(page, 'Are you sure you want to copy the Test Requisition Form for Patient#');
    await clickButton(page, 'Yes', true);
    await page.waitForFunction(
      (id) => /^\/order\/[^/]+$/.test(location.pathname) && !location.pathname.includes(id),
      {},
      orderId,
    );
    const copyId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);
    const copy = await h.api(auth, 'GET', `/portal/api/v1/testOrderForms/${copyId}`);
    expect(copy.body).toMatchObject({ status: 'DRAFT', parentTestOrderForm: { id: orderId } });
    expect(copy.body.patient.lastName).toBe('Curie');
    expect(copy.body.physician.deliveryMethod).toBe('BOTH');
    // the clinical fields were saved as typed, and the summary shows them
    const submitted = await h.api(auth, 'GET', `/portal/api/v1/testOrderForms/${orderId}`);
    expect(submitted.body.tumorSpecimen).toMatchObject({
      primaryTumorSite: 'Left breast, upper outer quadrant',
      currentTherapies: ['Tamoxifen'],
      priorTherapies: ['Doxorubicin', 'Paclitaxel'],
      planOrReceivingImmunotherapy: true,
    });
    expect(submitted.body.physician.deliveryMethod).toBe('BOTH');
    expect(submitted.body.patient).toMatchObject({
      race: 'White',
      trialName: 'ONC-TRIAL-7',
      studyPatientId: 'SP-0042',
    });
    await open(page, h, `/order/${orderId}/summary/patient`);
    await waitForText(page, 'Doxorubicin, Paclitaxel');
    await waitForText(page, 'Left breast, upper outer quadrant');
    await waitForText(page, 'SP-0042');
    await h.shot(page, 'order-summary-clinical-en');
    await open(page, h, `/order/${orderId}/summary/provider`);
    await waitForText(page, 'Deliver report by');
    await waitForText(page, 'Email and fax');
    await h.shot(page, 'order-summary-provider-en');

    await open(page, h, '/home');
    await waitForText(page, 'Welcome Back!');
    await h.shot(page, 'home-en');

    const zh = await h.newPage({ locale: 'zh-CN' });
    await loginAs(zh, h, provider.loginId);
    await open(zh, h, '/orders');
    await clickWhenReady(zh, '[data-testid="tab-submitted"]');
    await waitForText(zh, 'Curie');
    await h.shot(zh, 'orders-list-zh');
    await open(zh, h, '/home');
    await zh.waitForSelector('[data-testid="app-menu"]');
    await waitForText(zh, '欢迎回来！');
    expect(await bodyText(zh)).not.toContain('Welcome Back!');
    await h.shot(zh, 'home-zh');
  }, 600_000);

  it('the Medicare warning shows on the Billing step of a NeXT Personal Dx order while drug name or stage is missing', async () => {
    const auth = (await login(h.sys, provider.loginId)).authorization;
    const draft = await h.api(auth, 'POST', '/portal/api/v1/testOrderForms', {
      orderInformation: { nextPersonalDx: true, orderType: 'INITIAL_ORDER' },
      tumorSpecimen: { icd10Codes: 'C50.911', stage: 'II' },
      billings: [{ preference: 'PRIMARY', billingType: 'MEDICARE', relationshipToPatient: 'SELF' }],
    });
    expect(draft.status, JSON.stringify(draft.body)).toBe(200);
    const page = await h.newPage();
    await loginAs(page, h, provider.loginId);
    await open(page, h, `/order/${draft.body.id}`);
    await clickWhenReady(page, '[data-step="billing"]');
    await stepIs(page, 'billing');
    await waitForText(page, 'Drug Name, Stage and ICD10 codes are mandatory for Medicare Payment Type');
    await h.shot(page, 'wizard-6-billing-medicare-warning');
    // the drug name given on the Specimen step: the warning goes
    await clickWhenReady(page, '[data-step="specimen"]');
    await stepIs(page, 'specimen');
    await fill(page, field('tumorSpecimen.drugName'), 'Trastuzumab');
    await clickWhenReady(page, '[data-step="billing"]');
    await stepIs(page, 'billing');
    expect(await bodyText(page)).not.toContain('mandatory for Medicare Payment Type');
  }, 120_000);

  it('an observer cannot start an order', async () => {
    const auth = (await login(h.sys, observer.loginId)).authorization;
    const res = await h.api(auth, 'POST', '/portal/api/v1/testOrderForms', {
      orderInformation: { nextDx: true },
    });
    expect(res.status).toBe(403);
    const page = await h.newPage();
    await loginAs(page, h, observer.loginId);
    await open(page, h, '/orders');
    await waitForText(page, 'Start a New Order');
    expect(await buttonEnabled(page, 'Start a New Order')).toBe(false);
  }, 120_000);
});
