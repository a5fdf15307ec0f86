import type { FastifyInstance } from 'fastify';
import { identityDeps, type IdentityRouteDeps } from '../use-cases';
import { registerUserActionRoute } from './users/actions';
import { registerClinicianRoute, registerUserReadRoutes } from './users/read';
import { registerUserWriteRoutes } from './users/write';

export { userReply } from './users/resource';

/** Users administration (spec 3 sections 2.7 and 7.1). Mounted at /portal/api/v1 and (list only) /uam/api/v1. */
export async function userRoutes(app: FastifyInstance, opts: IdentityRouteDeps) {
  const deps = identityDeps(app.platform, opts);
  registerUserReadRoutes(app, deps);
  registerUserWriteRoutes(app, deps);
  registerUserActionRoute(app, deps);
  registerClinicianRoute(app, deps);
}
