import { describe, expect, it } from 'vitest';
import type { Page } from 'puppeteer-core';
import type { AuthenticationProvider, Role, UserStatus } from '@onco/domain';
import { hashPassword, identityModels } from '@onco/identity';
import {
  animationsDone,
  SCREENSHOT_DIR,
  TEST_PASSWORD,
  clickWhenReady,
  loginAs,
  open,
  useConsole,
  waitForText,
} from '../../../test/harness';

/**
 * The Users screen in the browser against the real backend (issue 3): an admin selects a user, runs an action
 * through the 'Please Confirm' dialog, and the user's status changes on the server. Screenshots of the screen
 * and its dialogs in English and Chinese go to .data/screenshots/.
 */
const ACCOUNTS = [
  { _id: 'acc-e2e-1', accountId: 'ACC-1001', name: 'Pacific Oncology Associates' },
  { _id: 'acc-e2e-2', accountId: 'ACC-1002', name: 'Lakeside Cancer Center' },
  { _id: 'acc-e2e-3', accountId: 'ACC-1003', name: 'Riverside Hematology & Oncology Medical Group' },
];
const LOCATIONS = [
  { id: 'loc-1', name: 'San Francisco Main Campus' },
  { id: 'loc-2', name: 'Oakland Clinic' },
  { id: 'loc-3', name: 'Chicago Lakeshore' },
];
const PEOPLE: Array<[string, string, Role, UserStatus, AuthenticationProvider, number]> = [
  ['Maria', 'Lopez', 'ROLE_NPI', 'ACTIVE', 'OKTA', 0],
  ['James', 'Carter', 'ROLE_NPI', 'LOCKED_OUT', 'OKTA', 0],
  ['Aisha', 'Rahman', 'ROLE_PATHOLOGIST', 'ACTIVE', 'OKTA', 1],
  ['Daniel', 'Kim', 'ROLE_NON_NPI', 'PROVISIONED', 'OKTA', 1],
  ['Sofia', 'Rossi', 'ROLE_GENETIC_COUNSELOR', 'ACTIVE', 'OKTA', 2],
  ['Ethan', 'Nguyen', 'ROLE_OBSERVER', 'INACTIVE', 'OKTA', 2],
  ['Priya', 'Shah', 'ROLE_PHYSICIAN', 'ACTIVE', 'OKTA', 0],
  ['Lucas', 'Meyer', 'ROLE_ADDITIONAL_PHYSICIAN', 'PASSWORD_EXPIRED', 'OKTA', 1],
  ['Hannah', 'Olsen', 'ROLE_HOSPITAL_ADMIN', 'ACTIVE', 'OKTA', 1],
  ['Mateo', 'Garcia', 'ROLE_NPI', 'RECOVERY', 'OKTA', 2],
  ['Chloe', 'Martin', 'ROLE_PATIENT', 'ACTIVE', 'OKTA', 0],
  ['Noah', 'Fischer', 'ROLE_ACCESSIONER', 'ACTIVE', 'OKTA', -1],
  ['Grace', 'Liu', 'ROLE_PROJECT_MANAGER', 'ACTIVE', 'OKTA', -1],
  ['Omar', 'Haddad', 'ROLE_NPI', 'SUSPENDED', 'OKTA', 2],
  ['Emily', 'Brooks', 'ROLE_ADMINISTRATOR', 'ACTIVE', 'OKTA', -1],
  ['Wei', 'Zhang', 'ROLE_PORTAL_ADMIN', 'INACTIVE', 'ACTIVE_DIRECTORY', -1],
  ['Olivia', 'Hughes', 'ROLE_PORTAL_ADMIN', 'INACTIVE', 'ACTIVE_DIRECTORY', -1],
  ['Samuel', 'Okafor', 'ROLE_PORTAL_ADMIN', 'PROVISIONED', 'ACTIVE_DIRECTORY', -1],
];

/** Click the first element matching an XPath once it is visible. */
async function clickXPath(page: Page, xpath: string) {
  const el = await page.waitForSelector(`xpath/${xpath}`, { visible: true });
  await animationsDone(page);
  await el!.click();
}

