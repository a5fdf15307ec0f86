/**
 * A request that failed because a service the platform runs on is away (the store, Redis, Kafka), told apart from
 * a fault of the platform's own: it is answered 503 naming the dependency, so a client (and the fault drill) knows
 * to try again shortly, instead of a 500 that says nothing. docs/decisions.md "A dependency away is a 503".
 */
export type Dependency = 'store' | 'redis' | 'kafka';

const STORE_ERRORS = new Set([
  'MongoServerSelectionError',
  'MongooseServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoNotConnectedError',
  'MongoPoolClearedError',
  'MongoTopologyClosedError',
  'MongoServerClosedError',
]);

/**
 * What the local store's gateway (DocumentDB) answers while PostgreSQL behind it stops, starts or is away: a
 * MongoServerError carrying PostgreSQL's words. MongoDB itself answers these cases with the network errors above.
 */
const STORE_AWAY =
  /database system is (shutting down|starting up|in recovery mode|not yet accepting connections)|terminating connection|connection refused|could not connect|error connecting|server closed the connection|no connection to the server/i;

/** What the dependency is called in the message a person reads. */
export const DEPENDENCY_NAMES: Record<Dependency, string> = {
  store: 'The database',
  redis: 'The job queue (Redis)',
  kafka: 'The event broker (Kafka)',
};

export const dependencyMessage = (d: Dependency) =>
  `${DEPENDENCY_NAMES[d]} is unavailable right now. Try again in a moment.`;

/** The dependency an error says is away, or null for any other error (looked at through its causes too). */
export function dependencyOf(err: unknown, depth = 0): Dependency | null {
  if (!err || typeof err !== 'object' || depth > 4) return null;
  const e = err as { name?: string; message?: string; cause?: unknown; errorLabels?: unknown };
  const name = String(e.name ?? '');
  const message = String(e.message ?? '');
  if (STORE_ERRORS.has(name)) return 'store';
  if (name === 'MongoServerError' && STORE_AWAY.test(message)) return 'store';
  if (name === 'MaxRetriesPerRequestError') return 'redis';
  if (
    /^(Connection is closed\.|Stream isn't writeable and enableOfflineQueue options is false)/.test(message)
  )
    return 'redis';
  if (name.startsWith('KafkaJS')) return 'kafka';
  return dependencyOf(e.cause, depth + 1);
}
