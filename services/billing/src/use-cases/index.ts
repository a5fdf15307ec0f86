/** Billing's use cases: each takes the module's deps first (BillingDeps), then the user and its input. */
export * from './deps';
export * from './cases';
export * from './audit';
export * from './each-case';
export * from './assign-cases';
export * from './update-case-status';
export * from './update-billing-code';
export * from './update-time-point';
export * from './upload-documents-again';
