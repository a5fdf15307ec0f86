export * from './models/user';
export * from './session';
export * from './password-hash';
export * from './use-cases';

export { createIdentity, uamArea, portalIdentityRoutes, type Identity } from './module';