describe('Users screen (browser)', () => {
  const ids: Record<string, string> = {};

  const { h, admin } = useConsole({
    users: { admin: ['ROLE_PORTAL_ADMIN', { loginId: 'avery.admin' }] },
    signIn: ['admin'],
    seed: async (h) => {
      const db = h.sys.ctx.mongo;
      const now = new Date();
      await db.collection('accounts').insertMany(
        ACCOUNTS.map((a) => ({
          ...a,
          sfdcId: null,
          status: 'ACTIVE',
          address: null,
          deleted: false,
          version: 0,
          createdOn: now,
          updatedOn: now,
        })) as any[],
      );
      const { User } = identityModels(db);
      const hash = await hashPassword(TEST_PASSWORD);
      for (const [i, [firstName, lastName, role, status, provider, acc]] of PEOPLE.entries()) {
        const loginId = `${firstName}.${lastName}`.toLowerCase();
        const account = acc >= 0 ? { id: ACCOUNTS[acc]._id, name: ACCOUNTS[acc].name } : null;
        const doc = await User.create({
          loginId,
          email:
            provider === 'ACTIVE_DIRECTORY'
              ? `${loginId}@oncotrf.example.com`
              : `${loginId}@clinic.example.org`,
          firstName,
          lastName,
          role,
          status,
          authenticationProvider: provider,
          account,
          location: acc >= 0 ? LOCATIONS[acc] : null,
          title: role === 'ROLE_NPI' ? 'MD, Medical Oncology' : null,
          sfdcId: i === 0 ? '005Dn000003XyZ1AAK' : null,
          authorizedUsers: lastName === 'Rahman' ? ['phys-0'] : [],
          physicianId: ['ROLE_NPI', 'ROLE_PHYSICIAN', 'ROLE_PATHOLOGIST'].includes(role) ? `phys-${i}` : null,
          lastLogin: status === 'ACTIVE' ? new Date(now.getTime() - i * 7_200_000) : null,
          passwordHash: hash,
          passwordHistory: [hash],
          createdOn: new Date(now.getTime() - (30 - i) * 86_400_000),
          updatedOn: new Date(now.getTime() - (i + 1) * 3_600_000),
        });
        ids[loginId] = doc._id as string;
      }
    },
  });

  const rowSel = (loginId: string) => `[data-testid="row-${ids[loginId]}"]`;
  const statusOf = async (loginId: string) =>
    (await h.api(admin.authorization, 'GET', `/portal/api/v1/users/${ids[loginId]}`)).body.status;

  /** The admin's remembered filters of the Users list as the server has them (preference "filters.users"). */
  const saved = async () => {
    const url = `/portal/api/v1/userPreferences?filter=${encodeURIComponent(JSON.stringify({ name: 'filters.users' }))}`;
    return JSON.parse((await h.api(admin.authorization, 'GET', url)).body.content?.[0]?.content ?? 'null');
  };

  async function openUsers(page: Page, first = 'maria.lopez') {
    await loginAs(page, h, admin.loginId);
    await open(page, h, '/users');
    await page.waitForSelector(rowSel(first), { visible: true });
  }

  it('deactivates a selected user after confirmation; the server has the new status', async () => {
    const page = await h.newPage();
    await openUsers(page);
    await animationsDone(page);
    await h.shot(page, 'users-en');
    await page.screenshot({ path: `${SCREENSHOT_DIR}/users-full-en.png`, fullPage: true });
    expect(await statusOf('maria.lopez')).toBe('ACTIVE');

    await page.click(`${rowSel('maria.lopez')} input[type="radio"]`);
    await clickWhenReady(page, '[data-testid="users-actions"]');
    await page.waitForSelector('[data-testid="action-deactivate"]', { visible: true });
    // the status rules come from the domain: an ACTIVE identity-provider user cannot be activated or unlocked
    const disabled = (a: string) =>
      page.$eval(`[data-testid="action-${a}"]`, (e) => e.getAttribute('aria-disabled') === 'true');
    expect(await disabled('activate')).toBe(true);
    expect(await disabled('unlock')).toBe(true);
    expect(await disabled('deactivate')).toBe(false);
    expect(await disabled('salesforce')).toBe(false);
    await animationsDone(page);
    await h.shot(page, 'users-actions-en');
    await clickWhenReady(page, '[data-testid="action-deactivate"]');

    await page.waitForSelector('[data-testid="confirm-dialog"]', { visible: true });
    await waitForText(page, 'Please Confirm');
    await waitForText(page, 'Are you sure you want to deactivate Maria Lopez?');
    await animationsDone(page);
    await h.shot(page, 'users-confirm-en');
    expect(await statusOf('maria.lopez')).toBe('ACTIVE'); // nothing happens before Yes
    const [yes] = await page.$$('xpath/.//button[normalize-space()="Yes"]');
    await yes.click();

    await waitForText(page, 'User Maria Lopez has been deactivated.');
    await animationsDone(page);
    await h.shot(page, 'users-toast-en');
    expect(await statusOf('maria.lopez')).toBe('INACTIVE');
    // the list refreshed: the row now shows the new status
    await page.waitForFunction(
      (sel) => document.querySelector(sel)?.textContent?.includes('Inactive'),
      {},
      `${rowSel('maria.lopez')} [data-testid="user-status"]`,
    );
  });

  it('right-click opens the actions for that row; filters come from the server facets', async () => {
    const page = await h.newPage();
    await openUsers(page);
    await page.click(rowSel('james.carter'), { button: 'right' });
    await page.waitForSelector('[data-testid="user-actions-menu"]', { visible: true });
    const unlock = await page.$eval('[data-testid="action-unlock"]', (e) => e.getAttribute('aria-disabled'));
    expect(unlock).not.toBe('true'); // LOCKED_OUT identity-provider user
    expect(
      await page.$eval(
        `${rowSel('james.carter')} input[type="radio"]`,
        (e) => (e as HTMLInputElement).checked,
      ),
    ).toBe(true);
    await animationsDone(page);
    await h.shot(page, 'users-context-menu-en');
    await page.keyboard.press('Escape');

    await page.waitForSelector('[data-testid="user-actions-menu"]', { hidden: true });
    await clickWhenReady(page, '[data-testid="facet-User Status"]');
    await page.waitForSelector('.MuiPopover-paper input', { visible: true });
    await animationsDone(page);
    const apply = () => page.$$('xpath/.//button[normalize-space()="Apply"]');
    expect(await (await apply())[0].evaluate((b) => (b as HTMLButtonElement).disabled)).toBe(true);
    const [locked] = await page.$$(
      'xpath/.//div[contains(@class,"MuiPopover-paper")]//span[normalize-space()="Locked Out"]',
    );
    await locked.click();
    await animationsDone(page);
    await h.shot(page, 'users-filter-en');
    await (await apply())[0].click();
    await page.waitForFunction((sel) => !document.querySelector(sel), {}, rowSel('priya.shah'));
    await page.waitForSelector(rowSel('james.carter'));
    await animationsDone(page);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/users-filtered-full-en.png`, fullPage: true });
    // the applied filter is remembered for this list on the server (preference record "filters.users")
    await expect.poll(saved, { timeout: 10_000 }).toMatchObject({ listFilters: { status: ['LOCKED_OUT'] } });
  });

  it('remembers the applied filters through the user-preferences API; the search box', async () => {
    // a fresh browser (no local storage): the Locked Out filter applied above comes back from the server
    const page = await h.newPage();
    await openUsers(page, 'james.carter');
    expect(await page.$(rowSel('priya.shah'))).toBeNull();
    await clickXPath(page, './/button[normalize-space()="Reset"]');
    await page.waitForSelector(rowSel('aisha.rahman'), { visible: true });

    // the search box applies above 2 characters
    await page.type('[data-testid="list-search"]', 'rahm');
    await page.waitForSelector(rowSel('priya.shah'), { hidden: true });
    await page.waitForSelector(rowSel('aisha.rahman'), { visible: true });
    await page.click('[data-testid="list-search"]', { count: 3 });
    await page.keyboard.press('Backspace');
    await page.waitForSelector(rowSel('priya.shah'), { visible: true });
    // leaving the page at once still sends the last change (no waiting out the list's pause): the reset
    // filters and the cleared search reach the server, so the next fresh browser opens the whole list
    await page.goto('about:blank');
    await expect
      .poll(
        async () => {
          const s = await saved();
          return { listFilters: s?.listFilters, simpleFilters: s?.simpleFilters };
        },
        { timeout: 10_000 },
      )
      .toEqual({ listFilters: {}, simpleFilters: {} });
  });

  it('adds a user (roles the creator may add, default Physician, account for that role) and a directory employee', async () => {
    const page = await h.newPage();
    await openUsers(page);
    await clickWhenReady(page, '[data-testid="add-user"]');
    await page.waitForSelector('[data-testid="add-user-dialog"]', { visible: true });
    expect(await page.$eval('[data-testid="role-select"]', (e) => (e as HTMLInputElement).value)).toBe(
      'ROLE_PHYSICIAN',
    );
    await animationsDone(page);
    await h.shot(page, 'users-add-en');
    const dialog = '[data-testid="add-user-dialog"]';
    await page.type(`${dialog} input[name="loginId"]`, 'nina.patel');
    await page.type(`${dialog} input[name="email"]`, 'nina.patel@clinic.example.org');
    await page.type(`${dialog} input[name="firstName"]`, 'Nina');
    await page.type(`${dialog} input[name="lastName"]`, 'Patel');
    const addButton = `xpath/.//div[@data-testid="add-user-dialog"]//button[normalize-space()="Add"]`;
    expect(await (await page.$(addButton))!.evaluate((b) => (b as HTMLButtonElement).disabled)).toBe(true);
    await page.type(`${dialog} input[role="combobox"]:not([name])`, 'Lakes');
    await clickXPath(page, './/li[@role="option"][normalize-space()="Lakeside Cancer Center"]');
    await clickXPath(page, addButton.replace('xpath/', ''));
    await waitForText(page, 'New user added successfully.');
    const created = await h.api(
      admin.authorization,
      'GET',
      `/portal/api/v1/users?filter=${encodeURIComponent(JSON.stringify({ loginId: 'nina.patel' }))}`,
    );
    expect(created.body.content[0]).toMatchObject({
      role: { name: 'ROLE_PHYSICIAN' },
      account: { id: 'acc-e2e-2', name: 'Lakeside Cancer Center' },
      status: 'PROVISIONED',
    });

    // add a company employee from the directory: confirmed, then enabled on the server
    await page.waitForSelector(dialog, { hidden: true });
    await clickXPath(page, './/button[contains(normalize-space(),"Employee")]');
    await page.waitForSelector('[data-testid="directory-search"]', { visible: true });
    await page.type('[data-testid="directory-search"]', 'oncotrf');
    await waitForText(page, 'Showing 3 results.');
    await clickXPath(
      page,
      './/div[@data-testid="directory-user-dialog"]//span[normalize-space()="Olivia Hughes"]',
    );
    await animationsDone(page);
    await h.shot(page, 'users-directory-en');
    await clickXPath(page, './/div[@data-testid="directory-user-dialog"]//button[normalize-space()="Add"]');
    await waitForText(page, 'Are you sure you want to add Olivia Hughes');
    await clickXPath(page, './/div[@data-testid="confirm-dialog"]//button[normalize-space()="Yes"]');
    await waitForText(page, 'Olivia Hughes has been added as a portal user.');
    expect(await statusOf('olivia.hughes')).toBe('ACTIVE');
  });

  it('updates a user: loginId read-only, role as text, authorized physicians by name', async () => {
    const page = await h.newPage();
    await openUsers(page);
    await page.click(`${rowSel('aisha.rahman')} input[type="radio"]`);
    await clickWhenReady(page, '[data-testid="users-actions"]');
    await clickWhenReady(page, '[data-testid="action-update"]');
    await page.waitForSelector('[data-testid="update-user-dialog"]', { visible: true });
    expect(
      await page.$eval('[data-testid="loginId-readonly"]', (e) => (e as HTMLInputElement).readOnly),
    ).toBe(true);
    // the authorized physician shows by name (from the clinicians list)
    await page.waitForSelector(
      'xpath/.//div[@data-testid="update-user-dialog"]//span[contains(@class,"MuiChip-label")][normalize-space()="Maria Lopez"]',
      { visible: true },
    );
    await animationsDone(page);
    await h.shot(page, 'users-update-en');
    await page.type('[data-testid="update-user-dialog"] input[name="title"]', 'Staff Pathologist');
    await clickXPath(page, './/div[@data-testid="update-user-dialog"]//button[normalize-space()="Update"]');
    await waitForText(page, 'Update user detail successfully.');
    const updated = await h.api(admin.authorization, 'GET', `/portal/api/v1/users/${ids['aisha.rahman']}`);
    expect(updated.body).toMatchObject({ title: 'Staff Pathologist', authorizedUsers: ['phys-0'] });
  });

  it('reads in Simplified Chinese', async () => {
    const page = await h.newPage({ locale: 'zh-CN' });
    await openUsers(page);
    await waitForText(page, '用户状态');
    await animationsDone(page);
    await h.shot(page, 'users-zh');
    await page.click(`${rowSel('james.carter')} input[type="radio"]`);
    await clickWhenReady(page, '[data-testid="users-actions"]');
    await clickWhenReady(page, '[data-testid="action-unlock"]');
    await waitForText(page, '请确认');
    await animationsDone(page);
    await h.shot(page, 'users-confirm-zh');
  });
});
