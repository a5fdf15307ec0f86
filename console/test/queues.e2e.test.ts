import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { loginAs, open, profileMenu, useConsole, waitForText } from './harness';

/**
 * The read-only queue dashboard (bull-board) as an operator opens it: profile menu, Queues, a new tab with every
 * queue of the backend and a job waiting in one (docs/decisions.md "Queue dashboard").
 */
describe('queue dashboard (browser)', () => {
  const { h } = useConsole();

  it('an operator opens it from the profile menu in a new tab; it shows the queues and their jobs', async () => {
    // a claim to be sent in an hour (delayed: the backend's worker leaves it there while the test looks)
    const billing = h.sys.ctx.queues.get('billing-submit')!;
    await billing.add(
      'billing-submit',
      { caseId: 'case-e2e-board', generation: 1 },
      { jobId: 'e2e-board', delay: 3_600_000 },
    );
    try {
      const devops = await h.user('ROLE_DEVOPS');
      const page = await h.newPage();
      await loginAs(page, h, devops.loginId);
      const context = page.browserContext();
      const opened = context.waitForTarget((t) => t.url().includes('/operations/queues/'), {
        timeout: 30_000,
      });
      await profileMenu(page, 'menu-queues');
      const board = (await (await opened).page()) as Page;
      const refused: string[] = [];
      board.on('console', (m) => {
        if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
      });
      await board.setViewport({ width: 1366, height: 860 });
      for (const name of h.sys.ctx.queues.names()) await waitForText(board, name);
      await h.shot(board, 'queues-board-overview');

      // the billing queue's delayed job, with its data
      await open(board, h, '/operations/queues/queue/billing-submit?status=delayed');
      await waitForText(board, 'e2e-board');
      await h.shot(board, 'queues-board-billing-delayed');
      expect(await board.evaluate(() => document.body.innerText)).toContain('billing-submit');
      // read-only: no retry, clean or pause buttons on the queue
      const buttons = await board.$$eval('button', (bs) => bs.map((b) => (b.textContent ?? '').trim()));
      expect(buttons.filter((b) => /^(Retry|Clean|Pause|Empty|Promote)/i.test(b))).toEqual([]);
      // nothing it loads is refused by the server's Content-Security-Policy (its third-party font link is taken out)
      expect(refused).toEqual([]);

      // Log out in the console closes the dashboard in this browser too
      await page.bringToFront();
      await profileMenu(page, 'menu-logout');
      await page.waitForSelector('[data-testid="login-form"]');
      await board.waitForFunction(async () => (await fetch('/operations/queues/api/queues')).status === 401, {
        timeout: 10_000,
      });
      const after = await board.goto(`${h.base}/operations/queues/`);
      expect(after?.status()).toBe(401);
    } finally {
      await billing.remove('e2e-board');
    }
  });

  it('a user without VIEW_OPERATIONS has no Queues entry, and the dashboard stays closed to them', async () => {
    const observer = await h.user('ROLE_OBSERVER');
    const page = await h.newPage();
    await loginAs(page, h, observer.loginId);
    await page.click('[data-testid="profile-menu"]');
    await page.waitForSelector('[data-testid="menu-release-notes"]', { visible: true });
    expect(await page.$('[data-testid="menu-queues"]')).toBeNull();
    const res = await page.goto(`${h.base}/operations/queues/`);
    expect(res?.status()).toBe(401);
    await waitForText(page, 'Open the queue dashboard from the console');
  });
});
