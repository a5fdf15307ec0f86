/**
 * `npm run sbom [-- --out FILE] [-- --dev]`: a CycloneDX 1.5 SBOM of the product (docs/sbom.md).
 *
 * - The npm packages the product runs with, from the lock file, by npm's own `npm sbom` (names, versions, purls,
 *   licences, integrity hashes, the dependency graph); `--dev` keeps the build and test tools too.
 * - The services it runs on as scripts/infra.sh installs them here: Kafka's jars (from the installed classpath),
 *   the store (DocumentDB with this project's patches, libbson and pgvector, hashed from the vendored archives) and
 *   the Debian packages it takes (PostgreSQL, Redis, Chromium, Java), each with its installed version.
 *
 * Writes the file (default .data/sbom/oncotrf.cdx.json) and prints what it holds.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  debianComponents,
  kafkaComponents,
  pomLicences,
  storeComponents,
  type CdxComponent,
} from './sbom-components';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const outArg = args.indexOf('--out');
const out = path.resolve(outArg >= 0 ? args[outArg + 1] : path.join(root, '.data/sbom/oncotrf.cdx.json'));
const dev = args.includes('--dev');

/** The Debian packages the infrastructure installs and runs (scripts/infra.sh, infra/documentdb/store.sh). */
const DEBIAN_PACKAGES = [
  'postgresql-15',
  'postgresql-15-cron',
  'postgresql-15-postgis-3',
  'postgresql-15-rum',
  'redis-server',
  'chromium-headless-shell',
  'poppler-utils',
  'default-jre-headless',
];

const started = Date.now();
const npmArgs = ['sbom', '--sbom-format', 'cyclonedx', '--sbom-type', 'application'];
if (!dev) npmArgs.push('--omit', 'dev');
const bom = JSON.parse(
  execFileSync('npm', npmArgs, { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 }),
) as { metadata: Record<string, unknown>; components: CdxComponent[]; [k: string]: unknown };
const npmCount = bom.components.length;

const added: Record<string, CdxComponent[]> = {};
const kafkaVersion = /^KAFKA_VERSION="([^"]+)"/m.exec(
  readFileSync(path.join(root, 'scripts/infra.sh'), 'utf8'),
)?.[1];
const classpath = path.join(root, `.data/tools/kafka-${kafkaVersion}/classpath.txt`);
added.kafka = existsSync(classpath) ? kafkaComponents(readFileSync(classpath, 'utf8')) : [];
if (existsSync(classpath))
  for (const jar of readFileSync(classpath, 'utf8').split(/[:\n]/)) {
    // each jar's licence from the POM beside it in the Maven repository
    const pom = jar.trim().replace(/\.jar$/, '.pom');
    const c = added.kafka.find((k) => jar.includes(`/${k.name}/${k.version}/`));
    if (c && !c.licenses && existsSync(pom)) {
      const licences = pomLicences(readFileSync(pom, 'utf8'));
      if (licences.length) c.licenses = licences;
    }
  }
if (!added.kafka.length && kafkaVersion)
  // not installed here: Kafka itself, without its dependencies
  added.kafka = kafkaComponents(
    `/repository/org/apache/kafka/kafka_2.13/${kafkaVersion}/kafka_2.13-${kafkaVersion}.jar`,
  );

const vendor = path.resolve(root, '../shared/vendor');
added.store = storeComponents({
  storeScript: readFileSync(path.join(root, 'infra/documentdb/store.sh'), 'utf8'),
  sha256sums: existsSync(path.join(vendor, 'SHA256SUMS'))
    ? readFileSync(path.join(vendor, 'SHA256SUMS'), 'utf8')
    : '',
  patches: readdirSync(path.join(root, 'infra/documentdb'))
    .filter((f) => f.endsWith('.patch'))
    .sort(),
});

let dpkg = '';
try {
  dpkg = execFileSync('dpkg-query', ['-W', '-f', '${Package} ${Version}\\n', ...DEBIAN_PACKAGES], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
} catch (err) {
  // dpkg-query exits 1 when some are not installed, and still prints the others
  dpkg = String((err as { stdout?: string }).stdout ?? '');
}
added.debian = debianComponents(dpkg);

const runtime = [...added.kafka, ...added.store, ...added.debian];
bom.components.push(...runtime);
bom.metadata.properties = [
  { name: 'oncotrf:npm-scope', value: dev ? 'all (with dev)' : 'production (npm --omit dev)' },
  { name: 'oncotrf:runtime', value: 'scripts/infra.sh (local services)' },
];

mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(bom, null, 2)}\n`);
const withoutLicence = bom.components.filter((c) => !c.licenses?.length).length;
console.log(
  `[sbom] CycloneDX ${String(bom.specVersion)}: ${bom.components.length} components in ${path.relative(process.cwd(), out)}`,
);
console.log(`[sbom]   npm packages${dev ? ' (with dev)' : ''}  ${npmCount}`);
console.log(
  `[sbom]   Kafka jars     ${added.kafka.length}${existsSync(classpath) ? '' : ' (Kafka not installed here: Kafka alone)'}`,
);
console.log(
  `[sbom]   the store      ${added.store.length} (DocumentDB with ${added.store[0].pedigree?.patches.length ?? 0} patches, libbson, pgvector)`,
);
console.log(
  `[sbom]   Debian packages ${added.debian.length} of ${DEBIAN_PACKAGES.length} (the others not installed here)`,
);
console.log(`[sbom]   without a licence: ${withoutLicence}; ${Date.now() - started} ms`);
