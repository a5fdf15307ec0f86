/**
 * Browser tests, the Attachment Box (/box, spec 3 section 2.8; issue 14), on the real backend with its workers
 * (the sample-manifest worker included) and headless Debian chromium:
 *  1. the screen: "No Documents found", Actions → Download template, Add Attachment (Upload disabled until a file
 *     is chosen, a wrong file type refused with the Box's text), a PDF note uploaded and listed with its delete
 *     icon, 'Delete file: {name}' → Yes (soft delete);
 *  2. the manifest journey: an accessioner checks a manifest (dry run, nothing applied), uploads it with an
 *     integer-percent progress, sees it become Processed by itself, opens its summary (counts, the expected
 *     sample still missing), finds the new samples on the order's Samples tab; then uploads a bad manifest, sees
 *     the red Error, opens "Sample Manifest Errors", copies the details and downloads the error file.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ElementHandle, Page } from 'puppeteer-core';
import { labModels, seedDomainPreferences } from '@onco/lab';
import {
  blankPdf,
  bodyText,
  chooseOption,
  clickWhenReady,
  labKnowsRequisition,
  loginAs,
  open,
  submitRequisition,
  useConsole,
  waitForText,
} from '../../../test/harness';
import { referenceModels } from '../../../../services/reference/src/index';
import { requisitionModels } from '../../../../services/requisitions/src/models';
import { HEADER, manifestFile, row } from '@onco/lab/testing';

const ACCOUNT = { id: 'acc-box-e2e', name: 'Box Harbor Oncology' };
const PHYSICIAN = 'phy-box-e2e';
const FILE_TYPE_TEXT = 'Invalid file type. Please select a valid file (.xlsx, .xls, .csv, .pdf).';

/** Downloads of this page's browser context land in `dir`. */
async function downloadsTo(page: Page, dir: string) {
  const cdp = await page.createCDPSession();
  await cdp.send('Browser.setDownloadBehavior', {
    behavior: 'allow',
    downloadPath: dir,
    browserContextId: (page.browserContext() as unknown as { id?: string }).id,
    eventsEnabled: true,
  });
}

