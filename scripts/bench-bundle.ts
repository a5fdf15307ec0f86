/**
 * Benchmark: the console's bundle size, compressed, for the first load and for each route's lazy screen.
 *
 *   npm run bench:bundle                 # builds the console (production), then measures console/dist
 *   npm run bench:bundle -- --no-build   # measures the current console/dist
 *
 * First load = index.html + the entry chunk + every chunk it imports statically + its CSS: what a browser fetches
 * before the login page or any screen shows. A route adds its lazy screen's chunk and the chunks that one imports
 * which the first load does not already have (routes and their screens are read from console/src/App.tsx; the
 * chunks from Vite's manifest). Sizes: raw, gzip (level 9) and brotli (quality 11), the files the backend serves
 * (console/vite.config.ts writes them; @fastify/static sends them to browsers that accept them). The largest
 * packages of the first load come from the build's bundle-packages.json (rendered bytes before minification).
 * Prints figures; not a test. Figures go to docs/benchmarks.md.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const ROOT = path.resolve(import.meta.dirname, '..');
const DIST = path.join(ROOT, 'console/dist');

interface Chunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

interface Size {
  raw: number;
  gzip: number;
  brotli: number;
}

function sizeOf(file: string): Size {
  const p = path.join(DIST, file);
  const data = readFileSync(p);
  const gz = existsSync(`${p}.gz`) ? readFileSync(`${p}.gz`).length : gzipSync(data, { level: 9 }).length;
  const br = existsSync(`${p}.br`)
    ? readFileSync(`${p}.br`).length
    : brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  return { raw: data.length, gzip: gz, brotli: br };
}

const add = (a: Size, b: Size): Size => ({
  raw: a.raw + b.raw,
  gzip: a.gzip + b.gzip,
  brotli: a.brotli + b.brotli,
});
const ZERO: Size = { raw: 0, gzip: 0, brotli: 0 };
const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;

/** Every file a manifest key brings with it through static imports (and their CSS). */
function closure(manifest: Record<string, Chunk>, key: string, seen = new Set<string>()): Set<string> {
  const c = manifest[key];
  if (!c) return seen;
  if (!seen.has(c.file)) {
    seen.add(c.file);
    for (const css of c.css ?? []) seen.add(css);
    for (const i of c.imports ?? []) closure(manifest, i, seen);
  }
  return seen;
}

/** Route path -> the lazy module it renders, read from App.tsx (`const X = screen(() => import('./y'))`). */
function routesOfApp(): Array<{ route: string; src: string }> {
  const app = readFileSync(path.join(ROOT, 'console/src/App.tsx'), 'utf8');
  const screens = new Map<string, string>();
  for (const m of app.matchAll(/const (\w+) = screen\(\(\) => import\('\.\/([^']+)'\)\)/g)) {
    screens.set(m[1], `src/${m[2]}`);
  }
  const out: Array<{ route: string; src: string }> = [];
  for (const m of app.matchAll(/path: '([^']+)',[^}]*?element: <(\w+) \/>/g)) {
    const src = screens.get(m[2]);
    if (src) out.push({ route: m[1], src });
  }
  if (screens.has('HomePage')) out.unshift({ route: '/', src: screens.get('HomePage')! });
  return out;
}

function main() {
  if (!process.argv.includes('--no-build')) {
    console.log('[bundle] building the console (production)...');
    execFileSync('npm', ['run', 'build', '-w', 'console', '--silent'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, NODE_ENV: 'production' },
    });
  }
  const manifestFile = path.join(DIST, '.vite/manifest.json');
  if (!existsSync(manifestFile))
    throw new Error('console/dist/.vite/manifest.json missing: build the console');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, Chunk>;
  const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry)!;
  const first = closure(manifest, entryKey);
  first.add('index.html');
  const firstSize = [...first].map(sizeOf).reduce(add, ZERO);

  console.log(`\nConsole bundle (console/dist, ${new Date().toISOString().slice(0, 10)})`);
  console.log(
    `  first load: ${first.size} files, ${kb(firstSize.raw)} raw, ${kb(firstSize.gzip)} gzip, ${kb(firstSize.brotli)} brotli`,
  );
  for (const f of [...first].sort()) {
    const s = sizeOf(f);
    console.log(
      `    ${f.padEnd(44)} ${kb(s.raw).padStart(10)} ${kb(s.gzip).padStart(10)} gzip ${kb(s.brotli).padStart(10)} br`,
    );
  }

  console.log('\n  per route (added to the first load when the route is opened the first time):');
  const bySrc = new Map<string, string[]>();
  for (const { route, src } of routesOfApp()) bySrc.set(src, [...(bySrc.get(src) ?? []), route]);
  for (const [src, routes] of bySrc) {
    const key = [src, `${src}/index.tsx`, `${src}.tsx`, `${src}/index.ts`].find((k) => manifest[k]);
    if (!key) throw new Error(`no chunk for ${src} in the manifest`);
    const files = [...closure(manifest, key)].filter((f) => !first.has(f));
    const s = files.map(sizeOf).reduce(add, ZERO);
    console.log(
      `    ${routes.join(', ').padEnd(56)} +${kb(s.gzip).padStart(9)} gzip  +${kb(s.brotli).padStart(9)} br  (${files.length} files, ${kb(s.raw)} raw; ${src})`,
    );
  }

  const packagesFile = path.join(DIST, '.vite/bundle-packages.json');
  if (existsSync(packagesFile)) {
    const byChunk = JSON.parse(readFileSync(packagesFile, 'utf8')) as Record<string, Record<string, number>>;
    const totals: Record<string, number> = {};
    for (const f of first)
      for (const [pkg, n] of Object.entries(byChunk[f] ?? {})) totals[pkg] = (totals[pkg] ?? 0) + n;
    const all = Object.values(totals).reduce((a, b) => a + b, 0);
    console.log('\n  largest parts of the first load (rendered bytes before minification):');
    for (const [pkg, n] of Object.entries(totals)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12)) {
      console.log(`    ${pkg.padEnd(28)} ${kb(n).padStart(10)}  ${((n / all) * 100).toFixed(1)}%`);
    }
  }
}

main();
