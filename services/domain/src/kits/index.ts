export * from './kits';
