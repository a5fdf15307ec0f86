/**
 * How the backend serves the built console: compressed copies (.br/.gz written by the build) to clients that
 * accept them, year-long immutable caching for content-hashed bundle files, index.html always revalidated, deep
 * links answered with the app, API paths keeping their JSON 404. Real backend, plain HTTP.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useConsole } from './harness';

const DIST = path.resolve(import.meta.dirname, '../dist');

function get(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>(
    (resolve, reject) => {
      http
        .get(url, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        })
        .on('error', reject);
    },
  );
}

describe('serving the console bundle (real backend)', () => {
  let entry = '';

  const { h } = useConsole({
    timeout: 240_000,
    seed: async () => {
      const manifest = JSON.parse(readFileSync(path.join(DIST, '.vite/manifest.json'), 'utf8'));
      entry = `/${(Object.values(manifest) as Array<{ isEntry?: boolean; file: string }>).find((m) => m.isEntry)!.file}`;
    },
  });

  it('sends the entry chunk brotli- or gzip-compressed when accepted, plain otherwise, cached as immutable', async () => {
    const plain = readFileSync(path.join(DIST, entry));
    const br = await get(h.base + entry, { 'accept-encoding': 'br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body.length).toBeLessThan(plain.length / 2);
    expect(brotliDecompressSync(br.body).equals(plain)).toBe(true);
    expect(br.headers['cache-control']).toContain('immutable');
    expect(br.headers['cache-control']).toContain('max-age=31536000');

    const gz = await get(h.base + entry, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(plain)).toBe(true);

    const raw = await get(h.base + entry);
    expect(raw.headers['content-encoding']).toBeUndefined();
    expect(raw.body.equals(plain)).toBe(true);
  });

  it('index.html and deep links revalidate; API paths keep their JSON 404', async () => {
    for (const p of ['/', '/order/abc123/summary/patient', '/orders']) {
      const res = await get(h.base + p, { 'accept-encoding': 'gzip' });
      expect(res.status, p).toBe(200);
      expect(res.headers['cache-control'], p).toBe('no-cache');
      expect(res.body.toString('utf8'), p).toContain('<div id="root">');
    }
    const api = await get(`${h.base}/portal/api/v1/noSuchThing`);
    expect(api.status).toBe(404);
    expect(JSON.parse(api.body.toString('utf8'))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});
