/**
 * The audit trail as a module (docs/audit.md): its routes (uam: the list, the export, one entry), its outbox
 * collection (the chained entries' `audit` events) and, where workers run, the chainer. It lives in the platform
 * because every domain's routes and use cases record through it (audit/plugin.ts, AuditTrail.update/create).
 */
import type { PlatformContext } from '../context';
import type { DomainModule } from '../module';
import { startChainer } from './chain';
import { AUDIT_COLLECTIONS } from './models';
import { auditRoutes } from './routes';
import { auditTrailOf } from './trail';

export function createAuditModule(ctx: PlatformContext): DomainModule {
  const trail = auditTrailOf(ctx);
  return {
    name: 'audit',
    areas: { uam: auditRoutes(trail.models) },
    outboxCollections: [AUDIT_COLLECTIONS.publish],
    startConsumers: async () =>
      startChainer(trail, {
        logger: ctx.logger.child({ component: 'audit-chainer' }),
        retention: {
          days: ctx.config.AUDIT_RETENTION_DAYS,
          everyMs: ctx.config.AUDIT_ARCHIVE_EVERY_MS,
          blobs: ctx.blobs,
        },
      }),
  };
}
