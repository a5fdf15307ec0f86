import pino from 'pino';
import type { Collection } from 'mongodb';
import type { Connection } from 'mongoose';
import {
  buildMatch,
  listAggregates,
  listAnswer,
  loadConfig,
  orderedHint,
  parseListQuery,
  type Config,
  type ListQuery,
  type ListResource,
  type SessionUser,
} from '@onco/platform';
import { permissionsOf, type Role } from '@onco/domain';
import { buildSystem, demoLogin, type System } from '@onco/server';

/**
 * What the benchmarks share (scripts/bench-*.ts): the command-line arguments, their own server and its demo users'
 * sign-in, the closed-loop runner at a fixed concurrency and its figures, and the list benchmarks' measurement.
 */

/** `--name value` from the command line, else the fallback. */
export function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

export interface RunFigures {
  p50: number;
  p95: number;
  rps: number;
}

/** p50 and p95 of the samples (ms) and requests per second over the wall time. */
export function stats(samples: number[], wallMs: number): RunFigures {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
  return { p50: at(50), p95: at(95), rps: (samples.length / wallMs) * 1000 };
}

/** `requests` calls of `once`, `concurrency` at a time (each worker starts the next when its call ends). */
export async function run(
  requests: number,
  concurrency: number,
  once: () => Promise<void>,
): Promise<RunFigures> {
  const samples: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        next++;
        const t = performance.now();
        await once();
        samples.push(performance.now() - t);
      }
    }),
  );
  return stats(samples, performance.now() - start);
}

export const fmt = (r: RunFigures) =>
  `p50 ${r.p50.toFixed(0)} ms, p95 ${r.p95.toFixed(0)} ms, ${r.rps.toFixed(2)} req/s`;

/** A benchmark's `main`, run: an error is printed and the process exits 1. */
export function runBench(main: () => Promise<void>): void {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}

/** A database URL without its credentials (for the log). */
export const withoutCredentials = (url: string) => url.replace(/\/\/[^@]*@/, '//');

/** The configuration of a benchmark's own server: the environment's, in demo mode, no workers, any port. */
export function benchConfig(opts: { serveConsole?: boolean } = {}): Config {
  return loadConfig({
    ...process.env,
    WORKERS: 'false',
    SERVE_CONSOLE: opts.serveConsole ? 'true' : 'false',
    DEMO_MODE: 'true',
    PORT: '0',
  });
}

/** The benchmark's own server (the whole system, warnings logged) listening on a free local port, and its URL. */
export async function startBenchServer(config: Config) {
  const system = await buildSystem(config, { logger: pino({ level: 'warn' }) });
  await system.app.listen({ port: 0, host: '127.0.0.1' });
  const address = system.app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return { system, base };
}

