/**
 * Browser test, Merge Patients (spec 2 sections 2.6, 5, 6), on the real backend with its workers (Kafka, the
 * store, Redis) and headless Debian chromium. A portal administrator (CAN_MERGE_PATIENTS) selects a duplicate in
 * the patients list, searches and picks the primary (the duplicate is not offered), sees the preview (one
 * requisition moves; the date of birth and MRN conflict, the primary's kept), merges and follows the bar to 100 %;
 * the duplicate leaves the list, its requisition is on the primary's Test History, its own page says into whom it
 * was merged; then the primary's "Merged patients" undoes it and the duplicate is back. Chinese: the patients
 * list and the dialog in zh-CN.
 * Screenshots in /tmp/shots/ (and .data/screenshots/).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import {
  animationsDone,
  bodyText,
  clickButton,
  clickWhenReady,
  fill,
  loginAs,
  open,
  submitRequisition,
  until,
  useConsole,
  waitForText,
} from '../../../test/harness';
import { createReferenceModule } from '../../../../services/reference/src/index';
import { referenceModels } from '../../../../services/reference/src/models';
import type { SeedResult } from '../../../../services/reference/src/seed';

const P = '/portal/api/v1';

interface Pat {
  id: string;
  userId: string;
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  mrn: string;
}

describe('Merge Patients (real backend with workers, chromium)', () => {
  let seed: SeedResult;
  let auth: string;
  let target: Pat;
  let source: Pat;
  let requisition: { id: string; testRequisitionId: string };
  let token: string;

  const { h, admin } = useConsole({
    users: { admin: 'ROLE_PORTAL_ADMIN' },
    signIn: ['admin'],
    timeout: 240_000,
    seed: async (h, { admin }) => {
      auth = admin.authorization;
      seed = await createReferenceModule(h.sys.ctx).seedReference({ referenceData: 'fixtures' });
      const [A] = seed.accounts;
      const physician = seed.physicians.find((p) => p.accountIds.includes(A.id))!;
      const ref = referenceModels(h.sys.ctx.mongo);
      token = `Mrg${h.sys.suffix.slice(0, 6)}`;
      const make = async (p: Pat) => {
        await ref.Patient.create({
          _id: p.id,
          userId: p.userId,
          firstName: p.firstName,
          lastName: p.lastName,
          name: `${p.firstName} ${p.lastName}`,
          dateOfBirth: p.dateOfBirth,
          birthSex: 'FEMALE',
          mrn: p.mrn,
          phone: '6195550100',
          address: { street: '1 Harbor Dr', city: 'San Diego', state: 'CA', postalCode: '92101' },
          accountIds: [A.id],
          physicianIds: [physician.id],
        });
        return p;
      };
      target = await make({
        id: `mrg-t-${h.sys.suffix}`,
        userId: crypto.randomUUID(),
        firstName: 'Ada',
        lastName: `${token}primary`,
        dateOfBirth: '1961-02-03',
        mrn: 'MRN-100',
      });
      source = await make({
        id: `mrg-s-${h.sys.suffix}`,
        userId: crypto.randomUUID(),
        firstName: 'Ada',
        lastName: `${token}dup`,
        dateOfBirth: '1961-03-02',
        mrn: 'MRN-200',
      });
      // a submitted requisition of the duplicate (it moves to the primary)
      const sub = await submitRequisition(h, auth, {
        account: A,
        physicianId: physician.id,
        patientId: source.id,
        patient: { ...source },
      });
      requisition = { id: sub.id, testRequisitionId: sub.testRequisitionId };
      // the reference service learns the duplicate's requisition from the requisitions service's events
      await until(
        'the reference service to learn the requisition',
        async () =>
          (await ref.PatientRequisition.countDocuments({ _id: requisition.id, patientId: source.id })) === 1,
        60_000,
        300,
      );
    },
  });

  const shot = (page: Page, name: string) => h.shot(page, name);

  /** Search the list and wait until it shows the matching rows only (a search clears the selection). */
  async function searchList(page: Page, text: string, rows = 2) {
    await fill(page, '[data-testid="list-search"]', text);
    await page.waitForFunction(
      (n) => document.querySelectorAll('tbody tr[data-testid^="row-"]').length === n,
      {},
      rows,
    );
    await animationsDone(page);
  }

  it('merges a duplicate into the primary with preview and progress, then undoes it', async () => {
    const page = await h.newPage({ width: 1500, height: 960 });
    await loginAs(page, h, admin.loginId);
    await open(page, h, '/patients');
    await searchList(page, token);
    await page.waitForSelector(`[data-testid="row-${source.id}"] input[type="checkbox"]`);
    await page.waitForSelector(`[data-testid="row-${target.id}"]`);
    await page.click(`[data-testid="row-${source.id}"] input[type="checkbox"]`);
    await clickWhenReady(page, '[data-testid="patients-actions"]');
    await clickWhenReady(page, '[data-testid="patients-action-merge"]:not(.Mui-disabled)');
    await page.waitForSelector('[data-testid="merge-dialog"]');
    expect(
      await page.$eval('[data-testid="merge-duplicates"]', (e) => (e as HTMLElement).innerText),
    ).toContain(source.userId);

    // the primary search (debounced): the duplicate is never offered
    await fill(page, '[data-testid="merge-primary-search"]', token);
    await page.waitForSelector(`[data-testid="merge-primary-${target.id}"]`);
    expect(await page.$(`[data-testid="merge-primary-${source.id}"]`)).toBeNull();
    expect(
      await page.$eval('[data-testid="merge-preview-next"]', (b) => (b as HTMLButtonElement).disabled),
    ).toBe(true);
    await clickWhenReady(page, `[data-testid="merge-primary-${target.id}"]`);
    await shot(page, 'merge-pick-primary');
    await clickWhenReady(page, '[data-testid="merge-preview-next"]:not([disabled])');

    // the preview: what moves and the conflicts, the primary's values kept
    await page.waitForSelector('[data-testid="merge-preview"]');
    expect(await page.$eval('[data-testid="merge-moves-requisitions"]', (e) => e.textContent)).toBe('1');
    const dob = await page.$eval(
      '[data-testid="merge-conflict-dateOfBirth"]',
      (e) => (e as HTMLElement).innerText,
    );
    expect(dob).toContain('02/03/1961');
    expect(dob).toContain('03/02/1961');
    const mrn = await page.$eval('[data-testid="merge-conflict-mrn"]', (e) => (e as HTMLElement).innerText);
    expect(mrn).toContain('MRN-100');
    expect(mrn).toContain('MRN-200');
    expect(await bodyText(page)).toContain("The primary patient's values are kept");
    await shot(page, 'merge-preview');

    // merge: the bar follows the server to 100 %
    await clickWhenReady(page, '[data-testid="merge-submit"]');
    await page.waitForSelector('[data-testid="merge-progress"]');
    await shot(page, 'merge-progress');
    // the finished bar shows 1.5 s before the dialog closes: read it as soon as it says 100 %
    const finished = await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="merge-progress-percent"]')?.textContent === '100%' &&
        document.querySelector('[data-testid="merge-progress-count"]')?.textContent,
      { timeout: 90_000, polling: 50 },
    );
    expect(await finished.jsonValue()).toBe('1 of 1 requisitions moved');
    await shot(page, 'merge-progress-done');
    await waitForText(page, 'The patients have been merged');
    await page.waitForFunction(() => !document.querySelector('[data-testid="merge-dialog"]'));
    // the duplicate leaves the list
    await page.waitForFunction((id) => !document.querySelector(`[data-testid="row-${id}"]`), {}, source.id);
    expect(await page.$(`[data-testid="row-${target.id}"]`)).not.toBeNull();
    await shot(page, 'merge-list-after');

    // the primary: the requisition on its Test History, the merge with Undo
    await clickWhenReady(page, `[data-testid="patient-link-${target.id}"]`);
    await page.waitForSelector('[data-testid="patient-detail"]');
    await page.waitForSelector(`[data-testid="history-row-${requisition.id}"]`);
    await page.waitForSelector('[data-testid="patient-merges"]');
    const panel = await page.$eval('[data-testid="patient-merges"]', (e) => (e as HTMLElement).innerText);
    expect(panel).toContain('Merged patients');
    expect(panel).toContain(source.userId);
    const merges = await h.api(auth, 'GET', `${P}/patients/${target.id}/merges`);
    expect(merges.status).toBe(200);
    const mergeId = merges.body[0].id as string;
    expect(merges.body[0]).toMatchObject({ status: 'DONE', undoable: true });
    await page.waitForSelector(`[data-testid="patient-merge-undo-${mergeId}"]:not([disabled])`);
    await shot(page, 'merge-patient-page');

    // the duplicate's own page says into whom it was merged
    const sourcePage = await h.newPage({ width: 1500, height: 960 });
    await loginAs(sourcePage, h, admin.loginId);
    await open(sourcePage, h, `/patient/${source.id}`);
    await sourcePage.waitForSelector('[data-testid="patient-merged-into"]');
    await sourcePage.waitForFunction(
      (n) => document.querySelector('[data-testid="patient-merged-into"]')?.textContent?.includes(n),
      {},
      target.userId,
    );
    expect(await sourcePage.$('[data-testid="patient-edit"]')).toBeNull();
    await shot(sourcePage, 'merge-source-page');
    await clickWhenReady(sourcePage, '[data-testid="patient-merged-into-link"]');
    await sourcePage.waitForFunction(
      (n) => document.querySelector('[data-testid="patient-info-number"]')?.textContent === n,
      {},
      target.userId,
    );

    // undo: confirm, the bar, the duplicate back
    await clickWhenReady(page, `[data-testid="patient-merge-undo-${mergeId}"]`);
    await page.waitForSelector('[data-testid="confirm-dialog"]');
    await waitForText(page, 'Undo the merge of');
    await shot(page, 'merge-undo-confirm');
    await clickButton(page, 'Yes', true);
    await page.waitForSelector('[data-testid="undo-progress-dialog"]');
    await shot(page, 'merge-undo-progress');
    await waitForText(page, 'The merge has been undone', 90_000);
    await page.waitForFunction(
      (id) => document.querySelector(`[data-testid="patient-merge-status-${id}"]`)?.textContent === 'Undone',
      {},
      mergeId,
    );
    await page.waitForFunction(
      (id) => !document.querySelector(`[data-testid="history-row-${id}"]`),
      { timeout: 30_000 },
      requisition.id,
    );
    await page.waitForFunction(() => !document.querySelector('[data-testid="undo-progress-dialog"]'));
    await shot(page, 'merge-undone-patient-page');
    await open(page, h, '/patients');
    await searchList(page, token);
    await page.waitForSelector(`[data-testid="row-${source.id}"]`);
    await shot(page, 'merge-list-after-undo');
    await open(page, h, `/patient/${source.id}`);
    await page.waitForSelector(`[data-testid="history-row-${requisition.id}"]`);
    expect(await page.$('[data-testid="patient-merged-into"]')).toBeNull();
  }, 300_000);

  it('an undo blocked since (a billing entry added to the primary) shows the reason; Undo stays disabled', async () => {
    const ref = referenceModels(h.sys.ctx.mongo);
    const [A] = seed.accounts;
    const other = {
      id: `mrg-s2-${h.sys.suffix}`,
      userId: crypto.randomUUID(),
      firstName: 'Ada',
      lastName: `${token}third`,
    };
    await ref.Patient.create({
      _id: other.id,
      userId: other.userId,
      firstName: other.firstName,
      lastName: other.lastName,
      name: `${other.firstName} ${other.lastName}`,
      dateOfBirth: '1961-02-03',
      birthSex: 'FEMALE',
      accountIds: [A.id],
      physicianIds: [],
    });
    const fresh = await h.api(auth, 'GET', `${P}/patients/${target.id}`);
    const started = await h.api(auth, 'POST', `${P}/patients/mergePatients?sourceId=${other.id}`, {
      targetPatient: { id: target.id, version: fresh.body.version },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const until = Date.now() + 60_000;
    while ((await h.api(auth, 'GET', `${P}/patients/merges/${started.body.id}`)).body.status !== 'DONE') {
      if (Date.now() > until) throw new Error('the merge never finished');
      await new Promise((r) => setTimeout(r, 300));
    }
    const billing = await h.api(auth, 'POST', `${P}/patients/${target.id}/billings`, {
      billingType: 'SELF',
      preference: 'PRIMARY',
    });
    expect(billing.status, JSON.stringify(billing.body)).toBeLessThan(300);
    const merge = (await h.api(auth, 'GET', `${P}/patients/merges/${started.body.id}`)).body;
    expect(merge.undoable).toBe(false);
    expect(merge.undoBlockedReason).toBeTruthy();

    const page = await h.newPage({ width: 1500, height: 960 });
    await loginAs(page, h, admin.loginId);
    await open(page, h, `/patient/${target.id}`);
    await page.waitForSelector(`[data-testid="patient-merge-undo-${merge.id}"][disabled]`);
    expect(await page.$eval(`[data-testid="patient-merge-blocked-${merge.id}"]`, (e) => e.textContent)).toBe(
      merge.undoBlockedReason,
    );
    await shot(page, 'merge-undo-blocked');
  }, 120_000);

  it('the patients list and the merge dialog in Chinese', async () => {
    const page = await h.newPage({ locale: 'zh-CN', width: 1500, height: 960 });
    await loginAs(page, h, admin.loginId);
    await open(page, h, '/patients');
    await waitForText(page, '查找患者及其检测历史和账单信息');
    await page.waitForSelector(`[data-testid="row-${target.id}"]`);
    const text = await bodyText(page);
    for (const s of ['患者编号', '出生性别', '出生日期']) expect(text).toContain(s);
    await shot(page, 'patients-list-zh');
    await searchList(page, token);
    await page.waitForSelector(`[data-testid="row-${source.id}"] input[type="checkbox"]`);
    await page.click(`[data-testid="row-${source.id}"] input[type="checkbox"]`);
    await clickWhenReady(page, '[data-testid="patients-actions"]');
    await waitForText(page, '合并患者');
    await clickWhenReady(page, '[data-testid="patients-action-merge"]:not(.Mui-disabled)');
    await page.waitForSelector('[data-testid="merge-dialog"]');
    await waitForText(page, '请选择主患者');
    await fill(page, '[data-testid="merge-primary-search"]', token);
    await clickWhenReady(page, `[data-testid="merge-primary-${target.id}"]`);
    await clickWhenReady(page, '[data-testid="merge-preview-next"]:not([disabled])');
    await page.waitForSelector('[data-testid="merge-conflicts"]');
    await waitForText(page, '冲突字段');
    await shot(page, 'merge-preview-zh');
  }, 120_000);
});
