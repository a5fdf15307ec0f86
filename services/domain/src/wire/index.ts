export * from './record';
export * from './billing';
export * from './lab';
export * from './samples';
export * from './barcodes';
export * from './manifests';
export * from './audit';
