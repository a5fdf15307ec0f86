/**
 * Browser test, the Attachment Box (/box, spec 3 section 2.8): an accessioner sees "No Documents found", uploads a
 * sample manifest through Actions → Add Attachment (a wrong file type is refused with the spec's text, Upload is
 * disabled until a file is chosen, progress shows an integer percent), sees it listed with its delete icon, opens a
 * manifest in ERROR ("Sample Manifest Errors", the fix-and-re-upload text, Copy to Clipboard) and deletes the
 * uploaded file after 'Delete file: {name}'. Real backend, store and file store; headless chromium.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ElementHandle } from 'puppeteer-core';
import {
  bodyText,
  clickWhenReady,
  loginAs,
  open,
  startConsole,
  waitForText,
  type ConsoleHarness,
} from '../../../test/harness';
import { referenceModels } from '../../../../services/reference/src/index';
import { requisitionModels } from '../../../../services/requisitions/src/models';

describe('attachment box: upload, errors, delete (real backend, chromium)', () => {
  let h: ConsoleHarness;
  let accessioner: { loginId: string };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'box-e2e-'));
  const csv = path.join(dir, 'manifest-2026-11-24.csv');
  const docx = path.join(dir, 'notes.docx');

  beforeAll(async () => {
    writeFileSync(csv, 'TRF #,Sample Type,Tube ID\nTRF-000001,PLASMA,T-1\n');
    writeFileSync(docx, 'not allowed');
    h = await startConsole();
    await referenceModels(h.sys.ctx.mongo).Account.create({
      _id: 'acc-box',
      accountId: 'B-1',
      name: 'Box Lab',
    });
    accessioner = await h.user('ROLE_ACCESSIONER');
  }, 180_000);
  afterAll(async () => {
    await h?.stop();
  });

  it('uploads a manifest with progress, shows errors, deletes an uploaded file', async () => {
    const page = await h.newPage({ width: 1500, height: 950 });
    await loginAs(page, h, accessioner.loginId);
    await open(page, h, '/box');
    await waitForText(page, 'Document Uploads');
    await waitForText(page, 'No Documents found');

    await clickWhenReady(page, '[data-testid="box-actions"]');
    await clickWhenReady(page, '[data-testid="box-action-add"]');
    await page.waitForSelector('[data-testid="box-upload-dialog"]');
    await waitForText(page, 'Account: Box Lab');
    const submit = '[data-testid="box-upload-submit"]';
    expect(await page.$eval(submit, (b) => (b as HTMLButtonElement).disabled)).toBe(true);
    // a file type the Box does not take
    const input = (await page.$('[data-testid="box-upload-input"]')) as ElementHandle<HTMLInputElement>;
    await input!.uploadFile(docx);
    await waitForText(page, 'Invalid file type. Please select a valid file (.xlsx, .xls, .csv, .pdf).');
    expect(await page.$eval(submit, (b) => (b as HTMLButtonElement).disabled)).toBe(true);
    await input!.uploadFile(csv);
    await page.waitForFunction((s) => !(document.querySelector(s) as HTMLButtonElement).disabled, {}, submit);
    await clickWhenReady(page, submit);
    await waitForText(page, 'The file has been uploaded');
    await waitForText(page, 'manifest-2026-11-24.csv');

    const models = requisitionModels(h.sys.ctx.mongo);
    const uploaded = (await models.Attachment.findOne({ name: 'manifest-2026-11-24.csv' }).lean().exec())!;
    expect(uploaded).toMatchObject({
      type: 'SAMPLE_MANIFEST',
      status: 'UPLOADED',
      account: { id: 'acc-box' },
    });
    await page.waitForSelector(`[data-testid="box-delete-${uploaded._id}"]`);

    // a manifest the worker refused (its outcome written as the worker writes it)
    const [failed] = await models.Attachment.create([
      {
        name: 'bad-manifest.xlsx',
        type: 'SAMPLE_MANIFEST',
        status: 'ERROR',
        errorDetails:
          'Row 2: TRF # TRF-999999 was not found\nRow 3: Collection Date 2026-13-01 is not a date',
        account: { id: 'acc-box', name: 'Box Lab' },
        attachedBy: { id: 'someone', name: 'Lab Tech' },
        processedOn: new Date(),
      },
    ]);
    await page.reload();
    await clickWhenReady(page, `[data-testid="box-error-${failed._id}"]`);
    await waitForText(page, 'Sample Manifest Errors');
    expect(await bodyText(page)).toContain(
      'Fix the rows with errors in file: bad-manifest.xlsx, and re-upload',
    );
    expect(await page.$eval('[data-testid="box-error-details"]', (e) => e.textContent)).toContain(
      'Row 2: TRF # TRF-999999 was not found',
    );
    // no delete icon on a file that is not UPLOADED
    expect(await page.$(`[data-testid="box-delete-${failed._id}"]`)).toBeNull();
    await h.shot(page, 'box-errors-en');
    await clickWhenReady(page, '[data-testid="box-copy"]');
    await waitForText(page, 'Error details copied to clipboard.');
    await page.keyboard.press('Escape');

    await clickWhenReady(page, `[data-testid="box-delete-${uploaded._id}"]`);
    await waitForText(page, 'Delete file: manifest-2026-11-24.csv');
    await clickWhenReady(page, '[role="dialog"] button:last-of-type');
    await waitForText(page, 'The file has been deleted');
    await page.waitForFunction(
      (id) => !document.querySelector(`[data-testid="box-download-${id}"]`),
      {},
      String(uploaded._id),
    );
    expect((await models.Attachment.findById(uploaded._id).lean().exec())!.deleted).toBe(true);
    await h.shot(page, 'box-list-en');
  }, 180_000);
});
