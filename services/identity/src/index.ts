export * from './models/user';
export * from './session';
export * from './credentials';
export * from './password-hash';
export { usersResource, publicUser, type AccountDirectory } from './routes/users';
export type { PhysicianDirectory } from './routes/associations';

export { createIdentity, uamArea, portalIdentityRoutes, type Identity } from './module';
