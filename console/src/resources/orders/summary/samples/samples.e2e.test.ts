/**
 * Browser test, the Samples tab of an order: a lab user adds a tumor sample through the dialog (the domain's
 * rules shown live, the domain preference looked up), sees it in the table, opens Edit and Copy with their
 * titles; a provider of the account sees the samples without the actions; a sample copied into an order of
 * another test is shown as ignored by its workflow, with the spec's message. Real backend, headless chromium;
 * screenshots in English and Chinese.
 */
import { describe, expect, it } from 'vitest';
import { labModels, seedDomainPreferences } from '@onco/lab';
import {
  bodyText,
  chooseOption as choose,
  clickWhenReady,
  labKnowsRequisition,
  login,
  loginAs,
  open,
  REQUISITIONS,
  requisitionForm,
  setValue,
  submitRequisition,
  TEST_PASSWORD,
  useConsole,
  waitForText,
} from '../../../../../test/harness';
import { isoDaysAgo } from '@onco/requisitions/testing';

const ACCOUNT = { id: 'acc-samples-e2e', name: 'Harbor Oncology' };
const PHYSICIAN = 'phy-samples-e2e';

describe('order summary: the Samples tab (real backend, chromium)', () => {
  let requisition: { id: string; testRequisitionId: string };

  const { h, lab, provider } = useConsole({
    users: { lab: 'ROLE_ACCESSIONER', provider: ['ROLE_NPI', { account: ACCOUNT, physicianId: PHYSICIAN }] },
    signIn: ['lab'],
    timeout: 240_000,
    seed: async (h, { lab }) => {
      await seedDomainPreferences(labModels(h.sys.ctx.mongo));
      const sub = await submitRequisition(h, lab.authorization, {
        account: ACCOUNT,
        physicianId: PHYSICIAN,
        patientId: null,
      });
      requisition = { id: sub.id, testRequisitionId: sub.testRequisitionId };
      // the lab knows the requisition once its test orders are made from the requisition-submitted event
      await labKnowsRequisition(h, lab.authorization, requisition.id);
    },
  });

  it('adds a tumor sample with the rules shown, then opens Edit and Copy', async () => {
    const page = await h.newPage({ width: 1500, height: 1000 });
    await loginAs(page, h, lab.loginId);
    await open(page, h, `/order/${requisition.id}/summary/samples`);
    await page.waitForSelector('[data-testid="samples-tab"]');
    await waitForText(page, 'No samples found');

    await clickWhenReady(page, '[data-testid="samples-add"]:not([disabled])');
    await waitForText(page, 'Add Tumor');
    // PROCEED is the default when allowed; without a sample group the SGI error shows and Save stays disabled
    await waitForText(page, 'Sample can not be set to Proceed, SGI error');
    await setValue(page, '[data-testid="sample-specimenId"]', 'BLK-E2E_1');
    await choose(page, 'sample-specimenType', 'FFPE_BLOCK');
    await setValue(page, '[data-testid="sample-sampleSite"]', 'Left breast');
    await setValue(page, '[data-testid="sample-limsProjectId"]', 'LP-E2E');
    await setValue(page, '[data-testid="sample-name"]', 'Core biopsy block from the left breast, A1');
    await setValue(page, '[data-testid="sample-accessionId"]', 'SL1 SL2');
    await setValue(page, '[data-testid="sample-sampleGroupId"]', 'SG-E2E');
    // received before collected: both date texts of spec 2 section 5
    await setValue(page, '[data-testid="sample-collectedOn"]', isoDaysAgo(3));
    await setValue(page, '[data-testid="sample-receivedOn"]', isoDaysAgo(6));
    await waitForText(page, 'Collection date must be before the Received date.');
    await waitForText(page, 'Received date must be after the Collection date.');
    expect(await page.$eval('[data-testid="sample-save"]', (b) => (b as HTMLButtonElement).disabled)).toBe(
      true,
    );
    await setValue(page, '[data-testid="sample-receivedOn"]', isoDaysAgo(1));
    await page.waitForSelector('[data-testid="sample-preference"]');
    await h.shot(page, 'samples-add-en');
    await clickWhenReady(page, '[data-testid="sample-save"]:not([disabled])');
    await waitForText(page, 'The sample has been added');
    await page.waitForFunction(() => !document.querySelector('[data-testid="sample-dialog"]'), {
      timeout: 20_000,
    });
    await waitForText(page, 'BLK-E2E_1');
    // the name is cut to 25 characters
    expect(await bodyText(page)).toContain('Core biopsy block from...');
    await h.shot(page, 'samples-tab-en');

    // Edit: "Edit Tumor: {limsId}"
    const auth = (await login(h.sys, lab.loginId)).authorization;
    const samples = (await h.api(auth, 'GET', `/oms/api/v1/testOrderForms/${requisition.id}/samples`)).body;
    expect(samples.tumors).toHaveLength(1);
    expect(samples.tumors[0]).toMatchObject({
      status: 'PROCEED',
      sampleGroupId: 'SG-E2E',
      specimenId: 'BLK-E2E_1',
    });
    await clickWhenReady(page, '[data-testid="samples-tab"] tbody tr input[type="radio"]');
    await clickWhenReady(page, '[data-testid="samples-edit"]:not([disabled])');
    await waitForText(page, `Edit Tumor: ${samples.tumors[0].limsId}`);
    expect(
      await page.$eval('[data-testid="sample-specimenId"]', (i) => (i as HTMLInputElement).disabled),
    ).toBe(true);
    await page.evaluate(() =>
      (
        [...document.querySelectorAll('.MuiDialog-paper button')].find(
          (b) => b.textContent === 'Cancel',
        ) as HTMLElement
      ).click(),
    );
    await page.waitForFunction(() => !document.querySelector('[data-testid="sample-dialog"]'));

    // Copy: "Copy Samples: {TRF id}"
    await clickWhenReady(page, '[data-testid="samples-copy"]:not([disabled])');
    await waitForText(page, `Copy Samples: ${requisition.testRequisitionId}`);
    await h.shot(page, 'samples-copy-en');
  }, 180_000);

  it('hands out container barcodes and prints their labels from the Samples tab', async () => {
    const page = await h.newPage({ width: 1500, height: 1000 });
    await loginAs(page, h, lab.loginId);
    await open(page, h, `/order/${requisition.id}/summary/samples`);
    await clickWhenReady(page, '[data-testid="samples-barcodes"]');
    await setValue(page, '[data-testid="barcodes-count"]', '3');
    await clickWhenReady(page, '[data-testid="barcodes-generate"]:not([disabled])');
    await page.waitForSelector('[data-testid="barcodes-list"]');
    const codes = await page.$$eval('[data-testid="barcodes-list"] .MuiChip-label', (els) =>
      els.map((e) => e.textContent ?? ''),
    );
    expect(codes).toHaveLength(3);
    for (const c of codes) expect(c).toMatch(/^PS\d{8}$/);
    expect(new Set(codes).size).toBe(3);
    await clickWhenReady(page, '[data-testid="barcodes-print"]');
    await waitForText(page, 'Barcode printed successfully.');
    await h.shot(page, 'barcodes-printed-en');
    // the server knows them as printed: printing again without saying "reprint" is refused with the spec's message
    const again = await h.api(lab.authorization, 'POST', '/oms/api/v1/barcodes/print', {
      barcodes: [codes[0]],
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(`Container already created for barcode ${codes[0]}.`);
  }, 120_000);

  it('a provider sees the samples without the actions; the tab in Chinese', async () => {
    const page = await h.newPage({ width: 1400, height: 900 });
    await loginAs(page, h, provider.loginId);
    await open(page, h, `/order/${requisition.id}/summary/samples`);
    await waitForText(page, 'BLK-E2E_1');
    expect(await page.$('[data-testid="samples-add"]')).toBeNull();
    const zh = await h.newPage({ locale: 'zh-CN', width: 1500, height: 1000 });
    await loginAs(zh, h, lab.loginId);
    await open(zh, h, `/order/${requisition.id}/summary/samples`);
    await waitForText(zh, 'BLK-E2E_1');
    await waitForText(zh, '样本类型');
    await h.shot(zh, 'samples-tab-zh');
  }, 120_000);

  it('a sample the workflow ignores: marked, styled and explained; a compatible one is not', async () => {
    const auth = lab.authorization;
    const OMS = '/oms/api/v1';
    const ndx = (await h.api(auth, 'GET', `${OMS}/testOrderForms/${requisition.id}/samples`)).body;
    const block = ndx.tumors.find((x: { specimenId: string }) => x.specimenId === 'BLK-E2E_1');
    // added through the dialog for the NeXT Dx order: the workflow its requisition assigns
    expect(block.workflow).toEqual({ state: 'ADDED', reason: null, assigned: 'WF-NDX-TUMOR' });
    const patientId = ndx.requisition.patient?.id;
    expect(patientId).toBeTruthy();

    // a NeXT Personal Dx order of the same patient: its tumors go to another workflow
    const form = {
      ...requisitionForm({ account: ACCOUNT, physicianId: PHYSICIAN, patientId }),
      orderInformation: { nextDx: false, nextPersonalDx: true, orderType: 'INITIAL_ORDER' },
    };
    const draft = await h.api(auth, 'POST', REQUISITIONS, form);
    expect(draft.status, JSON.stringify(draft.body)).toBe(200);
    const id = draft.body.id as string;
    expect(
      (await h.api(auth, 'POST', `${REQUISITIONS}/${id}/sign`, { password: TEST_PASSWORD })).status,
    ).toBe(200);
    const sub = await h.api(auth, 'POST', `${REQUISITIONS}/submit`, { ...form, id });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    await labKnowsRequisition(h, auth, id);
    // the NeXT Dx block copied into it (Copy), and a block added for it
    const copied = await h.api(auth, 'POST', `${OMS}/copySampleSource`, {
      sourceMergeTrfId: requisition.id,
      toTestOrderForm: { id, tumors: [{ id: block.id }], normals: [], plasmas: [] },
    });
    expect(copied.status, JSON.stringify(copied.body)).toBe(200);
    const added = await h.api(auth, 'POST', `${OMS}/createSampleSource`, {
      id,
      tumors: [
        {
          status: 'ON_HOLD',
          specimenId: 'BLK-NPDX_1',
          specimenType: 'FFPE_BLOCK',
          sampleSite: 'Right lung',
          limsProjectId: 'LP-E2E',
          name: 'Own block',
          collectedOn: isoDaysAgo(4),
          receivedOn: isoDaysAgo(1),
        },
      ],
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const tumors = added.body.tumors as Array<{ id: string; specimenId: string; workflow: unknown }>;
    const ignored = tumors.find((x) => x.specimenId === 'BLK-E2E_1')!;
    const own = tumors.find((x) => x.specimenId === 'BLK-NPDX_1')!;
    expect(ignored.workflow).toEqual({
      state: 'IGNORED',
      reason: 'OTHER_WORKFLOW',
      assigned: 'WF-NPDX-TUMOR',
    });
    expect(own.workflow).toEqual({ state: 'ADDED', reason: null, assigned: 'WF-NPDX-TUMOR' });

    const MESSAGE =
      'This sample is incompatible with the assigned workflow. Incompatible samples will not be added to the job.';
    const rowLook = (page: Awaited<ReturnType<typeof h.newPage>>, sampleId: string) =>
      page.$eval(`[data-testid="row-${sampleId}"]`, (tr) => {
        const td = tr.querySelectorAll('td')[1] as HTMLElement;
        return {
          state: tr.getAttribute('data-state'),
          text: (tr as HTMLElement).innerText,
          fontStyle: getComputedStyle(td).fontStyle,
          background: getComputedStyle(tr).backgroundColor,
        };
      });
    const page = await h.newPage({ width: 1500, height: 1000 });
    await loginAs(page, h, lab.loginId);
    await open(page, h, `/order/${id}/summary/samples`);
    await page.waitForSelector(`[data-testid="sample-incompatible-${ignored.id}"]`);
    await waitForText(page, 'BLK-NPDX_1');
    const bad = await rowLook(page, ignored.id);
    expect(bad.state).toBe('ignored');
    expect(bad.text).toContain(MESSAGE);
    expect(bad.text).toContain('Ignored');
    expect(bad.fontStyle).toBe('italic');
    expect(bad.background).not.toBe('rgba(0, 0, 0, 0)');
    const good = await rowLook(page, own.id);
    expect(good.state).toBeNull();
    expect(good.text).not.toContain(MESSAGE);
    expect(good.text).not.toContain('Ignored');
    expect(good.fontStyle).toBe('normal');
    expect(good.background).toBe('rgba(0, 0, 0, 0)');
    expect(await page.$(`[data-testid="sample-incompatible-${own.id}"]`)).toBeNull();
    // no manifest changed this order's samples
    await waitForText(page, 'No sample manifest has added or changed samples of this order.');
    await h.shot(page, 'samples-ignored-en');

    // on the NeXT Dx order the same block is its workflow's: no message
    await open(page, h, `/order/${requisition.id}/summary/samples`);
    await waitForText(page, 'BLK-E2E_1');
    expect((await rowLook(page, block.id)).state).toBeNull();
    expect(await bodyText(page)).not.toContain(MESSAGE);

    // in Chinese
    const zh = await h.newPage({ locale: 'zh-CN', width: 1500, height: 1000 });
    await loginAs(zh, h, lab.loginId);
    await open(zh, h, `/order/${id}/summary/samples`);
    await zh.waitForSelector(`[data-testid="sample-incompatible-${ignored.id}"]`);
    await waitForText(zh, '此样本与所分配的工作流程不兼容。不兼容的样本不会被添加到任务中。');
    await waitForText(zh, '已忽略');
    await h.shot(zh, 'samples-ignored-zh');
  }, 180_000);
});
