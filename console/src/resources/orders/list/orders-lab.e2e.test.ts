/**
 * Browser test: lab staff (an accessioner, who sees every account) narrow the Submitted orders list with two facet
 * filters (Account, Physician) and a search, and get exactly the right rows. Real backend, headless chromium.
 */
import { describe, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import {
  clickWhenReady,
  fill,
  loginAs,
  open,
  pickFacet,
  submitRequisition,
  useConsole,
  waitForText,
} from '../../../../test/harness';

interface Order {
  key: string;
  account: { id: string; name: string };
  physician: { id: string; first: string; last: string };
  patient: { first: string; last: string };
}

const ALPHA = { id: 'acc-lab-alpha', name: 'Alpha Oncology' };
const BETA = { id: 'acc-lab-beta', name: 'Beta Cancer Center' };
const HOPPER = { id: 'phy-hopper', first: 'Grace', last: 'Hopper' };
const TURING = { id: 'phy-turing', first: 'Alan', last: 'Turing' };

// Alpha + Hopper + "Lovelace" → match (twice); each other row misses exactly one of the three conditions
const ORDERS: Order[] = [
  { key: 'match-1', account: ALPHA, physician: HOPPER, patient: { first: 'Ada', last: 'Lovelace' } },
  { key: 'match-2', account: ALPHA, physician: HOPPER, patient: { first: 'Byron', last: 'Lovelace' } },
  { key: 'other-patient', account: ALPHA, physician: HOPPER, patient: { first: 'Ada', last: 'Byron' } },
  { key: 'other-account', account: BETA, physician: HOPPER, patient: { first: 'Ada', last: 'Lovelace' } },
  { key: 'other-physician', account: ALPHA, physician: TURING, patient: { first: 'Ada', last: 'Lovelace' } },
];

/** The TRF numbers shown in the list's rows, in order. */
async function shownTrfs(page: Page): Promise<string[]> {
  return page.$$eval('[data-testid^="row-"]', (rows) =>
    rows.map((r) => /TRF-\d+/.exec(r.textContent ?? '')?.[0] ?? '').filter(Boolean),
  );
}

async function waitForRows(page: Page, expected: string[]) {
  const want = [...expected].sort().join(',');
  await page
    .waitForFunction(
      (w) => {
        const got = [...document.querySelectorAll('[data-testid^="row-"]')]
          .map((r) => /TRF-\d+/.exec(r.textContent ?? '')?.[0] ?? '')
          .filter(Boolean)
          .sort()
          .join(',');
        return got === w;
      },
      { timeout: 30_000 },
      want,
    )
    .catch(async () => {
      throw new Error(`rows ${JSON.stringify(await shownTrfs(page))}, expected ${want}`);
    });
}

/** Apply a facet filter of the list: its entries are the popover's buttons. */
const applyFacet = (page: Page, label: string, item: string) =>
  pickFacet(page, label, item, {
    entries: '.MuiPopover-paper [role="button"]',
    shown: '.MuiPopover-paper li, .MuiPopover-paper [role="button"]',
  });

describe('orders list for lab staff: two facets and a search (real backend, chromium)', () => {
  const trf: Record<string, string> = {};
  const { h, lab } = useConsole({
    users: { lab: 'ROLE_ACCESSIONER' },
    signIn: ['lab'],
    timeout: 240_000,
    seed: async (h, { lab }) => {
      for (const o of ORDERS) {
        const sub = await submitRequisition(h, lab.authorization, {
          account: o.account,
          physicianId: o.physician.id,
          patientId: null,
          physician: { firstName: o.physician.first, lastName: o.physician.last },
          patient: { firstName: o.patient.first, lastName: o.patient.last },
        });
        trf[o.key] = sub.testRequisitionId;
      }
    },
  });

  it('Account + Physician facets and a patient search leave exactly the matching requisitions', async () => {
    const page = await h.newPage();
    await loginAs(page, h, lab.loginId);
    await open(page, h, '/orders');
    await clickWhenReady(page, '[data-testid="tab-submitted"]');
    await waitForRows(page, Object.values(trf));

    await applyFacet(page, 'Account', ALPHA.name);
    await waitForRows(page, [trf['match-1'], trf['match-2'], trf['other-patient'], trf['other-physician']]);

    await applyFacet(page, 'Physician', 'Grace Hopper');
    await waitForRows(page, [trf['match-1'], trf['match-2'], trf['other-patient']]);

    await fill(page, '[data-testid="list-search"]', 'Lovelace');
    await waitForRows(page, [trf['match-1'], trf['match-2']]);
    await waitForText(page, 'Ada Lovelace');
    await h.shot(page, 'orders-list-lab-filtered');

    // the applied filters and search are remembered (list preference): after a reload the list opens on Draft
    // (spec 2 §2.2) and the Submitted tab shows the same rows again
    await page.reload();
    await clickWhenReady(page, '[data-testid="tab-submitted"]');
    await waitForRows(page, [trf['match-1'], trf['match-2']]);
  }, 180_000);
});
