import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MSG } from '@onco/domain';
import { b64, createTestSystem, sharedTestSystem, createUser, login, TEST_PASSWORD } from '@onco/testing';

type Sys = Awaited<ReturnType<typeof createTestSystem>>;
let sys: Sys;
beforeAll(async () => {
  sys = await sharedTestSystem();
});
afterAll(async () => {
  await sys?.close();
});

describe('health and readiness', () => {
  it('/health is alive and /ready checks MongoDB, Kafka and Redis', async () => {
    expect((await sys.app.inject({ url: '/health' })).json()).toEqual({ status: 'UP' });
    const ready = await sys.app.inject({ url: '/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'UP', mongo: true, kafka: true, redis: true });
  });

  it('/ready is a 503 naming what is down', async () => {
    const broken = await createTestSystem({ REDIS_URL: 'redis://127.0.0.1:6399' });
    try {
      const res = await broken.app.inject({ url: '/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 'DOWN', redis: false, mongo: true, down: ['redis'] });
    } finally {
      await broken.close();
    }
  });
});

describe('security headers (docs/decisions.md "Security headers")', () => {
  it('every answer, an API reply and an error alike, carries them', async () => {
    for (const res of [
      await sys.app.inject({ url: '/health' }),
      await sys.app.inject({ url: '/portal/api/v1/testOrderForms' }), // 401
    ]) {
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'self'");
      expect(csp).toContain("frame-src 'self' blob:");
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
  });
});

describe('errors', () => {
  it('one JSON shape for 4xx, with the request id', async () => {
    const res = await sys.app.inject({
      url: '/portal/api/v1/nothing-here',
      headers: { 'x-request-id': 'req-123' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      status: 404,
      code: 'NOT_FOUND',
      message: 'No route GET /portal/api/v1/nothing-here',
      requestId: 'req-123',
    });
    expect(res.headers['x-request-id']).toBe('req-123');
    const badJson = await sys.app.inject({
      method: 'POST',
      url: '/uam/api/v1/authenticate',
      headers: { 'content-type': 'application/json' },
      payload: '{"username":',
    });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json()).toMatchObject({
      status: 400,
      code: expect.any(String),
      message: expect.any(String),
    });
  });

  it('an unknown error is a 500 with the generic message and nothing internal', async () => {
    // a base app like every process's, with routes that fail the way a bug or a bad query would
    const { createBaseApp } = await import('@onco/platform');
    const app = await createBaseApp(sys.ctx, async () => null);
    app.get('/boom', { config: { public: true } }, async () => {
      throw new Error('secret internals: mongodb://user:pw@host');
    });
    app.get(
      '/typed',
      { config: { public: true }, schema: { querystring: z.object({ n: z.coerce.number().int() }) } },
      async () => ({ ok: true }),
    );
    const res = await app.inject({ url: '/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ status: 500, code: 'INTERNAL', message: MSG.generic });
    expect(res.body).not.toContain('secret');
    const bad = await app.inject({ url: '/typed?n=abc' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^Invalid querystring: n/);
    await app.close();
  });

  it('every multipart route refuses a boundary its body cannot be split on with a 400, and no route answers 500 (was a 500)', async () => {
    // every write route of the API document, sent a multipart body it cannot split: the routes that take one
    // (whichever module registers the parser) answer 400 naming the boundary, and none answers 500
    const doc = (await sys.app.inject({ url: '/docs/json' })).json();
    const routes = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, ops]) =>
        Object.keys(ops)
          .filter((m) => ['post', 'put', 'patch'].includes(m))
          .map((m) => ({ method: m.toUpperCase() as 'POST', url: path.replace(/\{[^}]+\}/g, 'x') })),
    );
    const admin = await login(sys, (await createUser(sys, 'ROLE_ADMINISTRATOR')).loginId);
    const { MULTIPART_BAD_BOUNDARY, MULTIPART_NO_BOUNDARY } = await import('@onco/platform');
    const payload =
      '--x\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\na\r\n--x--\r\n';
    const refused = new Set<string>();
    for (const { method, url } of routes)
      for (const [contentType, message] of [
        ['multipart/form-data', MULTIPART_NO_BOUNDARY],
        ['multipart/form-data; charset=utf-8', MULTIPART_NO_BOUNDARY],
        [`multipart/form-data; boundary=${'x'.repeat(300)}`, MULTIPART_BAD_BOUNDARY],
      ]) {
        const res = await sys.app.inject({
          method,
          url,
          headers: { authorization: admin.authorization, 'content-type': contentType },
          payload,
        });
        // the others: 415 (no multipart parser there), 403 (the guard, before the body), 400 (their body schema)
        expect(res.statusCode, `${method} ${url} [${contentType}]: ${res.body}`).toBeLessThan(500);
        if (res.json().message !== message) continue;
        expect(res.statusCode).toBe(400);
        refused.add(`${method} ${url}`);
      }
    // the upload routes (they declare the multipart body they take)
    expect([...refused].sort()).toEqual([
      'POST /oms/api/v1/testOrders/x/reports/upload',
      'POST /portal/api/v1/attachments/upload',
      'POST /portal/api/v1/sampleManifests/check',
    ]);
  });
});

describe('logs', () => {
  it('never contain passwords, tokens or patient fields', async () => {
    const u = await createUser(sys, 'ROLE_NPI');
    const { authorization } = await login(sys, u.loginId);
    await sys.app.inject({
      method: 'POST',
      url: '/uam/api/v1/authenticate',
      payload: { username: b64(u.loginId), password: b64('WrongSecret77') },
    });
    await sys.app.inject({ url: '/uam/api/v1/session', headers: { authorization } });
    sys.ctx.logger.info(
      { patient: { firstName: 'Jane', lastName: 'Doe' }, body: { password: 'x' } },
      'handler log',
    );
    sys.ctx.logger.info(
      {
        req: { headers: { authorization } },
        user: { firstName: 'Janet', dateOfBirth: '1970-01-01', password: 'Hunter2Pw' },
      },
      'nested',
    );
    const text = sys.logs.text;
    expect(text).toContain('"url":"/uam/api/v1/session"');
    for (const secret of [
      TEST_PASSWORD,
      b64(TEST_PASSWORD),
      'WrongSecret77',
      b64('WrongSecret77'),
      authorization.slice(7),
      'Jane',
      'Doe',
      'Janet',
      '1970-01-01',
      'Hunter2Pw',
    ]) {
      expect(text, secret).not.toContain(secret);
    }
    expect(text).toContain('[REDACTED]');
  });
});

describe('one area per process', () => {
  it('SERVICES=uam mounts only the uam area; the others are 404', async () => {
    const uam = await createTestSystem({ SERVICES: 'uam' });
    try {
      const u = await createUser(uam, 'ROLE_PORTAL_ADMIN');
      const { authorization } = await login(uam, u.loginId);
      expect(
        (await uam.app.inject({ url: '/uam/api/v1/session', headers: { authorization } })).statusCode,
      ).toBe(200);
      expect(
        (await uam.app.inject({ url: '/portal/api/v1/users', headers: { authorization } })).statusCode,
      ).toBe(404);
      expect(
        (await uam.app.inject({ url: '/dxs/api/v1/icddx', headers: { authorization } })).statusCode,
      ).toBe(404);
    } finally {
      await uam.close();
    }
  });

  it('refuses an unknown area name at start-up', async () => {
    await expect(createTestSystem({ SERVICES: 'uam,lims' })).rejects.toThrow(/SERVICES: unknown area "lims"/);
  });
});

describe("which domains' workers a process runs (WORKER_MODULES)", () => {
  /** the consumer groups of this system with a member, and its queues with a worker */
  async function running(s: Sys) {
    const admin = s.ctx.kafka.admin();
    await admin.connect();
    try {
      const prefix = s.config.TOPIC_PREFIX.replace(/\.+$/, '');
      const ids = (await admin.listGroups()).groups.map((g) => g.groupId).filter((g) => g.startsWith(prefix));
      const { groups } = await admin.describeGroups(ids);
      const withMembers = groups
        .filter((g) => g.members.length)
        .map((g) => g.groupId.slice(prefix.length + 1));
      const queues: string[] = [];
      for (const name of s.ctx.queues.names())
        if ((await s.ctx.queues.get(name)!.getWorkers()).length) queues.push(name);
      return { groups: withMembers.sort(), queues: queues.sort() };
    } finally {
      await admin.disconnect();
    }
  }

  it("starts only the named domains' consumers and queue workers; every queue has an owner", async () => {
    const lab = await createTestSystem({ WORKERS: 'true', WORKER_MODULES: 'lab' });
    try {
      const r = await running(lab);
      expect(r.groups.length).toBeGreaterThan(0);
      expect(
        r.groups.every((g) => g.startsWith('lab.')),
        r.groups.join(),
      ).toBe(true);
      expect(r.queues).toEqual(['report-upload-sweep', 'sample-manifest']);
      // the outbox relay runs in every process with workers
      expect(lab.relay).not.toBeNull();
    } finally {
      await lab.close();
    }
    // naming every domain is the same as "all": no queue is left without a worker
    const every = await createTestSystem({
      WORKERS: 'true',
      WORKER_MODULES: 'reference,requisitions,lab,billing,messages',
    });
    try {
      const r = await running(every);
      expect(r.queues).toEqual([...every.ctx.queues.names()].sort());
      for (const domain of ['reference.', 'requisitions.', 'lab.', 'billing.', 'messages.'])
        expect(
          r.groups.some((g) => g.startsWith(domain)),
          domain,
        ).toBe(true);
    } finally {
      await every.close();
    }
  });

  it('refuses an unknown domain at start-up', async () => {
    await expect(createTestSystem({ WORKERS: 'true', WORKER_MODULES: 'lab,lims' })).rejects.toThrow(
      /WORKER_MODULES: unknown domain "lims" \(use all or reference,requisitions,lab,billing,messages,audit\)/,
    );
  });
});

describe('API documentation', () => {
  it('serves an OpenAPI document generated from the zod schemas, and its page', async () => {
    const res = await sys.app.inject({ url: '/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    const auth = doc.paths['/uam/api/v1/authenticate'].post;
    expect(Object.keys(auth.requestBody.content['application/json'].schema.properties)).toEqual([
      'username',
      'password',
    ]);
    expect(auth.responses['200'].content['application/json'].schema.properties).toHaveProperty(
      'grantedAuthorities',
    );
    expect(doc.paths).toHaveProperty(['/portal/api/v1/users']);
    expect((await sys.app.inject({ url: '/docs' })).statusCode).toBeLessThan(400);
  });
});
