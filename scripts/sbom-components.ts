/**
 * The parts of a CycloneDX SBOM that npm cannot list (scripts/sbom.ts): the services the product runs on, as
 * scripts/infra.sh installs them. Pure (each reader takes its inputs), so a unit test checks the shapes.
 */

export interface CdxHash {
  alg: 'SHA-256' | 'SHA-512';
  content: string;
}

export interface CdxComponent {
  'bom-ref': string;
  type: 'library' | 'application' | 'framework' | 'operating-system';
  name: string;
  version: string;
  group?: string;
  description?: string;
  purl?: string;
  scope?: 'required' | 'optional';
  hashes?: CdxHash[];
  licenses?: Array<{ license: { id: string } | { name: string } }>;
  pedigree?: { patches: Array<{ type: 'unofficial'; diff: { url: string } }> };
  properties?: Array<{ name: string; value: string }>;
  externalReferences?: Array<{ type: string; url: string }>;
}

/** One jar of a Maven classpath (a path under a Maven repository: group/artifact/version/artifact-version.jar). */
export function mavenComponent(jarPath: string): CdxComponent | null {
  const m = /\/repository\/(.+)\/([^/]+)\/([^/]+)\/\2-\3(?:-([^/]+))?\.jar$/.exec(jarPath);
  if (!m) return null;
  const [, groupPath, artifact, version, classifier] = m;
  const group = groupPath.split('/').join('.');
  const purl = `pkg:maven/${group}/${artifact}@${version}${classifier ? `?classifier=${classifier}` : ''}`;
  return { 'bom-ref': purl, type: 'library', group, name: artifact, version, purl, scope: 'required' };
}

/** The jars of Kafka's classpath file (colon- or newline-separated), each once. */
export function kafkaComponents(classpath: string): CdxComponent[] {
  const seen = new Map<string, CdxComponent>();
  for (const jar of classpath.split(/[:\n]/).map((s) => s.trim())) {
    const c = jar && mavenComponent(jar);
    if (c) seen.set(c['bom-ref'], c);
  }
  return [...seen.values()];
}

/** `SHA256SUMS` lines (`<hex>  <file>`) as a map from file name to hash. */
export function parseSha256Sums(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]{64})\s+\*?(.+)$/.exec(line.trim());
    if (m) out.set(m[2], m[1]);
  }
  return out;
}

/** A shell variable's value as assigned in a script (`NAME="value"` or `NAME=value`), or null. */
export function shellVar(script: string, name: string): string | null {
  const m = new RegExp(`^${name}="?([^"\\n]+)"?`, 'm').exec(script);
  return m ? m[1] : null;
}

export interface StoreSources {
  /** infra/documentdb/store.sh */
  storeScript: string;
  /** ../shared/vendor/SHA256SUMS */
  sha256sums: string;
  /** the patches infra/documentdb applies to DocumentDB (file names) */
  patches: string[];
}

/**
 * The store the product is built for here: DocumentDB (with this project's patches), the libbson and pgvector it
 * is built with, from the vendored archives (hashed), on PostgreSQL.
 */
export function storeComponents(src: StoreSources): CdxComponent[] {
  const sums = parseSha256Sums(src.sha256sums);
  const v = (name: string) => {
    const value = shellVar(src.storeScript, name);
    if (!value) throw new Error(`infra/documentdb/store.sh has no ${name}`);
    return value;
  };
  const archive = (file: string): Pick<CdxComponent, 'hashes' | 'properties'> => {
    const sum = sums.get(file);
    return {
      ...(sum ? { hashes: [{ alg: 'SHA-256', content: sum }] } : {}),
      properties: [{ name: 'oncotrf:source', value: `shared/vendor/${file}` }],
    };
  };
  const documentdb = v('DOCUMENTDB_VERSION');
  const libbson = v('LIBBSON_VERSION');
  const pgvector = v('PGVECTOR_VERSION');
  return [
    {
      'bom-ref': `pkg:github/documentdb/documentdb@${documentdb}`,
      type: 'application',
      group: 'documentdb',
      name: 'documentdb',
      version: documentdb,
      description:
        'The MongoDB-wire store (PostgreSQL extensions and the wire gateway), built by scripts/infra.sh',
      purl: `pkg:github/documentdb/documentdb@${documentdb}`,
      licenses: [{ license: { id: 'MIT' } }],
      ...archive(`documentdb-${documentdb}.tar.gz`),
      pedigree: {
        patches: src.patches.map((p) => ({ type: 'unofficial', diff: { url: `infra/documentdb/${p}` } })),
      },
    },
    {
      'bom-ref': `pkg:github/mongodb/mongo-c-driver@${libbson}`,
      type: 'library',
      group: 'mongodb',
      name: 'libbson',
      version: libbson,
      purl: `pkg:github/mongodb/mongo-c-driver@${libbson}`,
      licenses: [{ license: { id: 'Apache-2.0' } }],
      ...archive(`mongo-c-driver-${libbson}.tar.gz`),
    },
    {
      'bom-ref': `pkg:github/pgvector/pgvector@${pgvector}`,
      type: 'library',
      group: 'pgvector',
      name: 'pgvector',
      version: pgvector,
      purl: `pkg:github/pgvector/pgvector@${pgvector}`,
      licenses: [{ license: { id: 'PostgreSQL' } }],
      ...archive(`pgvector-${pgvector}.tar.gz`),
    },
  ];
}

/** A Debian package as installed (`dpkg-query -W -f '${Package} ${Version}\n'`): purl pkg:deb/debian. */
export function debianComponents(dpkgOutput: string): CdxComponent[] {
  return dpkgOutput
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((parts) => parts.length === 2 && parts[0] && parts[1])
    .map(([name, version]) => {
      const purl = `pkg:deb/debian/${name}@${encodeURIComponent(version)}`;
      return { 'bom-ref': purl, type: 'application', name, version, purl, scope: 'required' };
    });
}

const SPDX_BY_NAME: Array<[RegExp, string]> = [
  [/apache.*2/i, 'Apache-2.0'],
  [/^mit\b|the mit license/i, 'MIT'],
  [/bsd.*3|new bsd|revised bsd/i, 'BSD-3-Clause'],
  [/bsd.*2|simplified bsd/i, 'BSD-2-Clause'],
  [/eclipse public license.*2/i, 'EPL-2.0'],
  [/eclipse public license.*1/i, 'EPL-1.0'],
];

/** The licences a Maven POM declares (`<licenses><license><name>`), as SPDX ids where known, else by name. */
export function pomLicences(pom: string): NonNullable<CdxComponent['licenses']> {
  const block = /<licenses>([\s\S]*?)<\/licenses>/.exec(pom)?.[1] ?? '';
  return [...block.matchAll(/<name>\s*([^<]+?)\s*<\/name>/g)].map(([, name]) => {
    const id = SPDX_BY_NAME.find(([re]) => re.test(name))?.[1];
    return id ? { license: { id } } : { license: { name } };
  });
}
