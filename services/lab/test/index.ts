/** The lab package's test fixtures (`@onco/lab/testing`); its worker child process is forked by path. */
export * from './events';
export * from './manifests';
export type { ManifestWorkerProcessMessage } from './manifest-worker-process';
