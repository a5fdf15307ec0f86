import {
  AREAS,
  createBaseApp,
  type App,
  type AreaName,
  type DomainModule,
  type PlatformContext,
} from '@onco/platform';
import { createIdentity } from '@onco/identity';

/**
 * Mount one module's area on a fresh app over the test system's connections, the way system.ts mounts it
 * (same base app, guard and prefix). Tokens from the test system's login are valid here (same secret).
 */
export async function mountArea(ctx: PlatformContext, module: DomainModule, area: AreaName): Promise<App> {
  const app = await createBaseApp(ctx, createIdentity(ctx.mongo).resolver);
  const plugin = module.areas[area];
  if (!plugin) throw new Error(`module ${module.name} has no ${area} area`);
  await app.register(plugin, { prefix: AREAS[area] });
  await app.ready();
  return app;
}
