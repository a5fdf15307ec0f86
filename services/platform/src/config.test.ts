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
  it('TRUST_PROXY: loopback by default; true, false, or a list of addresses, subnets and names; no hop count', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe('loopback');
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    // a hop count cannot check who the nearest peer is: refused, not silently trusted
    expect(() => loadConfig({ TRUST_PROXY: '2' })).toThrow(/TRUST_PROXY/);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::1' }).TRUST_PROXY).toBe(
      'loopback, 10.0.0.0/8,fd00::1',
    );
    expect(() => loadConfig({ TRUST_PROXY: 'my-proxy.local' })).toThrow(/TRUST_PROXY.*my-proxy\.local/s);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/8/1' })).toThrow(/TRUST_PROXY/);
  });
  it('refuses demo logins and the development secret in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DEMO_MODE: 'false' })).toThrow(/TOKEN_SECRET/);
    expect(() => loadConfig({ NODE_ENV: 'production', TOKEN_SECRET: 's'.repeat(40) })).toThrow(/DEMO_MODE/);
    expect(
      loadConfig({ NODE_ENV: 'production', TOKEN_SECRET: 's'.repeat(40), DEMO_MODE: 'false' }).DEMO_MODE,
    ).toBe(false);
  });
});
