import { defineConfig } from 'vite';

// The console is served by the backend's single process from console/dist; `npm run dev -w console` runs a
// dev server with the API areas proxied to the backend on :8080.
const api = ['/uam', '/portal', '/oms', '/bis', '/cns', '/dxs', '/health', '/ready', '/docs'];
export default defineConfig({
  esbuild: { jsx: 'automatic' },
  server: {
    port: 5173,
    proxy: Object.fromEntries(api.map((p) => [p, { target: 'http://127.0.0.1:8080', changeOrigin: false }])),
  },
  build: { outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 2000 },
  define: {
    __BUILD_VERSION__: JSON.stringify(process.env.npm_package_version ?? '0.1.0'),
    __BUILD_TIME__: JSON.stringify(new Date().toISOString()),
  },
});
