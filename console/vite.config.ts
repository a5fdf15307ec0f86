import { execSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

// The console is served by the backend's single process from console/dist; `npm run dev -w console` runs a
// dev server on :5173 with the API areas proxied to the backend on :8080 (start it with `npm run dev`).
const api = ['/uam', '/portal', '/oms', '/bis', '/cns', '/dxs', '/health', '/ready', '/docs', '/operations'];
const backend = process.env.CONSOLE_BACKEND ?? 'http://127.0.0.1:8080';

function buildId(): string {
  try {
    return execSync('git rev-parse --short HEAD', { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return 'local';
  }
}
const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/**
 * Writes a .gz and a .br next to every text asset over 1 kB once the bundle is written: the backend serves them
 * (@fastify/static preCompressed) to browsers that accept them, so the console's first load travels compressed
 * without compressing on every request.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'onco-precompress',
    apply: 'build',
    configResolved(c) {
      outDir = path.resolve(c.root, c.build.outDir);
    },
    // what each chunk is made of, by package (rendered bytes before compression), for scripts/bench-bundle.ts
    generateBundle(_options, bundle) {
      const byChunk: Record<string, Record<string, number>> = {};
      for (const out of Object.values(bundle)) {
        if (out.type !== 'chunk') continue;
        const parts: Record<string, number> = {};
        for (const [id, m] of Object.entries(out.modules)) {
          const pkg =
            /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(id)?.[1] ??
            (id.includes('/services/') ? `services/${id.split('/services/')[1].split('/')[0]}` : 'console');
          parts[pkg] = (parts[pkg] ?? 0) + m.renderedLength;
        }
        byChunk[out.fileName] = parts;
      }
      this.emitFile({
        type: 'asset',
        fileName: '.vite/bundle-packages.json',
        source: JSON.stringify(byChunk, null, 1),
      });
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
          e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
        );
      for (const file of walk(outDir)) {
        if (!/\.(js|css|html|svg|json|txt|map)$/.test(file) || statSync(file).size < 1024) continue;
        const data = readFileSync(file);
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
      }
    },
  };
}

export default defineConfig({
  esbuild: { jsx: 'automatic' },
  plugins: [precompress()],
  server: {
    port: 5173,
    proxy: Object.fromEntries(api.map((p) => [p, { target: backend, changeOrigin: false }])),
  },
  // the manifest maps each route's lazy module to its chunks (scripts/bench-bundle.ts reads it)
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 2500,
    manifest: true,
    rollupOptions: {
      // MUI and react-query mark modules "use client" (a React Server Components hint, meaningless here)
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        // zod's comments Rollup cannot place (zod is parsed, then tree-shaken out of the console entirely)
        if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('node_modules')) return;
        warn(warning);
      },
    },
  },
  define: {
    __BUILD_VERSION__: JSON.stringify(pkg.version),
    __BUILD_TIME__: JSON.stringify(new Date().toISOString()),
    __BUILD_ID__: JSON.stringify(process.env.BUILD_ID ?? buildId()),
    __COMPANY_EMAIL_DOMAIN__: JSON.stringify(process.env.COMPANY_EMAIL_DOMAIN ?? 'oncotrf.example.com'),
  },
});
