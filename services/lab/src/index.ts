export { createLabModule, type LabModule, type LabModuleOptions } from './module';
export * from './models';
export { testOrdersResource, testOrdersScope } from './routes/test-orders';
export {
  createTestOrdersFromSubmission,
  startRequisitionSubmittedConsumer,
  LAB_REQUISITION_GROUP,
} from './consumers/requisition-submitted';
export {
  applyRequisitionState,
  recordRequisitionChange,
  startRequisitionChangedConsumer,
  LAB_REQUISITION_CHANGED_GROUP,
} from './consumers/requisition-changed';
export { labDashboard, RECENT_PER_PAGE, DASHBOARD_TEST_STATUSES } from './dashboard';
export { DEFAULT_DOMAIN_PREFERENCES, seedDomainPreferences } from './domain-preferences';
export {
  defineSampleManifestQueue,
  SAMPLE_MANIFEST_QUEUE,
  type SampleManifestQueue,
} from './manifests/queue';
export type { SampleManifestJobResult } from './manifests/verdict';
export { handleAttachmentEvent, LAB_SAMPLE_MANIFEST_GROUP } from './manifests/consumer';
export { parseManifestFile } from './manifests/parse';
export { extractSheet } from './manifests/sheet';
export { sniffManifest } from './manifests/sniff';
export { ManifestFileError, formatOfName } from './manifests/manifest-file';
export { planManifest } from './manifests/plan';
export { applyManifestPlan } from './manifests/apply';
export { templateFile, errorFile, writeRows } from './manifests/files';
export { CHECK_SAMPLES_MAX } from './manifests/check-routes';
