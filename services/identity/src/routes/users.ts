import type { FastifyInstance } from 'fastify';
import { registerUserActionRoute } from './users/actions';
import { registerClinicianRoute, registerUserReadRoutes } from './users/read';
import type { UserRouteDeps } from './users/resource';
import { registerUserWriteRoutes } from './users/write';

export {
  publicUser,
  userReply,
  usersResource,
  type AccountDirectory,
  type UserRouteDeps,
} from './users/resource';

/** Users administration (spec 3 sections 2.7 and 7.1). Mounted at /portal/api/v1 and (list only) /uam/api/v1. */
export async function userRoutes(app: FastifyInstance, opts: UserRouteDeps) {
  registerUserReadRoutes(app, opts);
  registerUserWriteRoutes(app, opts);
  registerUserActionRoute(app, opts);
  registerClinicianRoute(app, opts);
}
