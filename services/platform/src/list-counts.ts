import { createHash } from 'node:crypto';
import type { mongo } from 'mongoose';
import type { Facet } from './list-query';

/** What a list answers besides its page: the total and the asked-for facets. */
export interface ListCounts {
  total: number;
  facets: Facet[];
}

export interface ListCountsPolicy {
  /** how long a large list's counts are served as they are (0: always exact) */
  ttlMs: number;
  /** after ttlMs, how much longer the old counts are served while one refresh runs beside the requests */
  staleMs: number;
  /** a list's counts are kept only when its total is at least this (smaller lists are always exact) */
  minRows: number;
  /** at most this many lists' counts kept (the oldest dropped first) */
  maxEntries: number;
  /**
   * whether kept counts are also written to the store (`list_counts`) and read from there by a process that has
   * none of its own: every server process of a deployment then shares one count of a question (a restarted or
   * added process answers a list in use at once instead of counting it again)
   */
  shared: boolean;
}

export const DEFAULT_LIST_COUNTS_POLICY: ListCountsPolicy = {
  ttlMs: 10_000,
  staleMs: 20_000,
  minRows: 10_000,
  maxEntries: 1_000,
  shared: true,
};

interface Entry {
  /** when the computation started (a computation started earlier never replaces one started later) */
  started: number;
  /** when the counts were in (their age runs from here) */
  at: number;
  value: ListCounts;
}

/**
 * The counts decision (issue 11; docs/decisions.md "List totals and facet counts"): a list's page is always
 * read from the store, exact and current; its total and facet counts, which cost work proportional to every
 * matching row on any store (MongoDB included), are kept for a short while once the list is large
 * (`minRows`), per question (collection, match incl. the user's scope and filters, facets). Within `ttlMs` they
 * are served as kept; up to `staleMs` later they are still served while a single refresh runs beside the
 * requests; after that a request waits for fresh ones. Requests asking the same question at the same time share
 * one computation. Small lists are never kept, so what a person just changed shows in their counts at once.
 */
export class ListCountsCache {
  private entries = new Map<string, Entry>();
  private running = new Map<string, Promise<ListCounts>>();
  /** questions whose last counts were large enough to keep: only those share a computation in flight */
  private large = new Set<string>();
  /** questions whose last counts were too small to keep: not looked for in the shared copy */
  private small = new Set<string>();

  constructor(
    public policy: ListCountsPolicy = DEFAULT_LIST_COUNTS_POLICY,
    private now: () => number = Date.now,
  ) {}

  /** Kept counts of `key` young enough to serve; `refresh` when past ttlMs (the caller starts one). */
  peek(key: string): { value: ListCounts; refresh: boolean } | undefined {
    if (this.policy.ttlMs <= 0) return undefined;
    const e = this.entries.get(key);
    if (!e) return undefined;
    const age = this.now() - e.at;
    if (age < this.policy.ttlMs) return { value: e.value, refresh: false };
    if (age < this.policy.ttlMs + this.policy.staleMs) return { value: e.value, refresh: true };
    this.entries.delete(key);
    return undefined;
  }

  /**
   * Keep counts just computed (only a large list's; the oldest entry goes when full). True when they are kept
   * (then they are worth sharing).
   */
  keep(key: string, value: ListCounts, startedAt: number, at: number = this.now()): boolean {
    if (this.policy.ttlMs <= 0 || value.total < this.policy.minRows) {
      this.entries.delete(key);
      this.large.delete(key);
      remember(this.small, key, 4 * this.policy.maxEntries);
      return false;
    }
    // most recently large last; bounded (a question's counts expire, its size is remembered a while longer)
    this.small.delete(key);
    remember(this.large, key, 4 * this.policy.maxEntries);
    const prev = this.entries.get(key);
    if (prev && prev.started > startedAt) return false; // a later computation already answered
    this.put(key, { started: startedAt, at, value });
    return true;
  }

