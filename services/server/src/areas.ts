/** What the process serves over HTTP: the operators' routes (health, queue board) and the areas in SERVICES. */
import type { FastifyInstance } from 'fastify';
import type { OutboxRelay } from '@onco/events';
import { uamArea, portalIdentityRoutes } from '@onco/identity';
import { AREAS, type AreaName, type Config, type createBaseApp } from '@onco/platform';
import type { Connections } from './connections';
import { dashboardRoutes } from './dashboard';
import type { DomainModules } from './domain-modules';
import { healthRoutes } from './health';
import { queueBoard } from './queue-board';

type BaseApp = Awaited<ReturnType<typeof createBaseApp>>;

export function selectedAreas(config: Config): AreaName[] {
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

/** Health (with the relay's figures once it runs) and the queue dashboard. */
export async function mountOperatorRoutes(
  app: BaseApp,
  config: Config,
  { mongo, redis, kafka, kafkaAdmin, queues }: Connections,
  relay: () => OutboxRelay | null,
): Promise<void> {
  await healthRoutes(app as unknown as FastifyInstance, {
    mongo,
    redis,
    kafka,
    kafkaAdmin,
    queues,
    relay,
  });

  // the read-only queue dashboard (bull-board) for operators, opened from the console's profile menu
  await queueBoard(app as unknown as FastifyInstance, {
    queues,
    secret: config.TOKEN_SECRET,
    publicUrl: config.PUBLIC_URL,
  });
}

/** Each area under its prefix: identity's routes, the portal's dashboard, and every module's plugin for it. */
export async function mountAreas(
  app: BaseApp,
  areas: AreaName[],
  { identity, reference, modules }: DomainModules,
): Promise<void> {
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
}