/** Wait until a finished download named `name` is in `dir`; its bytes. */
async function downloaded(dir: string, name: string, timeout = 20_000): Promise<Buffer> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const file = path.join(dir, name);
    if (existsSync(file) && !readdirSync(dir).some((f) => f.endsWith('.crdownload')))
      return readFileSync(file);
    if (Date.now() > deadline)
      throw new Error(`no download ${name} in ${dir}: ${JSON.stringify(readdirSync(dir))}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function chooseFile(page: Page, file: string) {
  const input = (await page.$('[data-testid="box-upload-input"]')) as ElementHandle<HTMLInputElement>;
  await input.uploadFile(file);
}

/** Choose an option of the upload dialog's type select. */
const chooseType = (page: Page, value: string) => chooseOption(page, 'box-upload-type', value);

async function openUpload(page: Page) {
  await clickWhenReady(page, '[data-testid="box-actions"]');
  await clickWhenReady(page, '[data-testid="box-action-add"]');
  await page.waitForSelector('[data-testid="box-upload-dialog"]');
  await waitForText(page, `Account: ${ACCOUNT.name}`);
}

/** Record every text the upload's percent shows (installed before Upload is clicked). */
async function recordPercents(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __percents: string[] };
    w.__percents = [];
    const seen = () => {
      const el = document.querySelector('[data-testid="box-upload-percent"]');
      const v = el?.textContent ?? null;
      if (v !== null && w.__percents[w.__percents.length - 1] !== v) w.__percents.push(v);
    };
    new MutationObserver(seen).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
    });
  });
}

const SUBMIT = '[data-testid="box-upload-submit"]';
const submitDisabled = (page: Page) => page.$eval(SUBMIT, (b) => (b as HTMLButtonElement).disabled);

describe('attachment box and sample manifests (real backend with workers, chromium)', () => {
  let requisition: { id: string; testRequisitionId: string };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'box-e2e-'));
  const downloads = mkdtempSync(path.join(os.tmpdir(), 'box-e2e-downloads-'));
  const pdf = path.join(dir, 'referral-letter.pdf');
  const docx = path.join(dir, 'notes.docx');
  const good = path.join(dir, 'manifest-good.csv');
  const bad = path.join(dir, 'manifest-bad.csv');
  const run = Date.now().toString(36).slice(-5).toUpperCase();
  const tubes = [`BLK-${run}-1`, `BLK-${run}-2`];

  const { h, accessioner } = useConsole({
    users: { accessioner: 'ROLE_ACCESSIONER' },
    signIn: ['accessioner'],
    timeout: 240_000,
    seed: async (h, { accessioner }) => {
      writeFileSync(pdf, blankPdf());
      writeFileSync(docx, 'not allowed');
      await seedDomainPreferences(labModels(h.sys.ctx.mongo));
      await referenceModels(h.sys.ctx.mongo).Account.create({
        _id: ACCOUNT.id,
        accountId: 'B-1',
        name: ACCOUNT.name,
      });
      // a submitted requisition of the account (the lab makes its test orders from the submission event)
      const auth = accessioner.authorization;
      const sub = await submitRequisition(h, auth, {
        account: ACCOUNT,
        physicianId: PHYSICIAN,
        patientId: null,
      });
      requisition = { id: sub.id, testRequisitionId: sub.testRequisitionId };
      await labKnowsRequisition(h, auth, requisition.id);
      // two tumor blocks of the requisition (no matched normal: the summary lists it as missing); a Notes column
      // the manifest does not know (ignored) makes the file big enough for the upload's progress to be seen
      const notes = 'Received in good condition, labels checked against the requisition. '.repeat(8);
      writeFileSync(
        good,
        manifestFile(
          [
            [...HEADER, 'Notes'],
            [...row(requisition.testRequisitionId, 'TUMOR', tubes[0]), notes],
            [...row(requisition.testRequisitionId, 'TUMOR', tubes[1]), notes],
          ],
          'csv',
        ),
      );
      // an unknown TRF # and a bad date
      writeFileSync(
        bad,
        manifestFile(
          [
            HEADER,
            row('TRF-DOES-NOT-EXIST', 'TUMOR', `BAD-${run}-1`),
            row(requisition.testRequisitionId, 'TUMOR', `BAD-${run}-2`, { 'Collection Date': '2026-13-45' }),
          ],
          'csv',
        ),
      );
    },
  });

  it('the screen: empty text, template, upload dialog rules, a note uploaded and deleted', async () => {
    const page = await h.newPage({ width: 1500, height: 950 });
    await downloadsTo(page, downloads);
    await loginAs(page, h, accessioner.loginId);
    await open(page, h, '/box');
    await waitForText(page, 'Document Uploads');
    await waitForText(page, 'No Documents found');
    await h.shot(page, 'box-empty-en');

    // Actions: Add Attachment and the template downloads
    await clickWhenReady(page, '[data-testid="box-actions"]');
    await waitForText(page, 'Add Attachment');
    await waitForText(page, 'Download template (.xlsx)');
    await h.shot(page, 'box-actions-en');
    await clickWhenReady(page, '[data-testid="box-action-template-csv"]');
    const template = (await downloaded(downloads, 'sample-manifest-template.csv')).toString('utf8');
    expect(template.split(/\r?\n/)[0]).toContain('TRF #');
    expect(template.split(/\r?\n/)[0]).toContain('Specimen ID');

    await openUpload(page);
    expect(await submitDisabled(page)).toBe(true);
    // the default type is Sample Manifest
    expect(await page.$eval('[data-testid="box-upload-type"]', (i) => (i as HTMLInputElement).value)).toBe(
      'SAMPLE_MANIFEST',
    );
    await chooseFile(page, docx);
    await waitForText(page, FILE_TYPE_TEXT);
    expect(await submitDisabled(page)).toBe(true);
    await h.shot(page, 'box-upload-bad-type-en');

    // a PDF note: it stays UPLOADED (no worker reads a note), so it can be deleted
    await chooseType(page, 'NOTE');
    await chooseFile(page, pdf);
    await page.waitForFunction((s) => !(document.querySelector(s) as HTMLButtonElement).disabled, {}, SUBMIT);
    expect(await bodyText(page)).not.toContain(FILE_TYPE_TEXT);
    // no dry run for a note
    expect(await page.$('[data-testid="box-upload-check"]')).toBeNull();
    await clickWhenReady(page, SUBMIT);
    await waitForText(page, 'The file has been uploaded');
    await waitForText(page, 'referral-letter.pdf');

    const models = requisitionModels(h.sys.ctx.mongo);
    const note = (await models.Attachment.findOne({ name: 'referral-letter.pdf' }).lean().exec())!;
    expect(note).toMatchObject({ type: 'NOTE', status: 'UPLOADED', account: { id: ACCOUNT.id } });
    await clickWhenReady(page, `[data-testid="box-delete-${note._id}"]`);
    await waitForText(page, 'Delete file: referral-letter.pdf');
    await h.shot(page, 'box-delete-en');
    await clickWhenReady(page, '[role="dialog"] button:last-of-type');
    await waitForText(page, 'The file has been deleted');
    await page.waitForFunction(
      (id) => !document.querySelector(`[data-testid="box-download-${id}"]`),
      {},
      String(note._id),
    );
    expect((await models.Attachment.findById(note._id).lean().exec())!.deleted).toBe(true);
    await waitForText(page, 'No Documents found');
  }, 180_000);

  it('a manifest: checked, uploaded with progress, Processed, summary, samples on the order', async () => {
    const page = await h.newPage({ width: 1500, height: 950 });
    await loginAs(page, h, accessioner.loginId);
    await open(page, h, '/box');
    await waitForText(page, 'Document Uploads');

    await openUpload(page);
    await chooseFile(page, good);
    await clickWhenReady(page, '[data-testid="box-upload-check"]:not([disabled])');
    await page.waitForSelector('[data-testid="box-check-result"]', { timeout: 30_000 });
    expect(await page.$eval('[data-testid="box-check-counts"]', (e) => e.textContent)).toBe(
      '2 rows: 2 to create, 0 to update, 0 refused',
    );
    await page.waitForSelector('[data-testid="box-check-ok"]');
    for (const t of tubes) await waitForText(page, t);
    await h.shot(page, 'box-check-ok-en');
    // the dry run applied nothing
    const lab = labModels(h.sys.ctx.mongo);
    expect(await lab.Sample.countDocuments({ specimenId: { $in: tubes } }).exec()).toBe(0);

    // upload: progress as an integer percent (the connection slowed so it is seen)
    const cdp = await page.createCDPSession();
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 200,
      downloadThroughput: -1,
      // ~2 s for the file: long enough for middle values, short enough not to idle the level (256 B/s took ~10 s)
      uploadThroughput: 1024,
    });
    await recordPercents(page);
    // the manifest worker held back until the row has shown that it waits for it (resumed below)
    const manifestQueue = h.sys.ctx.queues.get('sample-manifest')!;
    await manifestQueue.pause();
    await clickWhenReady(page, SUBMIT);
    await page
      .waitForFunction(
        () =>
          /^([1-9]|[1-9]\d)%$/.test(
            document.querySelector('[data-testid="box-upload-percent"]')?.textContent ?? '',
          ),
        { timeout: 10_000 },
      )
      .then(() => h.shot(page, 'box-upload-progress-en'))
      .catch(() => undefined); // a fast machine may finish before a middle value shows
    await waitForText(page, 'The file has been uploaded', 60_000);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    const percents = await page.evaluate(() => (window as unknown as { __percents: string[] }).__percents);
    expect(percents.length, JSON.stringify(percents)).toBeGreaterThan(0);
    for (const p of percents) expect(p).toMatch(/^(\d|[1-9]\d|100)%$/);

    const models = requisitionModels(h.sys.ctx.mongo);
    const uploaded = (await models.Attachment.findOne({ name: 'manifest-good.csv' }).lean().exec())!;
    expect(uploaded).toMatchObject({ type: 'SAMPLE_MANIFEST', account: { id: ACCOUNT.id } });
    // while its job waits for a worker, the row says so under Uploaded (GET sampleManifests/{id}'s progress)
    await page.waitForFunction(
      (id) =>
        document.querySelector(`[data-testid="box-progress-${id}"]`)?.textContent ===
        'Waiting to be processed',
      { timeout: 30_000 },
      String(uploaded._id),
    );
    expect(await page.$eval(`[data-testid="box-status-${uploaded._id}"]`, (e) => e.textContent)).toBe(
      'Uploaded',
    );
    await h.shot(page, 'box-manifest-waiting-en');
    await manifestQueue.resume();
    // the list refreshes by itself until the worker's verdict shows
    await page.waitForFunction(
      (id) => document.querySelector(`[data-testid="box-status-${id}"]`)?.textContent === 'Processed',
      { timeout: 90_000 },
      String(uploaded._id),
    );
    expect(await page.$(`[data-testid="box-delete-${uploaded._id}"]`)).toBeNull();
    expect(await page.$(`[data-testid="box-progress-${uploaded._id}"]`)).toBeNull();
    await h.shot(page, 'box-processed-en');

    // the summary: 2 created, the requisition's matched normal still missing
    await clickWhenReady(page, `[data-testid="box-status-${uploaded._id}"]`);
    await waitForText(page, 'Sample Manifest Summary');
    await page.waitForSelector('[data-testid="box-summary-created"]');
    expect(await page.$eval('[data-testid="box-summary-created"]', (e) => e.textContent)).toBe('2');
    expect(await page.$eval('[data-testid="box-summary-updated"]', (e) => e.textContent)).toBe('0');
    const missing = await page.$eval(
      '[data-testid="box-summary-missing"]',
      (e) => (e as HTMLElement).innerText,
    );
    expect(missing).toContain(requisition.testRequisitionId);
    expect(missing).toContain('Normal');
    await h.shot(page, 'box-summary-en');
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('[data-testid="box-summary-dialog"]'));

    // the new samples on the order's Samples tab
    await open(page, h, `/order/${requisition.id}`);
    await clickWhenReady(page, '[data-testid="summary-tab-samples"]');
    await page.waitForSelector('[data-testid="samples-tab"]');
    for (const t of tubes) await waitForText(page, t);
    // and the manifest under the table (GET sampleManifests filtered by archived, patient and order)
    await page.waitForFunction(
      (id) =>
        document.querySelector(`[data-testid="sample-manifest-counts-${id}"]`)?.textContent ===
        '2 added, 0 updated',
      { timeout: 30_000 },
      String(uploaded._id),
    );
    expect(
      await page.$eval('[data-testid="samples-manifests"]', (e) => (e as HTMLElement).innerText),
    ).toContain('manifest-good.csv');
    await h.shot(page, 'box-order-samples-en');
    await page.$eval('[data-testid="samples-manifests"]', (e) => e.scrollIntoView({ block: 'center' }));
    await h.shot(page, 'box-order-manifests-en');
    expect(await lab.Sample.countDocuments({ specimenId: { $in: tubes } }).exec()).toBe(2);
  }, 240_000);

  it('a bad manifest: the dry run lists the rows, then Error → details copied → error file', async () => {
    const page = await h.newPage({ width: 1500, height: 950 });
    await page.browserContext().overridePermissions(h.base, ['clipboard-read', 'clipboard-write']);
    await downloadsTo(page, downloads);
    await loginAs(page, h, accessioner.loginId);
    await open(page, h, '/box');
    await waitForText(page, 'manifest-good.csv');

    await openUpload(page);
    await chooseFile(page, bad);
    await clickWhenReady(page, '[data-testid="box-upload-check"]:not([disabled])');
    await page.waitForSelector('[data-testid="box-check-errors"]', { timeout: 30_000 });
    const checked = await page.$eval('[data-testid="box-check-errors"]', (e) => e.textContent ?? '');
    expect(checked).toContain('Row 2');
    expect(checked).toContain('TRF-DOES-NOT-EXIST');
    expect(checked).toContain('Row 3');
    expect(checked).toContain('2026-13-45');
    expect(await page.$eval('[data-testid="box-check-counts"]', (e) => e.textContent)).toContain('2 refused');
    await h.shot(page, 'box-check-errors-en');
    await clickWhenReady(page, SUBMIT);
    await waitForText(page, 'The file has been uploaded');

    const models = requisitionModels(h.sys.ctx.mongo);
    const failed = (await models.Attachment.findOne({ name: 'manifest-bad.csv' }).lean().exec())!;
    // the red Error link appears by itself
    const errorLink = `[data-testid="box-error-${failed._id}"]`;
    await page.waitForSelector(errorLink, { timeout: 90_000 });
    expect(await page.$eval(errorLink, (e) => getComputedStyle(e).color)).toMatch(/^rgb\((1[5-9]\d|2\d\d), /);
    expect(await page.$(`[data-testid="box-delete-${failed._id}"]`)).toBeNull();
    await h.shot(page, 'box-error-row-en');
    await clickWhenReady(page, errorLink);
    await waitForText(page, 'Sample Manifest Errors');
    expect(await bodyText(page)).toContain(
      'Fix the rows with errors in file: manifest-bad.csv, and re-upload',
    );
    const details = await page.$eval('[data-testid="box-error-details"]', (e) => e.textContent ?? '');
    expect(details).toContain('Row 2');
    expect(details).toContain('TRF-DOES-NOT-EXIST');
    await h.shot(page, 'box-errors-en');

    await page.bringToFront(); // the Clipboard API wants a focused document
    await clickWhenReady(page, '[data-testid="box-copy"]');
    await waitForText(page, 'Error details copied to clipboard.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(details);

    await clickWhenReady(page, '[data-testid="box-download-errors"]');
    const errorFile = (await downloaded(downloads, 'manifest-bad - errors.csv')).toString('utf8');
    const lines = errorFile.split(/\r?\n/).filter(Boolean);
    expect(lines[0]).toContain('TRF #');
    expect(lines[0]).toContain('Error');
    expect(lines[1]).toContain('TRF-DOES-NOT-EXIST');
    expect(lines[2]).toContain('2026-13-45');
    await clickWhenReady(page, '[data-testid="box-errors-close"]');
    await page.waitForFunction(() => !document.querySelector('[data-testid="box-errors-dialog"]'));
    // nothing of the bad manifest was applied
    expect(
      await labModels(h.sys.ctx.mongo)
        .Sample.countDocuments({ specimenId: { $in: [`BAD-${run}-1`, `BAD-${run}-2`] } })
        .exec(),
    ).toBe(0);

    // in Chinese, the same details read Chinese, with the file's values kept
    const zhPage = await h.newPage({ locale: 'zh-CN', width: 1500, height: 950 });
    await loginAs(zhPage, h, accessioner.loginId);
    await open(zhPage, h, '/box');
    await clickWhenReady(zhPage, errorLink);
    await zhPage.waitForSelector('[data-testid="box-error-details"]');
    const zhDetails = await zhPage.$eval('[data-testid="box-error-details"]', (e) => e.textContent ?? '');
    expect(zhDetails).toContain('第 2 行');
    expect(zhDetails).toContain('TRF-DOES-NOT-EXIST');
    expect(zhDetails).toContain('2026-13-45');
    expect(zhDetails).not.toContain('Row 2');
    expect(zhDetails).not.toContain('was not found');
    await h.shot(zhPage, 'box-errors-zh');
  }, 240_000);
});
