import { randomUUID, timingSafeEqual } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { DEV_BILLING_GATEWAY_TOKEN } from '@onco/platform';
import { registerStandinDocuments, type StoredDocument } from './gateway-standin-documents';
import { loadFeed, loadStoredClaims, persistClaim, persistFeedEntry } from './gateway-standin-store';

/**
 * The billing gateway stand-in: a small HTTP server that plays the external billing system for development,
 * demos and tests, speaking the contract of docs/billing-gateway.md. It runs as its own process
 * (`npx tsx services/billing/src/submission/gateway-main.ts --port 8090`) or inside a test
 * (`startGatewayStandin`). Nothing in the submission worker knows it is a stand-in.
 *
 * - `POST /claims` with an `Idempotency-Key` header and the claim: a final answer is stored under the key (in
 *   memory and as one JSON file per key in `dir`, written before the answer is sent) and the same key always
 *   gets the stored answer back (`replayed: true`), never a second stored claim. The first claim under a key wins.
 *   Transient failures (payor down, 500) store nothing, as a real idempotent API does not keep failures.
 * - The answer is chosen by the billing code's prefix (case-insensitive): `ACC` accepted, `PAR` partially
 *   accepted, `REJ` rejected, `DUP` duplicate accession, `UNA` update not allowed (these four with error
 *   details), `PDN` 503 payor system down, `SLOW` stored as accepted but the first answer comes after `slowMs`,
 *   `E500` a 500, `FAIL<n>-<rest>` the first n posts of a key answer 503 payor down and then `<rest>` decides;
 *   any other code is accepted.
 * - `GET /claims` lists what it holds; `GET /claims/:key` one claim with how many posts its key received.
 * - The status feed: `POST /claims/:key/status` `{status, errors?, note?}` plays the billing system changing a
 *   stored claim's status later (paid, denied, ...): it appends an entry (a unique id, the next sequence number) to
 *   the feed, kept as one JSON file per entry under `dir/feed` (written before the answer, read back at start, so
 *   the numbering goes on after a restart). `GET /feed?after=<seq>&limit=<n>` pages through it in sequence order and
 *   requires `Authorization: Bearer <token>` (401 without it).
 * - The claims' documents: `POST /claims/:key/documents` (gateway-standin-documents.ts).
 */

export type FinalStatus =
  'ACCEPTED' | 'PARTIALLY_ACCEPTED' | 'REJECTED' | 'DUPLICATE_ACCESSION' | 'UPDATE_NOT_ALLOWED';

export interface GatewayError {
  code: string;
  message: string;
}

export interface GatewayAnswer {
  key: string;
  status: FinalStatus;
  claimNumber: string;
  errors: GatewayError[];
  receivedOn: string;
}

export interface StoredClaim {
  key: string;
  receivedOn: string;
  claim: Record<string, unknown>;
  answer: GatewayAnswer;
}

/** One entry of the status feed: a later status of a stored claim. */
export interface FeedEntry {
  /** unique across the feed: what the platform applies exactly once */
  id: string;
  /** 1, 2, 3, ... in the order the entries were made; the poller's cursor */
  seq: number;
  /** the claim's Idempotency-Key, `{caseId}:{generation}` */
  key: string;
  claimNumber: string;
  /** any status word; the billing system's are PAID, DENIED, CORRECTED, ON_HOLD, DUPLICATE */
  status: string;
  errors: GatewayError[];
  note: string | null;
  reportedOn: string;
}

export interface GatewayStandinOptions {
  /** 0 (default): any free port */
  port?: number;
  host?: string;
  /** where the claims are kept, one JSON file per idempotency key (created if missing); the feed in `dir/feed` */
  dir: string;
  /** how long a SLOW claim's first answer waits (default 30 s) */
  slowMs?: number;
  /** the bearer token `GET /feed` requires (default: BILLING_GATEWAY_TOKEN's development default) */
  token?: string;
  logger?: boolean;
}

