import path from 'node:path';
import { existsSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * The built console (console/dist), when SERVE_CONSOLE and it has been built. Deep links (/order/123) load the
 * app; API paths keep their JSON 404s. Content-hashed bundle files are cached for a year, the rest revalidates.
 */
export async function serveConsole(app: FastifyInstance, consoleDir: string): Promise<void> {
  if (!existsSync(path.join(consoleDir, 'index.html'))) return;
  // preCompressed: the build writes .br/.gz next to each asset (console/vite.config.ts), sent when accepted
  await app.register(fastifyStatic, {
    root: consoleDir,
    serve: false,
    decorateReply: true,
    preCompressed: true,
    // set per file below (the plugin's own header would be lost when it falls back from a missing .br/.gz)
    cacheControl: false,
  });
  // deep links (/order/123) load the app; API paths keep their JSON 404s
  app.get('/*', { config: { public: true }, schema: { hide: true } }, async (req, reply) => {
    const p = req.url.split('?')[0];
    if (/^\/(uam|portal|oms|bis|cns|dxs)\/api\//.test(p)) {
      return reply.status(404).send({
        status: 404,
        code: 'NOT_FOUND',
        message: `No route ${req.method} ${p}`,
        requestId: String(req.id),
      });
    }
    const file = path.join(consoleDir, p);
    if (p !== '/' && file.startsWith(consoleDir) && existsSync(file)) {
      // content-hashed bundle files never change under their name: cached for a year; the rest revalidates
      const hashed = p.startsWith('/assets/');
      reply.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      return reply.sendFile(p.slice(1));
    }
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
  });
}
