import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import {
  configureListCounts,
  ensureOrderedIndexes,
  AREAS,
  FileBlobStore,
  QueueRegistry,
  connectMongo,
  createBaseApp,
  createKafka,
  createLogger,
  createMailer,
  createRedis,
  type AreaName,
  type Config,
  type DomainModule,
  type PlatformContext,
} from '@onco/platform';
import { createIdentity, uamArea, portalIdentityRoutes } from '@onco/identity';
import { OutboxRelay } from '@onco/events';
import { createReferenceModule } from '@onco/reference';
import { createRequisitionsModule } from '@onco/requisitions';
import { createLabModule } from '@onco/lab';
import { createBillingModule } from '@onco/billing';
import { createMessagesModule } from '@onco/messages';
import { dashboardRoutes } from './dashboard';
import { queueBoard } from './queue-board';
import { healthRoutes } from './health';
import { serveConsole } from './console-static';

export interface System {
  app: FastifyInstance;
  ctx: PlatformContext;
  relay: OutboxRelay | null;
  close(): Promise<void>;
}

function selectedAreas(config: Config): AreaName[] {
  if (config.SERVICES === 'all') return Object.keys(AREAS) as AreaName[];
  if (config.SERVICES === 'none') return [];
  const names = config.SERVICES.split(',').map((s) => s.trim()) as AreaName[];
  for (const n of names)
    if (!(n in AREAS))
      throw new Error(
        `Invalid configuration:\n  SERVICES: unknown area "${n}" (use all or ${Object.keys(AREAS).join(',')})`,
      );
  return names;
}

/** The modules whose consumers and queue workers run in this process (WORKER_MODULES). */
function workerModules(config: Config, modules: DomainModule[]): DomainModule[] {
  if (config.WORKER_MODULES === 'all') return modules;
  const names = config.WORKER_MODULES.split(',').map((s) => s.trim());
  const known = modules.map((m) => m.name);
  for (const n of names)
    if (!known.includes(n))
      throw new Error(
        `Invalid configuration:\n  WORKER_MODULES: unknown domain "${n}" (use all or ${known.join(',')})`,
      );
  return modules.filter((m) => names.includes(m.name));
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
  const mongo = await connectMongo(config.MONGO_URL);
  const redis = createRedis(config.REDIS_URL, { logger });
  const kafka = createKafka(config, logger);
  const kafkaAdmin = kafka.admin();
  await kafkaAdmin
    .connect()
    .catch((err) => logger.warn({ err: err.message }, 'kafka admin not connected yet'));
  const workerConnections: ReturnType<typeof createRedis>[] = [];
  const queues = new QueueRegistry(
    redis,
    () => {
      const c = createRedis(config.REDIS_URL, { forWorker: true, logger });
      workerConnections.push(c);
      return c;
    },
    config.QUEUE_PREFIX,
    logger,
    config.QUEUE_LOCK_MS,
  );
  let relay: OutboxRelay | null = null;
  const ctx: PlatformContext = {
    config,
    logger,
    mongo,
    redis,
    kafka,
    mail: createMailer(config.MAIL_TRANSPORT, config.MAIL_FROM, config.MAILBOX_DIR),
    queues,
    blobs: new FileBlobStore(config.FILE_STORE_DIR),
    nudgeOutbox: () => relay?.nudge(),
  };

  const identity = createIdentity(mongo, config);
  const reference = createReferenceModule(ctx);
  // each domain's public calls, not its models: the requisitions module signs through identity and registers a
  // new patient through reference
  const requisitions = createRequisitionsModule(ctx, {
    verifySignature: identity.verifySignature,
    registerPatient: reference.patients.registerFromRequisition,
  });
  const modules: DomainModule[] = [
    reference,
    requisitions,
    createLabModule(ctx),
    // the pre-submit checks look ICD-10 codes up in the reference data's catalog (an interface, not its models)
    createBillingModule(ctx, { diagnosisCodes: reference.icd10Catalog }),
    createMessagesModule(ctx, { accounts: reference.directories.accounts }),
  ];

  // Build every model's indexes before serving or writing, so a unique index holds from the first write
  // (mongoose otherwise builds them in the background).
  for (const model of Object.values(mongo.models)) await model.init();
  // the large lists' index-ordered indexes: built in the background (a list hints one once it is ready)
  void ensureOrderedIndexes(mongo, {
    mongoUrl: config.MONGO_URL,
    orderedUrl: config.MONGO_ORDERED_URL,
    logger,
  });

  const app = await createBaseApp(ctx, identity.resolver);

  await healthRoutes(app as unknown as FastifyInstance, {
    mongo,
    redis,
    kafkaAdmin,
    queues,
    relay: () => relay,
  });

  // the read-only queue dashboard (bull-board) for operators, opened from the console's profile menu
  await queueBoard(app as unknown as FastifyInstance, {
    queues,
    secret: config.TOKEN_SECRET,
    publicUrl: config.PUBLIC_URL,
  });

  const identityDeps = {
    models: identity.models,
    resolver: identity.resolver,
    accounts: reference.directories.accounts,
    physicians: reference.directories.physicians,
  };
  for (const area of areas) {
    await app.register(
      async (scope) => {
        if (area === 'uam') await uamArea(scope, identityDeps);
        if (area === 'portal') await portalIdentityRoutes(scope, identityDeps);
        if (area === 'portal') await scope.register(dashboardRoutes, { modules });
        for (const m of modules) {
          const plugin = m.areas[area];
          if (plugin) await scope.register(plugin);
        }
      },
      { prefix: AREAS[area] },
    );
  }

  if (config.SERVE_CONSOLE)
    await serveConsole(app as unknown as FastifyInstance, path.resolve(process.cwd(), 'console/dist'));

  const stoppers: Array<{ stop(): Promise<void> }> = [];
  if (config.WORKERS) {
    relay = new OutboxRelay({
      kafka,
      db: mongo,
      collections: modules.flatMap((m) => m.outboxCollections ?? []),
      logger,
      topicPrefix: config.TOPIC_PREFIX,
    });
    await relay.start();
    // the queues' workers first: a consumer's start waits for its Kafka group to settle, which after a crash
    // waits out the dead member's session (up to a minute), and the jobs must not wait for that
    const working = workerModules(config, modules);
    queues.startWorkers(working.flatMap((m) => m.queues ?? []));
    for (const m of working) if (m.startConsumers) stoppers.push(await m.startConsumers());
  }

  let closed = false;
  return {
    app,
    ctx,
    relay,
    async close() {
      if (closed) return;
      closed = true;
      // stop taking requests and finish in-flight ones, then workers and consumers, then connections
      await app.close();
      await Promise.all(stoppers.map((s) => s.stop()));
      await queues.close();
      if (relay) await relay.stop();
      for (const m of modules) await m.stop?.();
      await kafkaAdmin.disconnect().catch(() => undefined);
      await Promise.all(workerConnections.map((c) => c.quit().catch(() => undefined)));
      await redis.quit().catch(() => undefined);
      await mongo.close();
    },
  };
}
