/**
 * The composition root: one process of connections (connections.ts), domain modules (domain-modules.ts), HTTP
 * areas (areas.ts) and, when WORKERS, the outbox relay, queue workers and Kafka consumers (workers.ts).
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import {
  shutdownWithin,
  configureListCounts,
  createBaseApp,
  createLogger,
  type Config,
  type DomainModule,
  type PlatformContext,
} from '@onco/platform';
import type { OutboxRelay } from '@onco/events';
import { mountAreas, mountOperatorRoutes, selectedAreas } from './areas';
import { closeConnections, openConnections, platformContext } from './connections';
import { serveConsole } from './console-static';
import { buildIndexes, createDomainModules } from './domain-modules';
import { createOutboxRelay, startWorkers } from './workers';

export interface System {
  app: FastifyInstance;
  ctx: PlatformContext;
  relay: OutboxRelay | null;
  /** the domain modules (their public calls: a test drives a module's queue or sweep by hand) */
  modules: DomainModule[];
  close(): Promise<void>;
}

/**
 * Compose one process: connections, every domain module, the areas named in SERVICES, and (when WORKERS)
 * the outbox relay, the Kafka consumers and the BullMQ workers. The default runs everything on one port.
 */
export async function buildSystem(config: Config, opts: { logger?: Logger } = {}): Promise<System> {
  const logger = opts.logger ?? createLogger(config.LOG_LEVEL);
  const areas = selectedAreas(config);
  configureListCounts({
    ttlMs: config.LIST_COUNTS_TTL_MS,
    staleMs: 2 * config.LIST_COUNTS_TTL_MS,
    minRows: config.LIST_COUNTS_MIN_ROWS,
    shared: config.LIST_COUNTS_SHARED,
  });
  const conns = await openConnections(config, logger);
  let relay: OutboxRelay | null = null;
  const ctx = platformContext(config, logger, conns, () => relay);

  const domains = createDomainModules(ctx, conns.mongo);
  const { modules } = domains;
  await buildIndexes(conns.mongo, config, logger);

  const app = await createBaseApp(ctx, domains.identity.resolver);
  await mountOperatorRoutes(app, config, conns, () => relay);
  await mountAreas(app, areas, domains);
  if (config.SERVE_CONSOLE)
    await serveConsole(app as unknown as FastifyInstance, path.resolve(process.cwd(), 'console/dist'));

  let stoppers: Array<{ stop(): Promise<void> }> = [];
  if (config.WORKERS) {
    relay = createOutboxRelay(config, conns, modules, logger);
    stoppers = await startWorkers(config, conns.queues, modules, relay);
  }

  let closed = false;
  return {
    app,
    ctx,
    relay,
    modules,
    async close() {
      if (closed) return;
      closed = true;
      // stop taking requests and finish in-flight ones, then workers and consumers, then connections, all
      // within SHUTDOWN_TIMEOUT_MS (a step hanging on a dependency that is down is given up on)
      await shutdownWithin(
        config.SHUTDOWN_TIMEOUT_MS,
        [
          { what: 'http (in-flight requests)', run: () => app.close() },
          { what: 'consumers and workers', run: () => Promise.all(stoppers.map((s) => s.stop())) },
          { what: 'queues', run: () => conns.queues.close() },
          { what: 'outbox relay', run: async () => relay?.stop() },
          {
            what: 'modules',
            run: async () => {
              for (const m of modules) await m.stop?.();
            },
          },
          { what: 'connections', run: () => closeConnections(conns), reserveMs: 1_000 },
        ],
        logger,
      );
    },
  };
}