/** Sign in as the role's demo user (demo mode, `password` the config's DEMO_PASSWORD): its bearer token. */
export async function signIn(base: string, role: Role, password: string): Promise<string> {
  const res = await fetch(`${base}/uam/api/v1/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: Buffer.from(demoLogin(role)).toString('base64'),
      password: Buffer.from(password).toString('base64'),
    }),
  });
  if (!res.ok) throw new Error(`sign-in as ${demoLogin(role)} failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/**
 * Sign in as the role's demo user (signIn): the headers of its requests, and the user as the server sees it (its
 * session), whose data scope the bare queries must apply to ask for the same rows.
 */
export async function signInSession(base: string, role: Role, password: string) {
  const headers = { authorization: `Bearer ${await signIn(base, role, password)}` };
  const session = (await (await fetch(`${base}/uam/api/v1/session`, { headers })).json()) as any;
  const user = {
    ...session,
    allAccounts: (session.grantedAuthorities ?? permissionsOf(role)).includes('VIEW_ALL_ACCOUNTS'),
  } as SessionUser;
  return { headers, user };
}

/**
 * The list benchmarks' measurement: the list through the real HTTP API (`url` with `headers`) against the bare
 * driver queries that fetch the same page, count and facets (the list engine's aggregates sent straight from the
 * driver, then the page's rows by `_id`), checked to give the same rows first; prints both and their ratio.
 */
export async function compareListToBare(o: {
  url: string;
  headers: Record<string, string>;
  coll: Collection;
  resource: ListResource;
  query: ListQuery;
  scope: Record<string, unknown>;
  requests: number;
  concurrency: number;
  describe: (first: { totalElements: number }, aggregates: number) => string;
  target: string;
  /** the database name: wait for the collection's index-ordered index, then also time paging (pages 1-20) */
  orderedDb?: string;
}) {
  const sort = {
    [o.query.sort.path]: o.query.sort.order === 'asc' ? 1 : -1,
    _id: o.query.sort.order === 'asc' ? 1 : -1,
  } as Record<string, 1 | -1>;
  let hint: string | undefined;
  if (o.orderedDb) {
    const from = Date.now();
    while (!(hint = orderedHint(o.orderedDb, o.coll.collectionName, sort)) && Date.now() - from < 300_000)
      await new Promise((r) => setTimeout(r, 200));
    console.log(
      `[bench] index-ordered index for this sort: ${hint ?? 'NOT READY (pages sort their matches)'} (waited ${((Date.now() - from) / 1000).toFixed(1)} s)`,
    );
  }
  const first = await (await fetch(o.url, { headers: o.headers })).json();
  const { defs, aggregates } = listAggregates(o.resource, o.query, o.scope, o.query.facets, true);
  const answersOf = () => Promise.all(aggregates.map((a) => o.coll.aggregate(a.pipeline).toArray()));
  const got = listAnswer(defs, aggregates, await answersOf());
  if (got.total !== first.totalElements || got.pageIds.join() !== first.content.map((r: any) => r.id).join())
    throw new Error(`the bare queries differ from the API: ${got.total} vs ${first.totalElements} rows`);
  const bare = async () => {
    const { pageIds } = listAnswer(defs, aggregates, await answersOf());
    await o.coll.find({ _id: { $in: pageIds as any[] } }, { projection: { outbox: 0 } }).toArray();
  };
  const api = async () => {
    const res = await fetch(o.url, { headers: o.headers });
    if (!res.ok) throw new Error(`list failed: ${res.status} ${await res.text()}`);
    await res.json();
  };
  console.log(`[bench] ${o.describe(first, aggregates.length)}`);
  await api();
  await bare();
  const a = await run(o.requests, o.concurrency, api);
  console.log(`[bench] API, concurrency ${o.concurrency}, ${o.requests} requests: ${fmt(a)}`);
  const b = await run(o.requests, o.concurrency, bare);
  console.log(`[bench] bare driver queries, same page/count/facets: ${fmt(b)}`);
  console.log(
    `[bench] ratio API/bare: p50 ${(a.p50 / b.p50).toFixed(2)}x, p95 ${(a.p95 / b.p95).toFixed(2)}x (${o.target})`,
  );
  if (!o.orderedDb) return;
  // paging through the list while its counts are kept: the API reads the page alone (hinted when the list is
  // large); the bare side is the driver's same find
  const pages = 20;
  const match = buildMatch(o.resource, o.query, o.scope);
  await api(); // counts the question again after the bare run (its kept counts expired)
  let n = 0;
  const paging = await run(o.requests, o.concurrency, async () => {
    const u = new URL(o.url);
    u.searchParams.set('page', String(n++ % pages));
    const res = await fetch(u, { headers: o.headers });
    if (!res.ok) throw new Error(`list failed: ${res.status}`);
    await res.json();
  });
  n = 0;
  const pagingBare = await run(o.requests, o.concurrency, async () => {
    const f = o.coll
      .find(match, { projection: { outbox: 0 } })
      .sort(sort)
      .skip((n++ % pages) * o.query.perPage)
      .limit(o.query.perPage);
    await (hint ? f.hint(hint) : f).toArray();
  });
  console.log(`[bench] API, pages 1-${pages} in turn (counts kept): ${fmt(paging)}`);
  console.log(`[bench] bare, the same pages' find${hint ? ' (hinted)' : ''}: ${fmt(pagingBare)}`);
  console.log(
    `[bench] ratio API/bare (paging): p50 ${(paging.p50 / pagingBare.p50).toFixed(2)}x, p95 ${(paging.p95 / pagingBare.p95).toFixed(2)}x`,
  );
}

/**
 * A list benchmark's run (scripts/bench-billing-list.ts, scripts/bench-tests-list.ts): `--requests` (default 100)
 * at `--concurrency` (default 10) as the demo user of `--role` (default administrator), on the benchmark's own
 * server. `prepare` readies the list's collection (e.g. seeds it), which is then counted (`counted` sees the
 * total); then the list at `path` with `query` is compared to the bare queries in the user's data scope
 * (compareListToBare, the user's demo login handed to `describe`; with `ordered`, paging is timed too).
 */
export async function benchList(o: {
  collection: string;
  /** what the collection holds, for the log */
  noun: string;
  prepare?: (system: System, coll: ReturnType<Connection['collection']>) => Promise<void>;
  counted?: (total: number) => void;
  /** the list's route, from the server's root */
  path: string;
  query: Record<string, string>;
  resource: ListResource;
  scope: (user: SessionUser, query: ListQuery) => Record<string, unknown>;
  describe: (first: { totalElements: number }, aggregates: number, login: string) => string;
  target: string;
  ordered?: boolean;
}): Promise<void> {
  const requests = Number(arg('requests', '100'));
  const concurrency = Number(arg('concurrency', '10'));
  const role = `ROLE_${arg('role', 'administrator').toUpperCase()}` as Role;
  const config = benchConfig();
  const { system, base } = await startBenchServer(config);
  try {
    const coll = system.ctx.mongo.collection(o.collection);
    await o.prepare?.(system, coll);
    const total = await coll.countDocuments({});
    console.log(`[bench] database ${withoutCredentials(config.MONGO_URL)}: ${total} ${o.noun}`);
    o.counted?.(total);
    const { headers, user } = await signInSession(base, role, config.DEMO_PASSWORD);
    const query = parseListQuery(o.resource, o.query);
    await compareListToBare({
      url: `${base}${o.path}?${new URLSearchParams(o.query)}`,
      headers,
      coll: coll as never,
      resource: o.resource,
      query,
      scope: o.scope(user, query),
      requests,
      concurrency,
      describe: (first, n) => o.describe(first, n, demoLogin(role)),
      target: o.target,
      orderedDb: o.ordered ? system.ctx.mongo.db!.databaseName : undefined,
    });
  } finally {
    await system.close();
  }
}
