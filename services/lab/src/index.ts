export { createLabModule, type LabModule } from './module';
export * from './models';
export { testOrdersResource, testOrdersScope } from './routes/test-orders';
export {
  createTestOrdersFromSubmission,
  startLabConsumers,
  LAB_REQUISITION_GROUP,
} from './consumers/requisition-submitted';
export { labDashboard, RECENT_PER_PAGE, DASHBOARD_TEST_STATUSES } from './dashboard';
