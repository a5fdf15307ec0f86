/** Identity's use cases: each takes the module's deps first (IdentityDeps), then the user and its input. */
export * from './deps';
export * from './own-password';
export * from './sign-in';
export * from './sign-out';
export * from './password-rules';
export * from './change-password';
export * from './password-link';
export * from './users';
export * from './create-user';
export * from './update-user';
export * from './user-action';
export * from './associations';
export * from './audit';
