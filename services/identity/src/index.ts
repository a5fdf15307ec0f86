import type { FastifyInstance } from 'fastify';
import { identityModels, type IdentityModels } from './models/user';
import { sessionResolver, type Resolver } from './session';
import { authRoutes } from './routes/auth';
import { userRoutes, type AccountDirectory } from './routes/users';
import { associationRoutes, type PhysicianDirectory } from './routes/associations';
import type { Connection } from 'mongoose';

export * from './models/user';
export * from './session';
export * from './credentials';
export * from './password-hash';
export { usersResource, publicUser, type AccountDirectory } from './routes/users';
export type { PhysicianDirectory } from './routes/associations';

export function createIdentity(conn: Connection) {
  const models = identityModels(conn);
  const resolver = sessionResolver(models);
  return { models, resolver };
}

/** uam area: /uam/api/v1 (sign-in, passwords, the users list the spec also shows there). */
export async function uamArea(
  app: FastifyInstance,
  opts: { models: IdentityModels; resolver: Resolver; accounts: AccountDirectory },
) {
  await app.register(authRoutes, opts);
  await app.register(userRoutes, opts);
}

/** The identity parts of the portal area: users administration, clinicians, associations. */
export async function portalIdentityRoutes(
  app: FastifyInstance,
  opts: {
    models: IdentityModels;
    resolver: Resolver;
    accounts: AccountDirectory;
    physicians: PhysicianDirectory;
  },
) {
  await app.register(userRoutes, opts);
  await app.register(associationRoutes, opts);
}
