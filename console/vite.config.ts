import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { defineConfig } from 'vite';

// The console is served by the backend's single process from console/dist; `npm run dev -w console` runs a
// dev server on :5173 with the API areas proxied to the backend on :8080 (start it with `npm run dev`).
const api = ['/uam', '/portal', '/oms', '/bis', '/cns', '/dxs', '/health', '/ready', '/docs'];
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

export default defineConfig({
  esbuild: { jsx: 'automatic' },
  server: {
    port: 5173,
    proxy: Object.fromEntries(api.map((p) => [p, { target: backend, changeOrigin: false }])),
  },
  build: { outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 2500 },
  define: {
    __BUILD_VERSION__: JSON.stringify(pkg.version),
    __BUILD_TIME__: JSON.stringify(new Date().toISOString()),
    __BUILD_ID__: JSON.stringify(process.env.BUILD_ID ?? buildId()),
    __COMPANY_EMAIL_DOMAIN__: JSON.stringify(process.env.COMPANY_EMAIL_DOMAIN ?? 'oncotrf.example.com'),
  },
});
