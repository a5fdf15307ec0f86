/** Reference's use cases: each takes the module's deps first (ReferenceDeps), then the user and its input. */
export * from './deps';
export * from './register-patient';
export * from './patient-picker';
export * from './renumber-patient';
export * from './patient-billings';
export * from './maintenance';
export * from './user-preferences';
export * from './hospital-locations';