export interface GatewayStandin {
  app: FastifyInstance;
  url: string;
  port: number;
  /** the claims held, oldest first */
  claims(): StoredClaim[];
  /** how many POSTs a key received (stored or not) since start */
  posts(key: string): number;
  /** while down, every POST answers 503 with status UNAVAILABLE and stores nothing */
  setDown(down: boolean): void;
  /** claims being answered now, and the most at once since start (what a client's concurrency looks like) */
  inFlight(): { now: number; max: number };
  /** the status feed, in sequence order */
  feed(): FeedEntry[];
  /** the claims' documents taken, and how many POSTs a document key received */
  documents(): StoredDocument[];
  documentPosts(key: string): number;
  /** the next `n` document POSTs answer 503 */
  failDocuments(n: number): void;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Rule =
  | { kind: 'final'; status: FinalStatus; errors: GatewayError[]; slow?: boolean }
  | { kind: 'payor-down' }
  | { kind: 'error500' };

/** The answer a billing code asks for, on the n-th post (1-based) of its key. */
function ruleFor(billingCode: string, post: number): Rule {
  let code = billingCode.trim().toUpperCase();
  const fail = /^FAIL(\d+)-(.*)$/.exec(code);
  if (fail) {
    if (post <= Number(fail[1])) return { kind: 'payor-down' };
    code = fail[2];
  }
  const err = (c: string, message: string) => [{ code: c, message }];
  if (code.startsWith('SLOW')) return { kind: 'final', status: 'ACCEPTED', errors: [], slow: true };
  if (code.startsWith('E500')) return { kind: 'error500' };
  if (code.startsWith('PDN')) return { kind: 'payor-down' };
  if (code.startsWith('PAR'))
    return {
      kind: 'final',
      status: 'PARTIALLY_ACCEPTED',
      errors: err('PAR-101', `Line 2: billing code ${billingCode} accepted without the secondary procedure`),
    };
  if (code.startsWith('REJ'))
    return {
      kind: 'final',
      status: 'REJECTED',
      errors: err('REJ-201', `Billing code ${billingCode} is not payable for this payor`),
    };
  if (code.startsWith('DUP'))
    return {
      kind: 'final',
      status: 'DUPLICATE_ACCESSION',
      errors: err('DUP-301', 'An accession with this test number already exists'),
    };
  if (code.startsWith('UNA'))
    return {
      kind: 'final',
      status: 'UPDATE_NOT_ALLOWED',
      errors: err('UNA-401', 'The accession is closed; updates are not allowed'),
    };
  return { kind: 'final', status: 'ACCEPTED', errors: [] };
}

const FEED_STATUS = /^[A-Z][A-Z_]{0,39}$/;
const FEED_PAGE_MAX = 500;

/** The body of `POST /claims/:key/status`, or what is wrong with it. */
function readStatusChange(
  body: unknown,
): { status: string; errors: GatewayError[]; note: string | null } | { problem: string } {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  if (typeof b.status !== 'string' || !FEED_STATUS.test(b.status))
    return { problem: 'status is required: an upper-case word such as PAID, DENIED, CORRECTED, ON_HOLD' };
  const errors = b.errors ?? [];
  if (
    !Array.isArray(errors) ||
    errors.length > 50 ||
    !errors.every(
      (e: { code?: unknown; message?: unknown }) =>
        e &&
        typeof e.code === 'string' &&
        e.code.length >= 1 &&
        e.code.length <= 100 &&
        typeof e.message === 'string' &&
        e.message.length <= 2000,
    )
  )
    return { problem: 'errors must be at most 50 of {code, message}' };
  const note = b.note ?? null;
  if (note !== null && (typeof note !== 'string' || note.length > 2000))
    return { problem: 'note must be text of at most 2000 characters' };
  return {
    status: b.status,
    errors: (errors as GatewayError[]).map((e) => ({ code: e.code, message: e.message })),
    note,
  };
}

/** Whether an Authorization header carries `Bearer <token>` (compared in constant time). */
function bearerMatches(header: string | undefined, token: string) {
  const m = /^Bearer (.+)$/.exec(header ?? '');
  if (!m) return false;
  const given = Buffer.from(m[1]);
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}

export async function startGatewayStandin(opts: GatewayStandinOptions): Promise<GatewayStandin> {
  const dir = path.resolve(opts.dir);
  const feedDir = path.join(dir, 'feed');
  const slowMs = opts.slowMs ?? 30_000;
  const token = opts.token ?? DEV_BILLING_GATEWAY_TOKEN;
  await mkdir(feedDir, { recursive: true });

  // what was stored before a restart
  const stored = await loadStoredClaims(dir);
  const feed = await loadFeed(feedDir);
  // entries are appended one at a time: an entry is numbered once the one before it is on disk and in the feed,
  // so a reader never sees seq n+1 before n (a poller's cursor past n would miss it for good)
  let appending: Promise<unknown> = Promise.resolve();
  const posts = new Map<string, number>();
  // keys whose first answer is being prepared: a concurrent post of the same key waits for it
  const pending = new Map<string, Promise<void>>();
  let down = false;

  // close() ends idle keep-alive connections at once instead of waiting out their timeout (72 s)
  const app = Fastify({
    logger: opts.logger ?? false,
    bodyLimit: 1024 * 1024,
    forceCloseConnections: 'idle',
  });

  app.get('/health', async () => ({ status: 'UP' }));
  const documents = await registerStandinDocuments(app, {
    dir,
    billingCodeOf: (key) => {
      const c = stored.get(key);
      return c ? String(c.claim.billingCode ?? '') : null;
    },
    isDown: () => down,
  });

  app.get('/claims', async () => {
    const content = [...stored.values()].map((c) => ({ ...c, posts: posts.get(c.key) ?? 0 }));
    return { content, totalElements: content.length };
  });

  app.get<{ Params: { key: string } }>('/claims/:key', async (req, reply) => {
    const c = stored.get(req.params.key);
    if (!c) return reply.status(404).send({ status: 404, message: `No claim under ${req.params.key}` });
    return { ...c, posts: posts.get(c.key) ?? 0 };
  });

  app.post<{ Params: { key: string } }>('/claims/:key/status', async (req, reply) => {
    const claim = stored.get(req.params.key);
    if (!claim) return reply.status(404).send({ status: 404, message: `No claim under ${req.params.key}` });
    const change = readStatusChange(req.body);
    if ('problem' in change)
      return reply
        .status(400)
        .send({ status: 'INVALID', errors: [{ code: 'STATUS', message: change.problem }] });
    const add = appending.then(async () => {
      const entry: FeedEntry = {
        id: randomUUID(),
        seq: (feed.at(-1)?.seq ?? 0) + 1,
        key: claim.key,
        claimNumber: claim.answer.claimNumber,
        ...change,
        reportedOn: new Date().toISOString(),
      };
      await persistFeedEntry(feedDir, entry);
      feed.push(entry);
      return entry;
    });
    appending = add.catch(() => undefined);
    return reply.status(201).send(await add);
  });

  app.get<{ Querystring: { after?: string; limit?: string } }>('/feed', async (req, reply) => {
    if (!bearerMatches(req.headers.authorization, token))
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer')
        .send({ status: 401, message: 'A valid bearer token is required' });
    const after = Number(req.query.after ?? 0);
    const limit = Number(req.query.limit ?? 100);
    if (
      !Number.isSafeInteger(after) ||
      after < 0 ||
      !Number.isSafeInteger(limit) ||
      limit < 1 ||
      limit > FEED_PAGE_MAX
    )
      return reply.status(400).send({
        status: 'INVALID',
        errors: [{ code: 'PAGE', message: `after must be a sequence number, limit 1 to ${FEED_PAGE_MAX}` }],
      });
    const from = feed.findIndex((e) => e.seq > after);
    const entries = from < 0 ? [] : feed.slice(from, from + limit);
    return {
      entries,
      lastSeq: entries.at(-1)?.seq ?? after,
      hasMore: from >= 0 && from + limit < feed.length,
    };
  });

  let inFlight = 0;
  let maxInFlight = 0;
  app.addHook('onRequest', async (req, reply) => {
    if (req.method !== 'POST' || req.url !== '/claims') return;
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    // once, whether answered or the client went away
    reply.raw.once('close', () => (inFlight -= 1));
  });

  app.post<{ Body: Record<string, unknown> }>('/claims', async (req, reply) => {
    const key = req.headers['idempotency-key'];
    if (typeof key !== 'string' || !key.trim() || key.length > 200)
      return reply.status(400).send({
        status: 'INVALID',
        errors: [{ code: 'KEY', message: 'The Idempotency-Key header is required (1 to 200 characters)' }],
      });
    const claim = req.body;
    const billingCode = claim && typeof claim === 'object' ? claim.billingCode : undefined;
    if (typeof billingCode !== 'string' || !billingCode.trim())
      return reply.status(400).send({
        status: 'INVALID',
        errors: [{ code: 'BILLING_CODE', message: 'billingCode is required' }],
      });
    const n = (posts.get(key) ?? 0) + 1;
    posts.set(key, n);
    if (down)
      return reply.status(503).send({
        status: 'UNAVAILABLE',
        errors: [{ code: 'DOWN', message: 'The billing system is unavailable' }],
      });

    while (pending.has(key)) await pending.get(key);
    const known = stored.get(key);
    if (known) return { ...known.answer, replayed: true };

    const rule = ruleFor(billingCode, n);
    if (rule.kind === 'payor-down')
      return reply.status(503).send({
        status: 'PAYOR_SYSTEM_DOWN',
        errors: [{ code: 'PDN-501', message: 'The payor system is down; try again later' }],
      });
    if (rule.kind === 'error500')
      return reply.status(500).send({
        status: 'ERROR',
        errors: [{ code: 'E500', message: 'Internal error in the billing system' }],
      });

    let done!: () => void;
    pending.set(key, new Promise<void>((r) => (done = r)));
    try {
      const receivedOn = new Date().toISOString();
      const answer: GatewayAnswer = {
        key,
        status: rule.status,
        claimNumber: `CLM-${String(stored.size + 1).padStart(7, '0')}`,
        errors: rule.errors,
        receivedOn,
      };
      const record: StoredClaim = { key, receivedOn, claim, answer };
      await persistClaim(dir, record);
      stored.set(key, record);
    } finally {
      pending.delete(key);
      done();
    }
    if (rule.slow) await sleep(slowMs);
    return { ...stored.get(key)!.answer, replayed: false };
  });

  const address = await app.listen({ port: opts.port ?? 0, host: opts.host ?? '127.0.0.1' });
  const port = Number(new URL(address).port);
  return {
    app,
    url: `http://${opts.host ?? '127.0.0.1'}:${port}`,
    port,
    claims: () => [...stored.values()],
    posts: (key) => posts.get(key) ?? 0,
    setDown: (d) => void (down = d),
    inFlight: () => ({ now: inFlight, max: maxInFlight }),
    feed: () => [...feed],
    documents: () => documents.documents(),
    documentPosts: (key) => documents.posts(key),
    failDocuments: (n) => documents.failNext(n),
    close: () => app.close(),
  };
}
