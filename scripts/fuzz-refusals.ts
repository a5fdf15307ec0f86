/**
 * "A refused request changes nothing", watched from inside the fuzz run's server (scripts/fuzz.ts): every store
 * command is attributed to the HTTP request whose handling issued it (AsyncLocalStorage entered in an onRequest
 * hook; the driver's command events fire in the caller's async context), and when a write request (POST, PUT,
 * PATCH, DELETE) is answered 4xx, each write it made that changed a document (matched or inserted, in a
 * transaction that was not aborted) is a finding. Allowed: what a refusal must write by design (a wrong password
 * counted toward the lockout on the user; the audit trail of a refused request).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';
import type { Connection } from 'mongoose';

interface Write {
  collection: string;
  command: string;
  changed: number;
  txn: string | null;
}

interface RequestWrites {
  method: string;
  url: string;
  auth: string;
  writes: Write[];
  aborted: Set<string>;
}

export interface RefusalFinding {
  auth: string;
  method: string;
  url: string;
  status: number;
  writes: string[];
}

const WRITE_COMMANDS = new Set(['insert', 'update', 'delete', 'findAndModify']);

/** Writes a refusal makes by design: the lockout counter of a wrong password, the audit trail. */
function allowed(req: RequestWrites, w: Write): boolean {
  if (/audit/i.test(w.collection)) return true;
  const path = req.url.split('?')[0];
  const password = path.endsWith('/authenticate') || path.endsWith('/sign') || path.endsWith('/credentials');
  return password && w.collection === 'users';
}

/** How many documents a successful write command changed, from its reply. */
function changedBy(command: string, reply: Record<string, any>): number {
  if (command === 'insert') return Number(reply.n ?? 0);
  if (command === 'delete') return Number(reply.n ?? 0);
  if (command === 'update') return Number(reply.nModified ?? 0) + (reply.upserted?.length ?? 0);
  if (command === 'findAndModify') {
    const e = reply.lastErrorObject ?? {};
    return e.n && (e.updatedExisting || e.upserted || reply.value) ? Number(e.n) : 0;
  }
  return 0;
}

/**
 * Watch the app's requests and the connection's commands (its URL must say `monitorCommands=true`). Call before
 * the app is ready. `findings` fills as refusals that wrote come in.
 */
export function watchRefusals(app: FastifyInstance, mongo: Connection) {
  const als = new AsyncLocalStorage<RequestWrites>();
  const started = new Map<
    number,
    { req: RequestWrites; collection: string; command: string; txn: string | null }
  >();
  const findings: RefusalFinding[] = [];
  const ofRequest = new WeakMap<object, RequestWrites>();
  let writesChecked = 0;
  app.addHook('onRequest', (req, _reply, done) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return done();
    const store: RequestWrites = {
      method: req.method,
      url: req.url,
      auth: String(req.headers.authorization ?? ''),
      writes: [],
      aborted: new Set(),
    };
    ofRequest.set(req, store);
    als.run(store, done);
  });
  app.addHook('onResponse', async (req, reply) => {
    const store = ofRequest.get(req);
    if (!store) return;
    writesChecked++;
    if (reply.statusCode < 400 || reply.statusCode >= 500) return;
    // a write's reply may still be on its way when the response is sent: give the driver a turn
    await new Promise((r) => setImmediate(r));
    const bad = store.writes.filter(
      (w) => w.changed > 0 && !(w.txn && store.aborted.has(w.txn)) && !allowed(store, w),
    );
    if (bad.length)
      findings.push({
        auth: store.auth,
        method: store.method,
        url: store.url,
        status: reply.statusCode,
        writes: bad.map((w) => `${w.command} ${w.collection}: ${w.changed} changed`),
      });
  });
  const client = mongo.getClient();
  client.on('commandStarted', (e) => {
    const req = als.getStore();
    if (!req) return;
    const body = e.command as Record<string, any>;
    const txn =
      body.txnNumber !== undefined ? `${JSON.stringify(body.lsid)}:${String(body.txnNumber)}` : null;
    if (e.commandName === 'abortTransaction' && txn) req.aborted.add(txn);
    if (!WRITE_COMMANDS.has(e.commandName)) return;
    started.set(e.requestId, { req, collection: String(body[e.commandName]), command: e.commandName, txn });
  });
  client.on('commandSucceeded', (e) => {
    const s = started.get(e.requestId);
    if (!s) return;
    started.delete(e.requestId);
    s.req.writes.push({
      collection: s.collection,
      command: s.command,
      changed: changedBy(s.command, e.reply as Record<string, any>),
      txn: s.txn,
    });
  });
  client.on('commandFailed', (e) => started.delete(e.requestId));
  return {
    findings,
    /** write requests seen so far */
    get writesChecked() {
      return writesChecked;
    },
  };
}
