/** The requisitions package's test fixtures (`@onco/requisitions/testing`); its worker child processes are forked by path. */
export * from './fixtures';
export * from './pdf';
export type { PatientMergeConsumerProcessMessage } from './patient-merge-consumer-process';
export type { TrfWorkerProcessMessage } from './trf-worker-process';