  /** Store an entry as the most recent one; the oldest goes when full. */
  private put(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.policy.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
      this.large.delete(oldest);
    }
  }

  /**
   * Counts of `key` read from the shared copy (counted by any process at `at`): kept here as if counted here,
   * when they are young enough and the list is large by this process's policy. Answers as `peek` would.
   */
  adopt(key: string, value: ListCounts, at: number): { value: ListCounts; refresh: boolean } | undefined {
    if (this.policy.ttlMs <= 0 || value.total < this.policy.minRows) return undefined;
    const prev = this.entries.get(key);
    if (!prev || prev.at < at) {
      this.small.delete(key);
      remember(this.large, key, 4 * this.policy.maxEntries);
      this.put(key, { started: at, at, value });
    }
    return this.peek(key);
  }

  /** Whether the shared copy is worth asking for `key`'s counts (not when its last count here was small). */
  mayShare(key: string): boolean {
    return this.policy.shared && this.policy.ttlMs > 0 && !this.small.has(key);
  }

  /** Compute `key`'s counts once for all concurrent callers (a refresh), keeping them per the policy. */
  compute(
    key: string,
    run: () => Promise<ListCounts>,
    onKept?: (value: ListCounts, at: number) => void,
  ): Promise<ListCounts> {
    return this.running.get(key) ?? this.own(key, run, (v) => v, onKept);
  }

  /**
   * Run a computation that answers `key`'s counts among other things (the caller's own page, say), always in
   * this call; it is what `pending` hands to other requests meanwhile, and its counts are kept per the policy
   * (and handed to `onKept` when kept: the shared copy).
   */
  own<R>(
    key: string,
    run: () => Promise<R>,
    countsOf: (r: R) => ListCounts,
    onKept?: (value: ListCounts, at: number) => void,
  ): Promise<R> {
    const startedAt = this.now();
    let shared: Promise<ListCounts> | undefined;
    const settle = () => {
      if (shared && this.running.get(key) === shared) this.running.delete(key);
    };
    const p = run().then(
      (r) => {
        settle();
        const value = countsOf(r);
        // the age of counts runs from when they are in: a count slower than the TTL (a million rows under
        // load) is still served, instead of being out of date before anyone could use it
        const at = this.now();
        if (this.keep(key, value, startedAt, at)) onKept?.(value, at);
        return r;
      },
      (err) => {
        settle();
        throw err;
      },
    );
    if (!this.running.has(key)) {
      shared = p.then(countsOf);
      shared.catch(() => undefined); // a waiter gets the failure; nobody waiting is not an unhandled rejection
      this.running.set(key, shared);
    }
    return p;
  }

  /**
   * The computation of a large list's counts in flight, which a request may wait for instead of counting again.
   * A small list's never: its request counts itself, so it sees a write made just before it.
   */
  pending(key: string): Promise<ListCounts> | undefined {
    return this.large.has(key) ? this.running.get(key) : undefined;
  }

  clear(): void {
    this.entries.clear();
    this.large.clear();
    this.small.clear();
  }
}

/** Add `key` to a bounded set as its most recent member (the oldest dropped beyond `max`). */
function remember(set: Set<string>, key: string, max: number): void {
  set.delete(key);
  set.add(key);
  while (set.size > max) set.delete(set.values().next().value as string);
}

/** The one cache of this process (configured at start from LIST_COUNTS_TTL_MS and LIST_COUNTS_MIN_ROWS). */
export const listCountsCache = new ListCountsCache();

export function configureListCounts(p: Partial<ListCountsPolicy>): void {
  listCountsCache.policy = { ...listCountsCache.policy, ...p };
  listCountsCache.clear();
}

/** A stable key of a list question (RegExps and Dates spelled out, so different searches never share). */
export function countsKey(collection: string, parts: unknown): string {
  return `${collection}|${JSON.stringify(parts, (_k, v) =>
    v instanceof RegExp ? { $re: v.source, $flags: v.flags } : v,
  )}`;
}

/**
 * The counts every server process shares (`ListCountsPolicy.shared`): one document per large question in the
 * collection `list_counts` of the list's own database, `_id` the SHA-256 of its key (the key itself, which holds the
 * user's search, is not stored), written after each count
 * that is kept (only if newer than what is there) and read by a process with no counts of its own for that
 * question. Each document expires (TTL index on `expiresAt`) once no process would serve it any more. A store
 * that cannot be read or written only costs the process its own count: errors never reach the list.
 */
export class SharedListCounts {
  private indexed = false;

  constructor(private db: mongo.Db) {}

  private get collection() {
    return this.db.collection<SharedCountsDoc>('list_counts');
  }

  async get(key: string): Promise<{ value: ListCounts; at: number } | undefined> {
    const doc = await this.collection.findOne({ _id: sharedId(key) });
    if (!doc) return undefined;
    return { value: { total: doc.total, facets: doc.facets }, at: doc.at.getTime() };
  }

  async put(key: string, value: ListCounts, at: number, keepMs: number): Promise<void> {
    if (!this.indexed) {
      this.indexed = true;
      await this.collection
        .createIndex({ expiresAt: 1 }, { name: 'expiresAt_ttl', expireAfterSeconds: 0 })
        .catch(() => (this.indexed = false));
    }
    const _id = sharedId(key);
    const doc = {
      total: value.total,
      facets: value.facets,
      at: new Date(at),
      expiresAt: new Date(at + keepMs),
    };
    try {
      // only over an older count: a slower count started earlier never replaces a newer one
      await this.collection.updateOne({ _id, at: { $lt: doc.at } }, { $set: doc }, { upsert: true });
    } catch (err) {
      // the upsert of a question another process has just counted more recently: theirs stays
      if ((err as { code?: number }).code !== 11000) throw err;
    }
  }
}

interface SharedCountsDoc {
  _id: string;
  total: number;
  facets: Facet[];
  at: Date;
  expiresAt: Date;
}

const sharedId = (key: string) => createHash('sha256').update(key).digest('base64url');

const sharedByDb = new WeakMap<mongo.Db, SharedListCounts>();

/** The shared counts of a database (one per connection's database). */
export function sharedListCounts(db: mongo.Db): SharedListCounts {
  let s = sharedByDb.get(db);
  if (!s) sharedByDb.set(db, (s = new SharedListCounts(db)));
  return s;
}
