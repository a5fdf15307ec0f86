/**
 * Browser tests, the patients screens (spec 2 sections 2.6, 2.7; issue 15), on the real backend with its workers
 * and headless Debian chromium:
 *  1. a provider (NPI) opens /patients: only their account's patients, phones as (xxx) xxx-xxxx, no Actions menu;
 *     filters by Provider (the facet's names), opens a patient, sees the Patient Information, the Test History
 *     (their submitted requisition with its test, "No samples found") and adds a billing entry with the payor
 *     search in "Add or Edit Billing Information";
 *  2. an admin renumbers a patient: Update Patient # disabled until a UUID, a number in use refused with the
 *     server's message, then renumbered; Merge Patients is offered for the selection (merge-patients.e2e.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { msgPatientNumberInUse } from '@onco/domain';
import {
  bodyText,
  clickButton,
  clickWhenReady,
  fill,
  login,
  loginAs,
  open,
  pickFacet,
  signedInUser,
  submitRequisition,
  useConsole,
  waitForText,
  type ConsoleUser,
} from '../../../test/harness';
import { createReferenceModule } from '../../../../services/reference/src/index';
import type { SeedResult } from '../../../../services/reference/src/seed';

describe('patients list and patient detail (real backend with workers, chromium)', () => {
  let seed: SeedResult;
  let provider: ConsoleUser;
  let patient: SeedResult['patients'][number];
  let requisition: { id: string; testRequisitionId: string; testId: string };

  const { h, admin } = useConsole({
    users: { admin: 'ROLE_PORTAL_ADMIN' },
    timeout: 180_000,
    seed: async (h) => {
      seed = await createReferenceModule(h.sys.ctx).seedReference({ referenceData: 'fixtures' });
      const [A] = seed.accounts;
      const physician = seed.physicians.find((p) => p.accountIds.includes(A.id))!;
      patient = seed.patients.find((p) => p.physicianIds.includes(physician.id))!;
      provider = await signedInUser(h, 'ROLE_NPI', { account: A, physicianId: physician.id });
      // the provider submits a requisition for the patient
      const [firstName, lastName] = patient.name.split(' ');
      const sub = await submitRequisition(h, provider.authorization, {
        account: A,
        physicianId: physician.id,
        patientId: patient.id,
        patient: { id: patient.id, userId: patient.userId, firstName, lastName, name: patient.name },
      });
      requisition = { id: sub.id, testRequisitionId: sub.testRequisitionId, testId: sub.testOrders[0].id };
    },
  });

  it('a provider finds the patient, opens the test history and adds a billing entry', async () => {
    const page = await h.newPage();
    await loginAs(page, h, provider.loginId);
    await open(page, h, '/patients');
    await page.waitForSelector(`[data-testid="patient-link-${patient.id}"]`);
    const text = await bodyText(page);
    const [, B] = seed.accounts;
    // the headers (shown upper-case)
    for (const col of ['Patient #', 'First Name', 'Middle Name', 'Birth Sex', 'D.O.B', 'MRN', 'Diagnosis'])
      expect(text.toUpperCase()).toContain(col.toUpperCase());
    // only account A's patients; phones as (xxx) xxx-xxxx
    for (const p of seed.patients.filter((x) => x.accountIds.includes(B.id)))
      expect(text).not.toContain(p.userId);
    const phone = await page.$eval(`[data-testid="patient-phone-${patient.id}"]`, (e) => e.textContent);
    expect(phone).toMatch(/^\(\d{3}\) \d{3}-\d{4}$/);
    // a provider has no patient actions; the search box is there (CAN_SEARCH_PATIENT)
    expect(await page.$('[data-testid="patients-actions"]')).toBeNull();
    expect(await page.$('[data-testid="list-search"]')).not.toBeNull();
    // the Provider filter lists names; picking one narrows the list
    const doctor = seed.physicians.find((p) => patient.physicianIds.includes(p.id))!;
    await pickFacet(page, 'Provider', doctor.name);
    await page.waitForFunction(
      (n) => document.querySelectorAll('tbody tr').length === n,
      {},
      seed.patients.filter((p) => p.physicianIds.includes(doctor.id)).length,
    );
    await h.shot(page, 'patients-provider-list');

    // the patient
    await clickWhenReady(page, `[data-testid="patient-link-${patient.id}"]`);
    await page.waitForSelector('[data-testid="patient-detail"]');
    expect(await page.$eval('[data-testid="patient-info-number"]', (e) => e.textContent)).toBe(
      patient.userId,
    );
    expect(await page.$eval('[data-testid="patient-info-phone"]', (e) => e.textContent)).toMatch(
      /^\(\d{3}\) \d{3}-\d{4}$/,
    );
    await page.waitForSelector(`[data-testid="history-row-${requisition.id}"]`);
    const history = await page.$eval(
      '[data-testid="patient-test-history"]',
      (e) => (e as HTMLElement).innerText,
    );
    expect(history).toContain(requisition.testRequisitionId);
    expect(history).toContain('No samples found');
    expect(history).toContain('No TRF Selected');
    expect(await page.$(`[data-testid="history-test-${requisition.testId}"]`)).not.toBeNull();
    // the test's status comes from the lab's events (the requisition's projection)
    await page.waitForFunction(
      (id) => document.querySelector(`[data-testid="history-status-${id}"]`)?.textContent !== '',
      {},
      requisition.testId,
    );
    await h.shot(page, 'patient-test-history');

    // Billing Information: add an entry with the payor search
    await clickWhenReady(page, '[data-testid="patient-tab-billing"]');
    await waitForText(page, 'No billing information for this patient');
    await clickWhenReady(page, '[data-testid="billing-add"]');
    await page.waitForSelector('[data-testid="billing-dialog"]');
    await waitForText(page, 'Add or Edit Billing Information');
    const save = '[data-testid="billing-save"]';
    expect(await page.$eval(save, (b) => (b as HTMLButtonElement).disabled)).toBe(true);
    await fill(page, '[data-testid="billing-payor-search"]', 'Aetn');
    await page.waitForSelector('.MuiAutocomplete-popper li');
    await clickWhenReady(page, '.MuiAutocomplete-popper li');
    await page.waitForFunction(
      () =>
        (document.querySelector('[data-testid="billing-field-payorId"]') as HTMLInputElement)?.value ===
        '60054',
    );
    await fill(page, '[data-testid="billing-field-insuredName"]', patient.name);
    await fill(page, '[data-testid="billing-field-insuredDob"]', '13/45/1970');
    await waitForText(page, 'Enter a valid date (MM/DD/YYYY)');
    await fill(page, '[data-testid="billing-field-insuredDob"]', '01/02/1970');
    await fill(page, '[data-testid="billing-field-policyNumber"]', 'AET-7788');
    await page.waitForFunction((s) => !(document.querySelector(s) as HTMLButtonElement).disabled, {}, save);
    await h.shot(page, 'patient-billing-dialog');
    await clickWhenReady(page, save);
    await page.waitForFunction(() => !document.querySelector('[data-testid="billing-dialog"]'));
    await waitForText(page, 'AET-7788');
    const cards = await page.$$eval('[data-testid^="billing-card-"]', (els) =>
      els.map((e) => (e as HTMLElement).innerText),
    );
    expect(cards).toHaveLength(1);
    expect(cards[0]).toContain('Aetna');
    expect(cards[0]).toContain('Default');
    // a provider has no card menu (VIEW_BILLING_ACTIONS)
    expect(await page.$('[data-testid^="billing-menu-"]')).toBeNull();
    await h.shot(page, 'patient-billing-cards');
  }, 180_000);

  it("the Test History's Report opens the test's report in the Test Report viewer", async () => {
    // the lab reports the test through its API: In Progress, a PDF uploaded, submitted (REPORT_COMPLETE)
    const lab = (await login(h.sys, admin.loginId)).authorization;
    const OMS = '/oms/api/v1/testOrders';
    const until = Date.now() + 60_000;
    while ((await h.api(lab, 'GET', `${OMS}/${requisition.testId}`)).status !== 200) {
      if (Date.now() > until) throw new Error('the lab never created the test order');
      await new Promise((r) => setTimeout(r, 300));
    }
    const started = await h.api(lab, 'POST', `${OMS}/updateTestsStatus`, {
      uuids: [requisition.testId],
      status: 'IN_PROGRESS',
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const pdf = Buffer.concat([
      Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'),
      Buffer.from('1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'),
    ]);
    const form = new FormData();
    form.append('isAmendedReport', 'false');
    form.append('isTnpReportComplete', 'false');
    form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'report.pdf');
    const up = await fetch(`${h.base}${OMS}/${requisition.testId}/reports/upload`, {
      method: 'POST',
      headers: { authorization: lab },
      body: form,
    });
    const uploaded = (await up.json()) as { filePath: string };
    expect(up.status, JSON.stringify(uploaded)).toBe(200);
    const submitted = await h.api(
      lab,
      'POST',
      `${OMS}/${requisition.testId}/reports/submit?filePath=${encodeURIComponent(uploaded.filePath)}`,
    );
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);

    const page = await h.newPage();
    await loginAs(page, h, provider.loginId);
    await open(page, h, `/patient/${patient.id}`);
    // the requisition's projection learns the report from the lab's test-status event
    const link = `[data-testid="history-report-${requisition.testId}"]`;
    const seen = Date.now() + 60_000;
    while (!(await page.$(link))) {
      if (Date.now() > seen) throw new Error('the Test History never offered the report');
      await page.reload();
      await page.waitForSelector(`[data-testid="history-test-${requisition.testId}"]`);
    }
    await clickWhenReady(page, link);
    await waitForText(page, 'Test Report');
    await page.waitForSelector('.MuiDialog-root iframe');
    await h.shot(page, 'patient-test-report');
  }, 180_000);

  it('an admin renumbers a patient; a number in use is refused with the reason', async () => {
    const [, other] = seed.patients.filter((p) => p.id !== patient.id);
    const inUse = crypto.randomUUID();
    const auth = (await login(h.sys, admin.loginId)).authorization;
    const taken = await h.api(
      auth,
      'PUT',
      `/portal/api/v1/patients/updatePatientId?fromId=${other.userId}&toId=${inUse}`,
    );
    expect(taken.status).toBe(200);

    const page = await h.newPage();
    await loginAs(page, h, admin.loginId);
    await open(page, h, '/patients');
    await page.waitForSelector(`[data-testid="row-${patient.id}"] input[type="checkbox"]`);
    await page.click(`[data-testid="row-${patient.id}"] input[type="checkbox"]`);
    await clickWhenReady(page, '[data-testid="patients-actions"]');
    // Merge Patients is offered for the selected patient (the duplicate; merge-patients.e2e.test.ts merges)
    await page.waitForSelector('[data-testid="patients-action-merge"]:not(.Mui-disabled)');
    await h.shot(page, 'patients-admin-actions');
    await clickWhenReady(page, '[data-testid="patients-action-number"]');
    await page.waitForSelector('[data-testid="patient-number-dialog"]');
    const submit = '[data-testid="patient-number-submit"]';
    await fill(page, '[data-testid="patient-number-input"]', 'PAT-123');
    expect(await page.$eval(submit, (b) => (b as HTMLButtonElement).disabled)).toBe(true);
    await waitForText(page, 'Invalid Patient #');
    await fill(page, '[data-testid="patient-number-input"]', inUse);
    await clickWhenReady(page, submit);
    await waitForText(page, msgPatientNumberInUse(inUse));
    await h.shot(page, 'patients-number-in-use');
    const fresh = crypto.randomUUID();
    await fill(page, '[data-testid="patient-number-input"]', fresh);
    await clickButton(page, 'Update', true);
    await waitForText(page, 'The patient # has been updated successfully');
    await page.waitForFunction(
      (id, n) => document.querySelector(`[data-testid="patient-link-${id}"]`)?.textContent === n,
      {},
      patient.id,
      fresh,
    );
    await h.shot(page, 'patients-renumbered');
    const audit = await h.api(auth, 'GET', `/portal/api/v1/patients/${patient.id}`);
    expect(audit.body.numberHistory).toEqual([
      expect.objectContaining({ fromId: patient.userId, toId: fresh, changedByName: 'Test PORTAL_ADMIN' }),
    ]);
  }, 180_000);
});
