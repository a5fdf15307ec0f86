import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { identityModels } from '@onco/identity';
import { QUEUE_BOARD_COOKIE, QUEUE_BOARD_PATH } from '@onco/platform';
import { createTestSystem, createUser, login } from '@onco/testing';
import { QUEUE_BOARD_TTL_S } from './queue-board';

/**
 * The read-only queue dashboard (bull-board) against the real Redis queues of a test system: opened only through
 * its own cookie, set by an operator's signed-in call; every request under its path checked again.
 */
type Sys = Awaited<ReturnType<typeof createTestSystem>>;
let sys: Sys;
let devops: { authorization: string; userId: string };
let observer: { authorization: string };

const OPEN = '/portal/api/v1/operations/queueBoard';
const API = `${QUEUE_BOARD_PATH}/api/queues?activeQueue=billing-submit&status=latest&page=1&jobsPerPage=10`;

/** the cookie the open call set, as a Cookie header */
async function boardCookie(authorization: string): Promise<{ header: string; setCookie: string }> {
  const res = await sys.app.inject({ method: 'POST', url: OPEN, headers: { authorization } });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ url: `${QUEUE_BOARD_PATH}/` });
  const setCookie = String(res.headers['set-cookie']);
  const value = /oncotrf_queue_board=([^;]+)/.exec(setCookie)?.[1];
  expect(value).toBeTruthy();
  return { header: `${QUEUE_BOARD_COOKIE}=${value}`, setCookie };
}

beforeAll(async () => {
  // sign-ins of 30 minutes: the dashboard's cookie (an hour at most) must not outlive them
  sys = await createTestSystem({ TOKEN_TTL_SECONDS: '1800' });
  const d = await createUser(sys, 'ROLE_DEVOPS');
  devops = { authorization: (await login(sys, d.loginId)).authorization, userId: String(d._id) };
  const o = await createUser(sys, 'ROLE_OBSERVER');
  observer = { authorization: (await login(sys, o.loginId)).authorization };
});
afterAll(async () => {
  await sys?.close();
});

