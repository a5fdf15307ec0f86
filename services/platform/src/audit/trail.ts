/**
 * Recording audit entries (docs/audit.md): an entry is inserted into the inbox, awaited, before the reply is sent
 * (a read) or in the same transaction as the change it describes (a change); the chainer (chain.ts) then appends
 * it to the hash chain. Who and from where come from the request being served (its AsyncLocalStorage context,
 * set by the audit plugin), or `system` outside a request (a consumer, a worker).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { ClientSession, Connection, Model } from 'mongoose';
import type {
  AuditAction,
  AuditFrom,
  AuditOutcome,
  AuditRecordType,
  AuditWho,
  AuditWhat,
} from '@onco/domain';
import { AUDIT_LIST_PATIENTS } from '@onco/domain';
import { AppError } from '../errors';
import { inTransaction, isWriteConflict } from '../transaction';
import { BOOKKEEPING_FIELDS, changedPaths, updatedPaths, withinUpdate } from './changes';
import { auditModels, type AuditModels, type InboxDoc } from './models';

export const MSG_AUDIT_UNAVAILABLE =
  'This request cannot be served right now: the audit trail cannot record it. Try again in a moment.';

/** 503 when an access cannot be recorded: it is not served unrecorded. */
export const auditUnavailable = () => new AppError(503, 'AUDIT_UNAVAILABLE', MSG_AUDIT_UNAVAILABLE);

/** Who acts and from where, for an entry. */
export interface AuditActor {
  who: AuditWho;
  from: AuditFrom;
  /** the user's accounts (an entry's onBehalfOf when the record's account is unknown) */
  accountIds: string[];
  route: string | null;
}

export const SYSTEM_ACTOR: AuditActor = {
  who: { userId: 'system', role: 'SYSTEM', name: '' },
  from: { ip: null, userAgent: null, requestId: null },
  accountIds: [],
  route: null,
};

const requests = new AsyncLocalStorage<FastifyRequest>();

/** Run `fn` (the rest of a request's hooks and its handler) with `req` as the request being served. */
export function runInRequest(req: FastifyRequest, fn: () => void): void {
  requests.run(req, fn);
}

/** The actor of a request: its signed-in user, address, user agent, request id and route. */
export function actorOfRequest(req: FastifyRequest): AuditActor {
  const user = req.user;
  const agent = req.headers['user-agent'];
  return {
    who: user
      ? {
          userId: user.id,
          role: user.role,
          name: `${user.firstName ?? ''} ${user.lastName ?? ''}`.trim(),
        }
      : { userId: 'anonymous', role: 'NONE', name: '' },
    from: {
      ip: req.ip ?? null,
      userAgent: typeof agent === 'string' ? agent.slice(0, 512) : null,
      requestId: String(req.id),
    },
    accountIds: user?.allAccounts ? [] : (user?.accountIds ?? []),
    route: req.routeOptions?.url ? `${req.method} ${req.routeOptions.url}` : null,
  };
}

/** The actor of the request being served, or `system` outside a request. */
export function currentActor(): AuditActor {
  const req = requests.getStore();
  return req ? actorOfRequest(req) : SYSTEM_ACTOR;
}

/** What an entry says beyond its actor. */
export interface AuditInput {
  what: {
    type: AuditRecordType;
    id: string | null;
    patientId?: string | null;
    /** a list read: the patients of the rows served */
    patientIds?: Array<string | null | undefined>;
  };
  action: AuditAction;
  outcome?: AuditOutcome;
  /** the record's accounts (default: the actor's) */
  accountIds?: Array<string | null | undefined>;
  changes?: string[] | null;
  status?: number | null;
  count?: number | null;
}

/** How a change describes its record, from the document after it (and before it, null for a create). */
export interface ChangeDescription<D> {
  type: AuditRecordType;
  /** the record's id, its patient and its accounts */
  subject: (doc: D) => { id: string; patientId: string | null; accountIds: Array<string | null | undefined> };
  /** the action (default: `update`, or `create` when there was no document before) */
  action?: (before: D | null, after: D) => AuditAction;
  /** fields that are bookkeeping beyond the usual (version, updatedOn, updatedBy, outbox) */
  ignore?: string[];
}

export class AuditTrail {
  readonly models: AuditModels;
  private readonly listeners = new Set<() => void>();
  /** entries waiting for the insert in flight to end (group commit, `insertBatched`) */
  private queued: Array<{ doc: InboxDoc; done: (err?: unknown) => void }> = [];
  private inserting = false;

  constructor(readonly conn: Connection) {
    this.models = auditModels(conn);
  }

