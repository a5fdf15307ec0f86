import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  debianComponents,
  kafkaComponents,
  mavenComponent,
  parseSha256Sums,
  pomLicences,
  storeComponents,
} from './sbom-components';

describe('the SBOM (npm run sbom)', () => {
  it('names a Maven jar by its coordinates, and each jar of a classpath once', () => {
    const jar = '/root/.m2/repository/org/apache/kafka/kafka_2.13/3.9.1/kafka_2.13-3.9.1.jar';
    expect(mavenComponent(jar)).toMatchObject({
      group: 'org.apache.kafka',
      name: 'kafka_2.13',
      version: '3.9.1',
      purl: 'pkg:maven/org.apache.kafka/kafka_2.13@3.9.1',
    });
    expect(mavenComponent('/opt/other/thing.jar')).toBeNull();
    expect(
      kafkaComponents(`${jar}:${jar}\n/r/repository/org/slf4j/slf4j-api/1.7.36/slf4j-api-1.7.36.jar`),
    ).toHaveLength(2);
  });

  it("reads a POM's licences as SPDX ids where it knows them", () => {
    const pom = `<project><licenses><license><name>The Apache License, Version 2.0</name></license>
      <license><name>Some Custom Licence</name></license></licenses></project>`;
    expect(pomLicences(pom)).toEqual([
      { license: { id: 'Apache-2.0' } },
      { license: { name: 'Some Custom Licence' } },
    ]);
    expect(pomLicences('<project/>')).toEqual([]);
  });

  it("lists the store with its versions, the vendored archives' hashes and our patches", () => {
    const store = storeComponents({
      storeScript:
        'PG_MAJOR=15\nDOCUMENTDB_VERSION="0.106-0"\nLIBBSON_VERSION="1.28.0"\nPGVECTOR_VERSION="0.8.0"\n',
      sha256sums: `${'a'.repeat(64)}  documentdb-0.106-0.tar.gz\n`,
      patches: ['one.patch'],
    });
    expect(store.map((c) => `${c.name}@${c.version}`)).toEqual([
      'documentdb@0.106-0',
      'libbson@1.28.0',
      'pgvector@0.8.0',
    ]);
    expect(store[0].hashes).toEqual([{ alg: 'SHA-256', content: 'a'.repeat(64) }]);
    expect(store[0].pedigree?.patches).toEqual([
      { type: 'unofficial', diff: { url: 'infra/documentdb/one.patch' } },
    ]);
    expect(store[1].hashes).toBeUndefined();
    expect(() => storeComponents({ storeScript: '', sha256sums: '', patches: [] })).toThrow(
      /DOCUMENTDB_VERSION/,
    );
    expect(parseSha256Sums('junk\n')).toEqual(new Map());
  });

  it('names Debian packages by purl', () => {
    expect(debianComponents('redis-server 5:7.0.15-1~deb12u1\n\n')).toEqual([
      expect.objectContaining({
        name: 'redis-server',
        purl: 'pkg:deb/debian/redis-server@5%3A7.0.15-1~deb12u1',
      }),
    ]);
  });

  it('writes a CycloneDX file of the production packages and the store, without the dev tools', () => {
    const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'sbom-')), 'bom.json');
    const printed = execFileSync('npx', ['tsx', 'scripts/sbom.ts', '--out', out], {
      cwd: path.resolve(import.meta.dirname, '..'),
      encoding: 'utf8',
    });
    expect(printed).toMatch(/\[sbom\] CycloneDX 1\.5: \d+ components/);
    const bom = JSON.parse(readFileSync(out, 'utf8'));
    expect(bom).toMatchObject({ bomFormat: 'CycloneDX', specVersion: '1.5' });
    const byName = new Map<string, { purl?: string; hashes?: unknown[]; licenses?: unknown[] }>(
      bom.components.map((c: { name: string }) => [c.name, c]),
    );
    for (const name of ['fastify', 'kafkajs', 'mongoose', 'bullmq', 'puppeteer-core', 'zod']) {
      expect(byName.get(name)?.purl, name).toMatch(new RegExp(`^pkg:npm/${name}@`));
      expect(byName.get(name)?.hashes?.length, name).toBeGreaterThan(0);
    }
    expect(byName.has('vitest')).toBe(false);
    expect(byName.get('documentdb')).toBeDefined();
    expect(byName.get('kafka_2.13')?.purl).toMatch(/^pkg:maven\/org\.apache\.kafka\/kafka_2\.13@/);
  }, 60_000);
});
