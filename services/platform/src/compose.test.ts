import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { configSchema, loadConfig } from './config';

/**
 * docker-compose.yml must stay in step with the configuration the app reads:
 * every variable given to the app is one config.ts knows, and the connection
 * URLs point at the compose services on ports those services expose.
 */

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

interface ComposeService {
  image?: string;
  build?: string | { context?: string; dockerfile?: string };
  environment?: Record<string, string | number | boolean | null> | string[];
  ports?: (string | number | { target: number; published?: string | number })[];
  expose?: (string | number)[];
  depends_on?: string[] | Record<string, unknown>;
}

const compose = parse(readFileSync(`${repoRoot}docker-compose.yml`, 'utf8')) as {
  services: Record<string, ComposeService>;
};
const services = compose.services ?? {};
const app = services.app ?? {};

/** The app's environment as a map (compose allows a map or a list of KEY=VALUE). */
function environmentOf(svc: ComposeService): Record<string, string> {
  const env = svc.environment ?? {};
  const out: Record<string, string> = {};
  if (Array.isArray(env)) {
    for (const entry of env) {
      const i = entry.indexOf('=');
      out[i < 0 ? entry : entry.slice(0, i)] = i < 0 ? '' : entry.slice(i + 1);
    }
  } else {
    for (const [k, v] of Object.entries(env)) out[k] = v == null ? '' : String(v);
  }
  return out;
}

/** What compose would use when the variable is not set: ${X:-default} -> default. */
function withComposeDefaults(value: string): string {
  return value.replace(
    /\$\{[A-Za-z_][A-Za-z0-9_]*(?::?-([^}]*))?\}/g,
    (_m, d: string | undefined) => d ?? '',
  );
}

/** Container-side ports of a service: `expose` plus the target of each `ports` entry. */
function containerPorts(svc: ComposeService): number[] {
  const ports = new Set<number>();
  for (const p of svc.expose ?? []) ports.add(Number(String(p).split('/')[0]));
  for (const p of svc.ports ?? []) {
    if (typeof p === 'object') ports.add(Number(p.target));
    else ports.add(Number(String(p).split('/')[0].split(':').pop()));
  }
  return [...ports];
}

/** Host-side (published) ports of a service, by container port. */
function publishedPorts(svc: ComposeService): Map<number, number> {
  const out = new Map<number, number>();
  for (const p of svc.ports ?? []) {
    if (typeof p === 'object') {
      if (p.published !== undefined) out.set(Number(p.target), Number(p.published));
      continue;
    }
    const parts = String(p).split('/')[0].split(':');
    if (parts.length >= 2) out.set(Number(parts[parts.length - 1]), Number(parts[parts.length - 2]));
  }
  return out;
}

function hostPort(url: string, defaultPort: number): { host: string; port: number } {
  const withoutScheme = url.replace(/^[a-z+]+:\/\//i, '');
  const authority = withoutScheme.split(/[/?]/)[0].split(',')[0].split('@').pop() ?? '';
  const [host, port] = authority.split(':');
  return { host, port: port ? Number(port) : defaultPort };
}

function dependsOn(svc: ComposeService): string[] {
  const d = svc.depends_on ?? [];
  return Array.isArray(d) ? d : Object.keys(d);
}

describe('docker-compose.yml', () => {
  const env = environmentOf(app);

  it('defines mongo, kafka, redis and app', () => {
    expect(Object.keys(services)).toEqual(expect.arrayContaining(['mongo', 'kafka', 'redis', 'app']));
  });

  it('gives the app only variables that config.ts reads', () => {
    const known = Object.keys(configSchema.shape);
    const unknown = Object.keys(env).filter((k) => !known.includes(k));
    expect(unknown).toEqual([]);
    for (const key of [
      'PORT',
      'HOST',
      'MONGO_URL',
      'KAFKA_BROKERS',
      'REDIS_URL',
      'CHROMIUM_PATH',
      'NODE_ENV',
    ]) {
      expect(env, key).toHaveProperty(key);
    }
  });

  it('gives the app values that config.ts accepts (with the compose defaults)', () => {
    const resolved = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, withComposeDefaults(v)]));
    expect(() => loadConfig(resolved)).not.toThrow();
    // listening on the container's loopback only would make the published port useless
    expect(resolved.HOST).toBe('0.0.0.0');
  });

  it('points MONGO_URL, KAFKA_BROKERS and REDIS_URL at the compose services and their ports', () => {
    const cases: [string, string, number][] = [
      ['MONGO_URL', 'mongo', 27017],
      ['KAFKA_BROKERS', 'kafka', 9092],
      ['REDIS_URL', 'redis', 6379],
    ];
    for (const [key, service, defaultPort] of cases) {
      const { host, port } = hostPort(withComposeDefaults(env[key] ?? ''), defaultPort);
      expect(host, key).toBe(service);
      expect(containerPorts(services[service] ?? {}), `${key}: port ${port} exposed by ${service}`).toContain(
        port,
      );
    }
    expect(env.MONGO_URL).toMatch(/[?&]replicaSet=\w+/);
  });

  it('publishes the port the app listens on', () => {
    const port = Number(withComposeDefaults(env.PORT ?? ''));
    expect(port).toBeGreaterThan(0);
    expect(containerPorts(app)).toContain(port);
    expect(publishedPorts(app).get(port)).toBe(8080);
  });

  it('starts the app after mongo, kafka and redis', () => {
    expect(dependsOn(app)).toEqual(expect.arrayContaining(['mongo', 'kafka', 'redis']));
  });

  it('builds the app from infra/Dockerfile', () => {
    const build = typeof app.build === 'string' ? { context: app.build } : (app.build ?? {});
    const dockerfile = `${repoRoot}${build.context && build.context !== '.' ? `${build.context}/` : ''}${build.dockerfile ?? 'Dockerfile'}`;
    expect(build.dockerfile).toBe('infra/Dockerfile');
    expect(existsSync(dockerfile)).toBe(true);
    expect(readFileSync(dockerfile, 'utf8')).toMatch(/CMD \["node", "dist\/server\.mjs"\]/);
  });
});
