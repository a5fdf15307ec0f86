/**
 * Names of directory entries (accounts, physicians, hospital locations) by id, for labelling facet items.
 *
 * A list request with facets used to look the names up after its page, count and facets had answered: one more
 * round trip on every request, after all the others (the Patients list missed its 1.5x target at p95 because of
 * it, docs/benchmarks.md "Patients"). Names change rarely and only label a filter's choices, so they are kept
 * here for a short while (decision, docs/decisions.md "Facet labels from a short-lived name cache"): a renamed
 * account shows its new name in the facets within `ttlMs`; everything else (rows, counts, scope) stays exact.
 */
export interface NameSource {
  find(filter: object, projection: object): { lean(): { exec(): Promise<unknown> } };
}

export class NameCache {
  private readonly entries = new Map<string, { name: string | undefined; at: number }>();

  constructor(
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 50_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Names of `ids` (an id without a document maps to nothing); one query for the ids not cached or expired. */
  async names(source: NameSource, ids: string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const missing: string[] = [];
    const now = this.now();
    for (const id of new Set(ids)) {
      const hit = this.entries.get(id);
      if (hit && now - hit.at < this.ttlMs) {
        if (hit.name !== undefined) out.set(id, hit.name);
      } else missing.push(id);
    }
    if (!missing.length) return out;
    const docs = (await source
      .find({ _id: { $in: missing } }, { name: 1 })
      .lean()
      .exec()) as Array<{ _id: unknown; name?: string }>;
    const found = new Map(docs.map((d) => [String(d._id), d.name]));
    if (this.entries.size + missing.length > this.maxEntries) this.entries.clear();
    for (const id of missing) {
      const name = found.get(id);
      this.entries.set(id, { name, at: now });
      if (name !== undefined) out.set(id, name);
    }
    return out;
  }

  /** Forget ids (a rename in this process shows at once; other processes catch up within the ttl). */
  forget(...ids: string[]): void {
    for (const id of ids) this.entries.delete(id);
  }
}

const byModels = new WeakMap<object, { account: NameCache; physician: NameCache; location: NameCache }>();

/**
 * The facet-label caches of one set of reference models (one per directory: ids of different directories may
 * coincide). Routes that rename an account, provider or location forget the id here, so this process shows the new
 * name at once.
 */
export function facetNameCaches(models: object): {
  account: NameCache;
  physician: NameCache;
  location: NameCache;
} {
  let caches = byModels.get(models);
  if (!caches) {
    caches = { account: new NameCache(), physician: new NameCache(), location: new NameCache() };
    byModels.set(models, caches);
  }
  return caches;
}