  /** Called after each recorded entry (the chainer of this process takes it at once). */
  onRecorded(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The inbox document of an entry. */
  entryDoc(input: AuditInput, actor: AuditActor, when = new Date()): InboxDoc {
    const accounts = (input.accountIds ?? actor.accountIds).filter((a): a is string => !!a).map(String);
    const what: AuditWhat = {
      type: input.what.type,
      id: input.what.id == null ? null : String(input.what.id),
      patientId: input.what.patientId == null ? null : String(input.what.patientId),
    };
    if (input.what.patientIds) {
      const ids = input.what.patientIds.filter((p): p is string => !!p).map(String);
      what.patientIds = [...new Set(ids)].slice(0, AUDIT_LIST_PATIENTS);
    }
    return {
      _id: randomUUID(),
      when,
      who: actor.who,
      onBehalfOf: [...new Set(accounts)].slice(0, 50),
      what,
      action: input.action,
      outcome: input.outcome ?? 'allowed',
      from: actor.from,
      changes: input.changes ?? null,
      route: actor.route,
      status: input.status ?? null,
      count: input.count ?? null,
    };
  }

  /**
   * Record one entry, durably: resolves once the inbox holds it (with `session`, once that transaction commits).
   * The actor is the request being served unless given.
   */
  async record(
    input: AuditInput,
    opts: { actor?: AuditActor; session?: ClientSession } = {},
  ): Promise<string> {
    const doc = this.entryDoc(input, opts.actor ?? currentActor());
    if (opts.session) await this.models.Inbox.collection.insertOne(doc as never, { session: opts.session });
    else {
      // an entry that cannot be written fails the request that needed it (503 AUDIT_UNAVAILABLE)
      await this.insertBatched(doc).catch((err: unknown) => {
        throw Object.assign(auditUnavailable(), { cause: err });
      });
      this.recorded();
    }
    return doc._id;
  }

  /**
   * Group commit for reads: an entry is inserted at once when no insert is in flight; those that come while one is
   * wait for it and go together in the next insertMany (one round trip and one commit for many requests under
   * load, no wait when idle). A failed insert fails every request of its batch (some of its entries may be stored:
   * a read recorded that was then refused a reply errs on the side of the record).
   */
  private insertBatched(doc: InboxDoc): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queued.push({ doc, done: (err) => (err ? reject(err) : resolve()) });
      if (!this.inserting) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.inserting = true;
    try {
      while (this.queued.length) {
        const batch = this.queued.splice(0, 500);
        try {
          await this.models.Inbox.collection.insertMany(
            batch.map((b) => b.doc as never),
            { ordered: false },
          );
          for (const b of batch) b.done();
        } catch (err) {
          for (const b of batch) b.done(err);
        }
      }
    } finally {
      this.inserting = false;
    }
  }

  /** Tell this process's chainer that entries are waiting (after a change's transaction has committed). */
  recorded(): void {
    for (const l of this.listeners) l();
  }

  /**
   * One conditional update of one document and its audit entry, in one transaction: the document before and after
   * the update are read in it, so the entry names exactly the fields that changed. Null (nothing written, nothing
   * recorded) when the filter matched nothing. `update` is any update `findOneAndUpdate` takes (outbox events too).
   */
  async update<D extends Record<string, unknown>>(
    model: Model<any>,
    filter: Record<string, unknown>,
    update: Record<string, unknown>,
    describe: ChangeDescription<D>,
    opts: {
      /**
       * The document as the use case read it, when `filter` is conditional on its version: the transaction does not
       * read it again (one round trip less), and the entry names only the changed fields the update itself names
       * (a projection may have changed others since, without a new version).
       */
      before?: D;
    } = {},
  ): Promise<D | null> {
    const actor = currentActor();
    const res = await inTransaction(this.conn, (session) =>
      this.updateIn(session, model, filter, update, describe, { ...opts, actor }),
    );
    if (res) this.recorded();
    return res;
  }

  /**
   * `update` inside a transaction the caller runs (several documents in one transaction: its `session`): the
   * conditional update and its entry. Null (nothing written, nothing recorded) when the filter matched nothing.
   * Call `recorded()` once the transaction has committed.
   */
  async updateIn<D extends Record<string, unknown>>(
    session: ClientSession,
    model: Model<any>,
    filter: Record<string, unknown>,
    update: Record<string, unknown>,
    describe: ChangeDescription<D>,
    opts: { before?: D; actor?: AuditActor } = {},
  ): Promise<D | null> {
    const res = opts.before
      ? await updateAfter<D>(session, model, filter, update, opts.before)
      : await updateReadingBoth<D>(session, model, filter, update);
    if (!res) return null;
    const input = changeInputOf(describe, res.before, res.after);
    if (opts.before) input.changes = withinUpdate(input.changes ?? [], updatedPaths(update));
    await this.recordIn(session, [input], opts.actor);
    return res.after;
  }

