/** The lab's use cases: each takes the module's deps first (LabDeps), then the user and its input. */
export * from './deps';
export * from './audit';
export * from './test-orders';
export * from './change-test-status';
export * from './change-due-date';
export * from './change-lims-project';
export * from './mark-tests-merged';
export * from './reports';
export * from './barcodes';
