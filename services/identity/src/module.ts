import type { FastifyInstance } from 'fastify';
import type { Connection } from 'mongoose';
import type { Config } from '@onco/platform';
import { identityModels } from './models/user';
import { sessionResolver } from './session';
import { verifySignature, type IdentityRouteDeps } from './use-cases';
import { authRoutes } from './routes/auth';
import { userRoutes } from './routes/users';
import { associationRoutes } from './routes/associations';

/**
 * Identity: users, sign-in, sessions and passwords (spec 3). Its models, the session resolver every area
 * authenticates with, its public call for other modules (verifySignature) and its routes (the uam area and its
 * part of the portal area, which need the reference module's account and physician names).
 */
export function createIdentity(conn: Connection, config: Config) {
  const models = identityModels(conn);
  const resolver = sessionResolver(models);
  return {
    models,
    resolver,
    /**
     * The identity module's public call for the requisitions module: signing a requisition checks the signer's
     * own login password; a wrong one counts toward the lockout (and drops the cached session when it locks).
     */
    verifySignature: (userId: string, password: string): Promise<boolean> =>
      verifySignature({ models, config, resolver }, userId, password),
  };
}
export type Identity = ReturnType<typeof createIdentity>;

/** uam area: /uam/api/v1 (sign-in, passwords, the users list the spec also shows there). */
export async function uamArea(app: FastifyInstance, opts: IdentityRouteDeps) {
  await app.register(authRoutes, opts);
  await app.register(userRoutes, opts);
}

/** The identity parts of the portal area: users administration, clinicians, associations. */
export async function portalIdentityRoutes(app: FastifyInstance, opts: IdentityRouteDeps) {
  await app.register(userRoutes, opts);
  await app.register(associationRoutes, opts);
}
