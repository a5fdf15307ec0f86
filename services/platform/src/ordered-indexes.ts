import type { Connection } from 'mongoose';
import type { Logger } from 'pino';
import { connectMongo } from './connections';
import { mongoUrlWithDb } from './config';

/**
 * Indexes a large list reads its pages from in order (newest first), so a page of 15 costs 15 index entries
 * instead of a sort of every matching row (issue 11; docs/decisions.md "List totals and facet counts" and
 * infra/README.md "Index-ordered pages").
 *
 * On MongoDB they are ordinary indexes. On the local store (DocumentDB 0.106) an index is read in order only
 * when it was built by DocumentDB's extended RUM with `enableOrderedIndex`, which its gateway allows to the
 * ordered-index login alone (store.sh STORE_ORDERED_USER: `<user>_ordered`; unique indexes cannot be built
 * with it, so the app's own login cannot have it). `ensureOrderedIndexes` builds each declared index once, in
 * the background at start, and a list asks `orderedHint` whether one is ready for its sort.
 */
export type IndexKey = Record<string, 1 | -1>;

const declared = new Map<string, IndexKey[]>();
const ready = new Map<string, Array<{ key: IndexKey; name: string }>>();

/** Declare an ordered index of a collection (next to the model's other indexes). */
export function declareOrderedIndex(collection: string, key: IndexKey): void {
  const list = declared.get(collection) ?? [];
  if (!list.some((k) => indexName(k) === indexName(key))) list.push(key);
  declared.set(collection, list);
}

export const indexName = (key: IndexKey) =>
  Object.entries(key)
    .map(([k, v]) => `${k}_${v}`)
    .join('_');

/**
 * The ordered index to hint for this sort on this collection, once it is built: the sort must be its keys in
 * its directions (the store reads it forwards only).
 */
export function orderedHint(db: string, collection: string, sort: IndexKey): string | undefined {
  const want = JSON.stringify(Object.entries(sort));
  return ready.get(`${db}.${collection}`)?.find((i) => JSON.stringify(Object.entries(i.key)) === want)?.name;
}

/** MONGO_ORDERED_URL, else MONGO_URL's login with `_ordered` added and the same password (store.sh). */
export function orderedUrlOf(mongoUrl: string, explicit?: string): string {
  if (explicit) return explicit;
  const u = new URL(mongoUrl);
  u.username = `${decodeURIComponent(u.username)}_ordered`;
  if (!u.searchParams.has('authSource')) u.searchParams.set('authSource', 'admin');
  return u.toString();
}

/**
 * Build every declared ordered index of the collections this connection has models for (missing ones only).
 * Never throws: a store without the ordered-index login gets ordinary indexes on the same keys (pages then
 * sort their matches, as before), and says so in the log.
 */
export async function ensureOrderedIndexes(
  mongo: Connection,
  opts: { mongoUrl: string; orderedUrl?: string; logger: Logger },
): Promise<void> {
  const db = mongo.db!;
  const collections = new Set(Object.values(mongo.models).map((m) => m.collection.collectionName));
  const todo = [...declared].filter(([c]) => collections.has(c));
  if (!todo.length) return;
  let ordered: Connection | undefined;
  try {
    const info = await db.admin().command({ buildInfo: 1 });
    const mongodb = info.gitVersion !== undefined; // MongoDB reports it; DocumentDB's gateway does not
    if (!mongodb) {
      ordered = await connectMongo(
        orderedUrlOf(mongoUrlWithDb(opts.mongoUrl, db.databaseName), opts.orderedUrl),
      ).catch((err: Error) => {
        opts.logger.warn(
          { err: err.message },
          'ordered indexes: the store has no ordered-index login (build the store as r4: scripts/infra.sh up; ' +
            'or set MONGO_ORDERED_URL); large lists sort their matches instead',
        );
        return undefined;
      });
    }
    for (const [collection, keys] of todo) {
      const existing = await db
        .collection(collection)
        .indexes()
        .catch(() => [] as Array<Record<string, any>>);
      for (const key of keys) {
        const name = indexName(key);
        const found = existing.find((i) => i.name === name);
        const isOrdered = mongodb || Boolean(found?.enableCompositeTerm || found?.enableOrderedIndex);
        if (found && !isOrdered && ordered) {
          // built before the store could order it: built again by the ordered-index login
          await db.collection(collection).dropIndex(name);
        }
        if (!found || (!isOrdered && ordered)) {
          const started = Date.now();
          if (ordered) {
            await ordered.db!.command({
              createIndexes: collection,
              indexes: [{ key, name, enableOrderedIndex: true }],
            });
          } else {
            await db.collection(collection).createIndex(key, { name });
          }
          opts.logger.info(
            { collection, index: name, ordered: Boolean(ordered) || mongodb, ms: Date.now() - started },
            'ordered indexes: built',
          );
        }
        if (mongodb || ordered || isOrdered) {
          const list = ready.get(`${db.databaseName}.${collection}`) ?? [];
          list.push({ key, name });
          ready.set(`${db.databaseName}.${collection}`, list);
        }
      }
    }
  } catch (err) {
    opts.logger.warn(
      { err: (err as Error).message },
      'ordered indexes: not built; large lists sort their matches',
    );
  } finally {
    await ordered?.close().catch(() => undefined);
  }
}
