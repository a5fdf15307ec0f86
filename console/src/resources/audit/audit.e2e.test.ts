/**
 * Browser tests, the audit trail (docs/audit.md), on the real backend with its workers (the chainer among them) and
 * headless Debian chromium:
 *  1. a portal admin opens Audit from the menu: the provider's create, sign and submit and the reads of the
 *     requisition are listed newest first; the Patient id filter narrows them; a row opens the whole entry with its
 *     hash; the screen reads in Chinese too;
 *  2. the patient page's Access History tab lists who read or changed the patient's data;
 *  3. a provider has no Audit menu, no Access History tab, and /audit sends them home.
 */
import { describe, expect, it } from 'vitest';
import {
  animationsDone,
  bodyText,
  clickWhenReady,
  fill,
  loginAs,
  open,
  signedInUser,
  submitRequisition,
  useConsole,
  waitForText,
  type ConsoleUser,
} from '../../../test/harness';
import { auditModels } from '@onco/platform';
import { settled, waitFor } from '@onco/testing';
import { createReferenceModule } from '../../../../services/reference/src/index';
import type { SeedResult } from '../../../../services/reference/src/seed';

describe('the audit trail in the console (real backend with workers, chromium)', () => {
  let seed: SeedResult;
  let provider: ConsoleUser;
  let patient: SeedResult['patients'][number];
  let requisitionId = '';

  const { h, admin } = useConsole({
    users: { admin: 'ROLE_PORTAL_ADMIN' },
    signIn: ['admin'],
    timeout: 180_000,
    seed: async (h) => {
      seed = await createReferenceModule(h.sys.ctx).seedReference({ referenceData: 'fixtures' });
      const [A] = seed.accounts;
      const physician = seed.physicians.find((p) => p.accountIds.includes(A.id))!;
      patient = seed.patients.find((p) => p.physicianIds.includes(physician.id))!;
      provider = await signedInUser(h, 'ROLE_NPI', { account: A, physicianId: physician.id });
      const [firstName, lastName] = patient.name.split(' ');
      const sub = await submitRequisition(h, provider.authorization, {
        account: A,
        physicianId: physician.id,
        patientId: patient.id,
        patient: { id: patient.id, userId: patient.userId, firstName, lastName, name: patient.name },
      });
      requisitionId = sub.id;
      // the provider reads it twice (two entries of their own) and exports the orders (an entry naming no patient)
      for (let i = 0; i < 2; i++)
        expect(
          (await h.api(provider.authorization, 'GET', `/portal/api/v1/testOrderForms/${sub.id}`)).status,
        ).toBe(200);
      expect(
        (await h.api(provider.authorization, 'GET', '/portal/api/v1/testOrderForms/export')).status,
      ).toBe(200);
      // what the submission set off (the lab's test order, its billing case: entries by `system`) is done, and
      // every entry is on the chain: the list's rows are final
      await settled(h.sys);
      await waitFor(async () => (await auditModels(h.sys.ctx.mongo).Inbox.countDocuments()) === 0 || null, {
        what: 'every audit entry chained',
      });
    },
  });

  /** the rows' seq numbers as the table shows them */
  const seqs = (page: Awaited<ReturnType<typeof h.newPage>>) =>
    page.$$eval('[data-testid^="audit-action-"]', (els) =>
      els.map((e) => Number(e.getAttribute('data-testid')!.replace('audit-action-', ''))),
    );

  it('a portal admin lists, filters and opens the entries; the screen reads in Chinese too', async () => {
    const page = await h.newPage();
    await loginAs(page, h, admin.loginId);
    // the admin's own sign-in is an entry too: on the chain before the list is read
    await waitFor(async () => (await auditModels(h.sys.ctx.mongo).Inbox.countDocuments()) === 0 || null, {
      what: "the admin's sign-in chained",
    });
    await clickWhenReady(page, '[data-menu="audit"]');
    await page.waitForFunction(() => location.pathname === '/audit');
    // the sign-ins, the provider's create, sign, submit, two reads and an export, and the system's changes the
    // submission set off: every entry of the trail, newest first
    const total = (await h.api(admin.authorization, 'GET', '/uam/api/v1/audit?page=0&size=100')).body
      .totalElements as number;
    expect(total).toBeGreaterThanOrEqual(6);
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid^="audit-action-"]').length === n,
      {},
      total,
    );
    const text = await bodyText(page);
    for (const col of ['When', 'User', 'Record', 'Patient', 'Action', 'Outcome', 'From'])
      expect(text.toUpperCase()).toContain(col.toUpperCase());
    expect(text).toContain('Requisition');
    expect(text).toContain(requisitionId);
    const all = await seqs(page);
    expect(all.length).toBe(total);
    const byProvider = (
      await h.api(
        admin.authorization,
        'GET',
        `/uam/api/v1/audit?filter=${encodeURIComponent(JSON.stringify({ userId: provider._id }))}`,
      )
    ).body.totalElements;
    // the provider's sign-in (its session for the API), create, sign, submit, two reads and the export
    expect(byProvider).toBe(7);
    expect(text).toContain('Sign in');
    expect(all).toEqual([...all].sort((a, b) => b - a));

    // the Patient id filter: only the entries naming the patient
    await fill(page, '[data-testid="audit-filter-patientId"]', patient.id);
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid^="audit-action-"]').length < n,
      {},
      all.length,
    );
    const shown = await seqs(page);
    const ofPatient = (
      await h.api(
        admin.authorization,
        'GET',
        `/uam/api/v1/audit?filter=${encodeURIComponent(JSON.stringify({ patientId: patient.id }))}`,
      )
    ).body.totalElements;
    expect(shown.length).toBe(ofPatient);
    const actions = await page.$$eval('[data-testid^="audit-action-"]', (els) =>
      els.map((e) => e.textContent),
    );
    // an export names no patient, a sign-in neither
    expect(actions).not.toContain('Export');
    expect(actions).not.toContain('Sign in');
    await h.shot(page, 'audit-en', { always: true });

    // a row opens the whole entry, with its hash
    await page.click(`[data-testid="audit-action-${shown[0]}"]`);
    await page.waitForSelector('[data-testid="audit-entry"]');
    await animationsDone(page);
    const hash = await page.$eval('[data-testid="audit-entry-hash"]', (e) => e.textContent);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await bodyText(page)).toContain(`Audit entry ${shown[0]}`);
    await h.shot(page, 'audit-entry-en', { always: true });
    await page.click('[data-testid="audit-entry-close"]');

    const zh = await h.newPage({ locale: 'zh-CN' });
    await loginAs(zh, h, admin.loginId);
    await open(zh, h, '/audit');
    await zh.waitForSelector('[data-testid^="audit-action-"]');
    await waitForText(zh, '谁在何处读取、修改、导出或下载了哪位患者的数据');
    expect(await bodyText(zh)).toContain('申请单');
    await h.shot(zh, 'audit-zh', { always: true });
  });

  it("the patient page's Access History tab lists who read or changed the patient's data", async () => {
    const page = await h.newPage();
    await loginAs(page, h, admin.loginId);
    await open(page, h, `/patient/${encodeURIComponent(patient.id)}`);
    await clickWhenReady(page, '[data-testid="patient-tab-access"]');
    await page.waitForSelector('[data-testid="patient-access-history"] [data-testid^="audit-action-"]');
    const text = await page.$eval(
      '[data-testid="patient-access-history"]',
      (e) => (e as HTMLElement).innerText,
    );
    // the provider's reads and changes of the requisition, and this admin's read of the patient
    expect(text).toContain('Requisition');
    expect(text).toContain('Read');
    expect(text).toContain('Update');
    expect(text).toContain('ROLE_NPI');
    await h.shot(page, 'patient-access-history-en', { always: true });
  });

  it('a provider has no Audit menu nor Access History, and /audit sends them home', async () => {
    const page = await h.newPage();
    await loginAs(page, h, provider.loginId);
    const menu = await page.$$eval('[data-menu]', (els) => els.map((e) => e.getAttribute('data-menu')));
    expect(menu).not.toContain('audit');
    await open(page, h, '/audit');
    await page.waitForFunction(() => location.pathname !== '/audit');
    await open(page, h, `/patient/${encodeURIComponent(patient.id)}`);
    await page.waitForSelector('[data-testid="patient-tab-tests"]');
    expect(await page.$('[data-testid="patient-tab-access"]')).toBeNull();
  });
});
