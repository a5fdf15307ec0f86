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
}

export const DEFAULT_LIST_COUNTS_POLICY: ListCountsPolicy = {
  ttlMs: 10_000,
  staleMs: 20_000,
  minRows: 10_000,
  maxEntries: 1_000,
};

interface Entry {
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

  /** Keep counts just computed (only a large list's; the oldest entry goes when full). */
  keep(key: string, value: ListCounts, startedAt: number): void {
    if (this.policy.ttlMs <= 0 || value.total < this.policy.minRows) {
      this.entries.delete(key);
      this.large.delete(key);
      return;
    }
    // most recently large last; bounded (a question's counts expire, its size is remembered a while longer)
    this.large.delete(key);
    this.large.add(key);
    while (this.large.size > 4 * this.policy.maxEntries)
      this.large.delete(this.large.values().next().value as string);
    const prev = this.entries.get(key);
    if (prev && prev.at > startedAt) return; // a later computation already answered
    this.entries.delete(key);
    this.entries.set(key, { at: startedAt, value });
    while (this.entries.size > this.policy.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
      this.large.delete(oldest);
    }
  }

  /** Compute `key`'s counts once for all concurrent callers (a refresh), keeping them per the policy. */
  compute(key: string, run: () => Promise<ListCounts>): Promise<ListCounts> {
    return this.running.get(key) ?? this.own(key, run, (v) => v);
  }

  /**
   * Run a computation that answers `key`'s counts among other things (the caller's own page, say), always in
   * this call; it is what `pending` hands to other requests meanwhile, and its counts are kept per the policy.
   */
  own<R>(key: string, run: () => Promise<R>, countsOf: (r: R) => ListCounts): Promise<R> {
    const startedAt = this.now();
    let shared: Promise<ListCounts> | undefined;
    const settle = () => {
      if (shared && this.running.get(key) === shared) this.running.delete(key);
    };
    const p = run().then(
      (r) => {
        settle();
        this.keep(key, countsOf(r), startedAt);
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
  }
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
