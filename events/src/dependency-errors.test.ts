import { describe, expect, it } from 'vitest';
import { dependencyMessage, dependencyOf } from './dependency-errors';

const named = (name: string, message = 'x', cause?: unknown) =>
  Object.assign(new Error(message), { name, cause });

describe('a dependency away, told apart from a fault of our own', () => {
  it("names the store, Redis and Kafka from their clients' errors", () => {
    expect(dependencyOf(named('MongoServerSelectionError'))).toBe('store');
    expect(dependencyOf(named('MongoNetworkError'))).toBe('store');
    expect(dependencyOf(named('MaxRetriesPerRequestError'))).toBe('redis');
    expect(dependencyOf(new Error('Connection is closed.'))).toBe('redis');
    expect(dependencyOf(named('KafkaJSConnectionError'))).toBe('kafka');
    // the local store's gateway, PostgreSQL behind it stopping (seen in the fault drill)
    expect(dependencyOf(named('MongoServerError', 'the database system is shutting down'))).toBe('store');
  });

  it('looks through causes; anything else is not a dependency', () => {
    expect(dependencyOf(named('Error', 'job not added', named('MaxRetriesPerRequestError')))).toBe('redis');
    expect(dependencyOf(new TypeError('undefined is not a function'))).toBeNull();
    expect(dependencyOf(named('MongoServerError', 'E11000 duplicate key'))).toBeNull();
    expect(dependencyOf(null)).toBeNull();
  });

  it('says what is away and what to do', () => {
    expect(dependencyMessage('redis')).toBe(
      'The job queue (Redis) is unavailable right now. Try again in a moment.',
    );
  });
});
