import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';

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

export interface GatewayStandinOptions {
  /** 0 (default): any free port */
  port?: number;
  host?: string;
  /** where the claims are kept, one JSON file per idempotency key (created if missing) */
  dir: string;
  /** how long a SLOW claim's first answer waits (default 30 s) */
  slowMs?: number;
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
  close(): Promise<void>;
}

const fileOf = (dir: string, key: string) => path.join(dir, `${encodeURIComponent(key)}.json`);

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

/** The claims stored in `dir` (before a restart), by key. */
async function loadStoredClaims(dir: string): Promise<Map<string, StoredClaim>> {
  const stored = new Map<string, StoredClaim>();
  for (const f of (await readdir(dir)).filter((n) => n.endsWith('.json')).sort()) {
    try {
      const c = JSON.parse(await readFile(path.join(dir, f), 'utf8')) as StoredClaim;
      if (c?.key) stored.set(c.key, c);
    } catch {
      // a torn file of a crash before its rename never exists (write then rename); ignore stray files
    }
  }
  return stored;
}

/** Store a claim as its key's JSON file in `dir` (written, then renamed into place). */
async function persistClaim(dir: string, c: StoredClaim) {
  const file = fileOf(dir, c.key);
  const tmp = `${file}.${randomUUID()}.tmp`;
  await writeFile(tmp, JSON.stringify(c, null, 2));
  await rename(tmp, file);
}

export async function startGatewayStandin(opts: GatewayStandinOptions): Promise<GatewayStandin> {
  const dir = path.resolve(opts.dir);
  const slowMs = opts.slowMs ?? 30_000;
  await mkdir(dir, { recursive: true });

  // what was stored before a restart
  const stored = await loadStoredClaims(dir);
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

  app.get('/claims', async () => {
    const content = [...stored.values()].map((c) => ({ ...c, posts: posts.get(c.key) ?? 0 }));
    return { content, totalElements: content.length };
  });

  app.get<{ Params: { key: string } }>('/claims/:key', async (req, reply) => {
    const c = stored.get(req.params.key);
    if (!c) return reply.status(404).send({ status: 404, message: `No claim under ${req.params.key}` });
    return { ...c, posts: posts.get(c.key) ?? 0 };
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
    close: () => app.close(),
  };
}
