/**
 * Browser test, Messages (/messages, spec 2 section 2.11): a provider with no messages sees the empty texts and the
 * client-services contact text, writes a message from the Contact panel and sees the thread; client services see it
 * new (bold, the unread count beside Messages), open it (read) and answer; the provider finds the answer under New.
 * Real backend and store, headless chromium.
 */
import { describe, expect, it } from 'vitest';
import {
  bodyText,
  chooseOption,
  clickWhenReady,
  fill,
  paste,
  login,
  loginAs,
  open,
  TEST_PASSWORD,
  useConsole,
  waitForText,
} from '../../../test/harness';
import { completeForm } from '@onco/requisitions/testing';
import { messagesModels } from '../../../../services/messages/src/models';

describe('messages: write, read, reply (real backend, chromium)', () => {
  let order = { id: '', trf: '' };
  const { h, npi, services } = useConsole({
    // workers and consumers on: the messages service learns the orders' scope from their events
    config: { WORKERS: 'true' },
    users: {
      npi: ['ROLE_NPI', { account: { id: 'acc-msg', name: 'Harbor Oncology' } }],
      services: 'ROLE_ADMINISTRATOR',
    },
    timeout: 180_000,
  });

  it('a provider writes to client services', async () => {
    const page = await h.newPage({ width: 1500, height: 950 });
    await loginAs(page, h, npi.loginId);
    await open(page, h, '/messages');
    await waitForText(page, 'No message or notification');
    const text = await bodyText(page);
    expect(text).toContain('Please Select a message');
    expect(text).toContain('Need Help? Please contact us at:');

    await clickWhenReady(page, '[data-testid="messages-new"]');
    await fill(page, '[data-testid="messages-subject"]', 'Where is my kit?');
    // a message holds at most 512 characters (spec 2 sections 5 and 9): the box takes no more, and counts
    await paste(page, '[data-testid="messages-body"]', 'x'.repeat(520));
    expect(
      await page.$eval('[data-testid="messages-body"]', (e) => (e as HTMLTextAreaElement).value.length),
    ).toBe(512);
    await waitForText(page, '512/512');
    await fill(page, '[data-testid="messages-body"]', 'We requested Streck kits last week.');
    await clickWhenReady(page, '[data-testid="messages-send"]');
    await waitForText(page, 'Your message has been successfully sent.');
    await page.waitForSelector('[data-testid="messages-thread"]');
    await waitForText(page, 'We requested Streck kits last week.');
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="messages-list"]')?.textContent?.includes('Where is my kit?'),
    );
  }, 120_000);

  it('client services see it new, open it and answer; the provider finds the answer under New', async () => {
    const page = await h.newPage({ width: 1500, height: 950 });
    await loginAs(page, h, services.loginId);
    await page.waitForSelector('[data-testid="menu-unread"]');
    await open(page, h, '/messages');
    await page.waitForSelector('[data-new="true"]');
    expect(await page.$eval('[data-new="true"]', (e) => e.textContent)).toBe('Where is my kit?');
    await page.click('[data-new="true"]');
    await page.waitForSelector('[data-testid="messages-thread"]');
    // opened: no longer bold
    await page.waitForFunction(() => !document.querySelector('[data-new="true"]'));
    await fill(page, '[data-testid="messages-reply"]', 'They shipped today by overnight courier.');
    await clickWhenReady(page, '[data-testid="messages-reply-send"]');
    await waitForText(page, 'They shipped today by overnight courier.');
    await h.shot(page, 'messages-thread-en');

    const provider = await h.newPage({ width: 1500, height: 950 });
    await loginAs(provider, h, npi.loginId);
    await open(provider, h, '/messages');
    await clickWhenReady(provider, '[data-testid="messages-status-NEW"]');
    await provider.waitForSelector('[data-new="true"]');
    await provider.click('[data-new="true"]');
    await waitForText(provider, 'They shipped today by overnight courier.');
    await h.shot(provider, 'messages-provider-en');
  }, 120_000);

  it('a message written from an order carries its TRF # and patient', async () => {
    const admin = await h.user('ROLE_ADMINISTRATOR');
    const auth = (await login(h.sys, admin.loginId)).authorization;
    const form = completeForm({ accountId: 'acc-msg', physicianId: 'phy-msg', patientId: null });
    const d = await h.api(auth, 'POST', '/portal/api/v1/testOrderForms', form);
    expect(d.status, JSON.stringify(d.body)).toBe(200);
    await h.api(auth, 'POST', `/portal/api/v1/testOrderForms/${d.body.id}/sign`, { password: TEST_PASSWORD });
    const sub = await h.api(auth, 'POST', '/portal/api/v1/testOrderForms/submit', { ...form, id: d.body.id });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    const trf = sub.body.testRequisitionId as string;
    order = { id: d.body.id, trf };
    // the messages service has the order's scope (requisition-submitted consumer)
    for (let i = 0; i < 120; i++) {
      if (await messagesModels(h.sys.ctx.mongo).RequisitionScope.exists({ _id: d.body.id })) break;
      await new Promise((r) => setTimeout(r, 500));
    }

    const page = await h.newPage({ width: 1500, height: 950 });
    await loginAs(page, h, admin.loginId);
    await open(page, h, `/order/${d.body.id}`);
    await clickWhenReady(page, '[data-testid="action-message"]');
    await page.waitForSelector('[data-testid="messages-form"]');
    const formText = await page.$eval('[data-testid="messages-form"]', (e) =>
      [...e.querySelectorAll('input')].map((i) => (i as HTMLInputElement).value).join(' | '),
    );
    expect(formText).toContain(trf);
    expect(formText).toContain('Ada Lovelace');
    await fill(page, '[data-testid="messages-subject"]', 'Question about this order');
    await fill(page, '[data-testid="messages-body"]', 'Is the tumor block enough?');
    await clickWhenReady(page, '[data-testid="messages-send"]');
    await waitForText(page, 'Your message has been successfully sent.');
    await page.waitForFunction(
      (n) => document.querySelector('[data-testid="messages-list"]')?.textContent?.includes(n),
      {},
      trf,
    );
    await h.shot(page, 'messages-from-order-en');
  }, 120_000);

  it('a message from the Messages page names a patient found by search and one of their orders', async () => {
    const page = await h.newPage({ width: 1500, height: 950 });
    await loginAs(page, h, npi.loginId);
    await open(page, h, '/messages');
    await clickWhenReady(page, '[data-testid="messages-new"]');
    // the TRF field waits for a patient
    expect(await page.$eval('[data-testid="messages-trf"]', (e) => (e as HTMLInputElement).disabled)).toBe(
      true,
    );
    await fill(page, '[data-testid="messages-patient"]', 'Lo');
    await clickWhenReady(page, '.MuiAutocomplete-popper li');
    await page.waitForFunction(
      () => !(document.querySelector('[data-testid="messages-trf"]') as HTMLInputElement).disabled,
    );
    await chooseOption(page, 'messages-trf', order.id);
    await h.shot(page, 'messages-patient-pick-en');
    await fill(page, '[data-testid="messages-subject"]', 'About the block');
    await fill(page, '[data-testid="messages-body"]', 'Please confirm it arrived.');
    await clickWhenReady(page, '[data-testid="messages-send"]');
    await waitForText(page, 'Your message has been successfully sent.');
    const auth = (await login(h.sys, npi.loginId)).authorization;
    const list = await h.api(
      auth,
      'GET',
      `/cns/api/v1/messages?filter=${encodeURIComponent('{"isParent":true}')}`,
    );
    const sent = list.body.content.find((m: { subject: string }) => m.subject === 'About the block');
    expect(sent).toMatchObject({
      testOrderForm: { id: order.id, testRequisitionId: order.trf },
      patient: { name: 'Ada Lovelace' },
    });
  }, 120_000);
});