describe('queue dashboard (bull-board, read-only)', () => {
  it('closed without its cookie: the page and its API answer 401 with what to do', async () => {
    for (const url of [`${QUEUE_BOARD_PATH}/`, API]) {
      const res = await sys.app.inject({ url });
      expect(res.statusCode).toBe(401);
      expect(res.body).toContain('Open the queue dashboard from the console');
    }
    // the console's bearer token does not open it either
    const bearer = await sys.app.inject({ url: API, headers: { authorization: devops.authorization } });
    expect(bearer.statusCode).toBe(401);
  });

  it('only VIEW_OPERATIONS may open it', async () => {
    const res = await sys.app.inject({ method: 'POST', url: OPEN, headers: observer });
    expect(res.statusCode).toBe(403);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect((await sys.app.inject({ method: 'POST', url: OPEN })).statusCode).toBe(401);
  });

  it('an operator opens it: an HttpOnly, SameSite=Strict cookie scoped to the board, then the page and every queue', async () => {
    const { header, setCookie } = await boardCookie(devops.authorization);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).toContain(`Path=${QUEUE_BOARD_PATH}`);
    // never longer than the console's sign-in (30 minutes here, under the dashboard's hour)
    const maxAge = Number(/Max-Age=(\d+)/.exec(setCookie)![1]);
    expect(maxAge).toBeLessThanOrEqual(1800);
    expect(maxAge).toBeGreaterThan(1700);
    expect(QUEUE_BOARD_TTL_S).toBeGreaterThan(1800);
    const claims = (t: string) => JSON.parse(Buffer.from(t.split('.')[0], 'base64url').toString('utf8'));
    const board = claims(header.split('=')[1]);
    expect(board.aud).toBe('queue-board');
    expect(board.exp).toBe(claims(devops.authorization.slice(7)).exp);
    // plain http: not Secure (PUBLIC_URL is http here)
    expect(setCookie).not.toContain('Secure');

    const page = await sys.app.inject({ url: `${QUEUE_BOARD_PATH}/`, headers: { cookie: header } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('oncotrf queues');
    expect(page.body).toContain(`<base href="${QUEUE_BOARD_PATH}/"`);
    // no third-party request: bull-board's Google web font link is taken out, its own stylesheet stays
    expect(page.body).not.toMatch(/fonts\.(googleapis|gstatic)\.com/);
    expect(page.body).toMatch(/<link href="static\/css\/main\.[0-9a-f]+\.css" rel="stylesheet">/);

    // a job waiting in a real queue shows on the board with its data
    const billing = sys.ctx.queues.get('billing-submit')!;
    await billing.add('billing-submit', { caseId: 'case-board-1', generation: 1 }, { jobId: 'board-1' });
    const api = await sys.app.inject({ url: API, headers: { cookie: header } });
    expect(api.statusCode).toBe(200);
    const body = api.json();
    const names = body.queues.map((q: { name: string }) => q.name);
    expect(names).toEqual(expect.arrayContaining(sys.ctx.queues.names()));
    expect(names).toContain('billing-submit');
    const queue = body.queues.find((q: { name: string }) => q.name === 'billing-submit');
    expect(queue.readOnlyMode).toBe(true);
    expect(queue.counts.waiting).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(queue.jobs)).toContain('case-board-1');
    await billing.remove('board-1');

    // its static files come through the same guard
    const css = /href="(static\/css\/[^"]+)"/.exec(page.body)![1];
    expect(
      (await sys.app.inject({ url: `${QUEUE_BOARD_PATH}/${css}`, headers: { cookie: header } })).statusCode,
    ).toBe(200);
    expect((await sys.app.inject({ url: `${QUEUE_BOARD_PATH}/${css}` })).statusCode).toBe(401);
  });

  it('changes nothing: retry, clean, pause and the like are refused and the queue is as it was', async () => {
    const { header } = await boardCookie(devops.authorization);
    const billing = sys.ctx.queues.get('billing-submit')!;
    await billing.add('billing-submit', { caseId: 'case-board-2', generation: 1 }, { jobId: 'board-2' });
    try {
      for (const [method, url] of [
        ['PUT', '/api/queues/billing-submit/pause'],
        ['PUT', '/api/queues/pause'],
        ['PUT', '/api/queues/billing-submit/retry/failed'],
        ['PUT', '/api/queues/billing-submit/clean/waiting'],
        ['PUT', '/api/queues/billing-submit/empty'],
        ['PUT', '/api/queues/billing-submit/obliterate'],
        ['PUT', '/api/queues/billing-submit/board-2/clean'],
        ['PUT', '/api/queues/billing-submit/board-2/promote'],
        ['PATCH', '/api/queues/billing-submit/board-2/update-data'],
        ['POST', '/api/queues/billing-submit/add'],
      ] as const) {
        const res = await sys.app.inject({
          method,
          url: `${QUEUE_BOARD_PATH}${url}`,
          headers: { cookie: header },
          ...(method === 'PUT' ? {} : { payload: { name: 'x', data: { caseId: 'changed' } } }),
        });
        expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(405);
      }
      // reading a job is allowed
      const job = await sys.app.inject({
        url: `${QUEUE_BOARD_PATH}/api/queues/billing-submit/board-2`,
        headers: { cookie: header },
      });
      expect(job.statusCode).toBe(200);
      expect(job.body).toContain('case-board-2');
      expect(await billing.isPaused()).toBe(false);
      expect(await billing.getJobState('board-2')).toBe('waiting');
      expect((await billing.getJob('board-2'))?.data).toEqual({ caseId: 'case-board-2', generation: 1 });
      expect(await billing.count()).toBe(1);
    } finally {
      await billing.remove('board-2');
    }
  });

  it('Log out closes it: the public DELETE removes the cookie, with or without a valid sign-in', async () => {
    const res = await sys.app.inject({ method: 'DELETE', url: OPEN });
    expect(res.statusCode).toBe(204);
    const cleared = String(res.headers['set-cookie']);
    expect(cleared).toContain(`${QUEUE_BOARD_COOKIE}=;`);
    expect(cleared).toContain(`Path=${QUEUE_BOARD_PATH}`);
    expect(cleared).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/);
  });

  it('its 204 has no body, and the document says so (fuzzing: it documented a JSON body, schema mismatch)', async () => {
    const res = await sys.app.inject({ method: 'DELETE', url: OPEN });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const doc = (await sys.app.inject({ url: '/docs/json' })).json();
    expect(doc.paths[OPEN].delete.responses['204']).not.toHaveProperty('content');
  });

  it('a board cookie is not a bearer token, and a password change closes the board', async () => {
    const { header } = await boardCookie(devops.authorization);
    const token = /=(.+)$/.exec(header)![1];
    const asBearer = await sys.app.inject({
      url: '/portal/api/v1/operations/queues',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(asBearer.statusCode).toBe(401);
    // a forged cookie
    const forged = await sys.app.inject({ url: API, headers: { cookie: `${header.slice(0, -3)}abc` } });
    expect(forged.statusCode).toBe(401);

    const { User } = identityModels(sys.ctx.mongo);
    await User.updateOne({ _id: devops.userId }, { $inc: { tokenVersion: 1 } });
    // (the guard's session cache holds a user up to 2 s; a password change through the API also clears it)
    await vi.waitFor(
      async () =>
        expect((await sys.app.inject({ url: API, headers: { cookie: header } })).statusCode).toBe(401),
      { timeout: 10_000, interval: 100 },
    );
    const after = await sys.app.inject({ url: API, headers: { cookie: header } });
    expect(after.statusCode).toBe(401);
  });
});