  /** A new document and its audit entry (`create`, the fields it set), in one transaction. */
  async create<D extends Record<string, unknown>>(
    model: Model<any>,
    doc: Record<string, unknown>,
    describe: ChangeDescription<D>,
  ): Promise<D> {
    const actor = currentActor();
    const res = await inTransaction(this.conn, (session) =>
      this.createIn(session, model, doc, describe, { actor }),
    );
    this.recorded();
    return res;
  }

  /** `create` inside a transaction the caller runs (`session`; call `recorded()` once it has committed). */
  async createIn<D extends Record<string, unknown>>(
    session: ClientSession,
    model: Model<any>,
    doc: Record<string, unknown>,
    describe: ChangeDescription<D>,
    opts: { actor?: AuditActor } = {},
  ): Promise<D> {
    const [created] = await model.create([doc], { session });
    const after = created.toObject() as D;
    await this.recordIn(session, [changeInputOf(describe, null, after)], opts.actor);
    return after;
  }

  /**
   * Entries inside a transaction the caller runs (`session`): when they cannot be written the change is rolled back
   * (a 503 AUDIT_UNAVAILABLE); a write conflict runs the whole transaction again (inTransaction). Call `recorded()`
   * once the transaction has committed.
   */
  async recordIn(
    session: ClientSession,
    inputs: AuditInput[],
    actor: AuditActor = currentActor(),
  ): Promise<void> {
    if (!inputs.length) return;
    const docs = inputs.map((i) => this.entryDoc(i, actor));
    try {
      if (docs.length === 1) await this.models.Inbox.collection.insertOne(docs[0] as never, { session });
      else await this.models.Inbox.collection.insertMany(docs as never[], { session });
    } catch (err) {
      if (isWriteConflict(err)) throw err;
      throw Object.assign(auditUnavailable(), { cause: err });
    }
  }
}

/**
 * The entry of a change described by `describe`, from the document before (null: a create) and after it: the
 * record, its patient and accounts, the action, the names of the fields that changed (or `changes` when the
 * caller knows them better), plus `extra` names the documents do not show.
 */
export function changeInputOf<D extends Record<string, unknown>>(
  describe: ChangeDescription<D>,
  before: D | null,
  after: D,
  opts: { changes?: string[]; extra?: string[] } = {},
): AuditInput {
  const subject = describe.subject(after);
  const changed =
    opts.changes ??
    changedPaths(before, after, { ignore: [...BOOKKEEPING_FIELDS, ...(describe.ignore ?? [])] });
  return {
    what: { type: describe.type, id: subject.id, patientId: subject.patientId },
    action: describe.action?.(before, after) ?? (before ? 'update' : 'create'),
    accountIds: subject.accountIds,
    changes: [...new Set([...changed, ...(opts.extra ?? [])])].sort(),
  };
}

/**
 * One conditional update inside a transaction (`session`), with the document read before and after it (for its
 * entry's changed fields). Null (nothing written) when the filter matched nothing.
 */
export async function updateReadingBoth<D extends Record<string, unknown>>(
  session: ClientSession,
  model: Model<any>,
  filter: Record<string, unknown>,
  update: Record<string, unknown>,
): Promise<{ before: D; after: D } | null> {
  const before = await model.findOne(filter, null, { session }).lean<D>().exec();
  return before ? updateAfter(session, model, filter, update, before) : null;
}

async function updateAfter<D extends Record<string, unknown>>(
  session: ClientSession,
  model: Model<any>,
  filter: Record<string, unknown>,
  update: Record<string, unknown>,
  before: D,
): Promise<{ before: D; after: D } | null> {
  const after = await model
    .findOneAndUpdate({ ...filter, _id: before._id }, update, { returnDocument: 'after', session })
    .lean<D>()
    .exec();
  return after ? { before, after } : null;
}

const trails = new WeakMap<Connection, AuditTrail>();

/** The audit trail of a process's connection (one a connection). */
export function auditTrailOf(ctx: { mongo: Connection }): AuditTrail {
  let trail = trails.get(ctx.mongo);
  if (!trail) {
    trail = new AuditTrail(ctx.mongo);
    trails.set(ctx.mongo, trail);
  }
  return trail;
}
