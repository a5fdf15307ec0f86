import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

describe('config', () => {
  it('has defaults for local use', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(8080);
    expect(c.KAFKA_BROKERS).toEqual(['127.0.0.1:9092']);
    expect(c.WORKERS).toBe(true);
  });
  it('parses values and names a bad variable', () => {
    expect(loadConfig({ PORT: '9000', KAFKA_BROKERS: 'a:1, b:2', WORKERS: 'false' })).toMatchObject({
      PORT: 9000,
      KAFKA_BROKERS: ['a:1', 'b:2'],
      WORKERS: false,
    });
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ MONGO_URL: 'not a url' })).toThrow(/MONGO_URL/);
  });
  it('refuses demo logins and the development secret in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DEMO_MODE: 'false' })).toThrow(/TOKEN_SECRET/);
    expect(() => loadConfig({ NODE_ENV: 'production', TOKEN_SECRET: 's'.repeat(40) })).toThrow(/DEMO_MODE/);
    expect(
      loadConfig({ NODE_ENV: 'production', TOKEN_SECRET: 's'.repeat(40), DEMO_MODE: 'false' }).DEMO_MODE,
    ).toBe(false);
  });
});
