export { createLabModule, type LabModule } from './module';
export * from './models';
export { testOrdersResource, testOrdersScope } from './routes/test-orders';
