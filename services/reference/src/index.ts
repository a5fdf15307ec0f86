export * from './models';
export * from './importers/common';
export * from './importers/icd10';
export * from './importers/oncotree';
export * from './npi';
export * from './npi-registry';
export * from './rules';
export { npiRegistryRoutes, npiStandInRoutes } from './routes/npi-registry';
export * from './paths';
export { demoId } from './demo-data';
export type { SeedOptions, SeedResult } from './seed';
export { accountsResource, hospitalLocationsResource } from './routes/accounts';
export { physiciansResource, pathologistsResource } from './routes/providers';
export { NOT_MERGED, patientScope, patientsResource } from './routes/patients';
export { and } from './routes/shared';
export {
  applyPatientParties,
  handlePatientPartiesEvent,
  type PatientParties,
} from './consumers/patient-parties';
export { handlePatientMergeEvent } from './consumers/patient-merges';
export * from './patient-merges';
export { payorsResource } from './routes/payors';
export { icd10Resource } from './routes/icd10';
export { diagnosisTypesResource } from './routes/diagnosis-types';
export { toMaintenanceReply, type MaintenanceReply } from './routes/maintenance';
export { Icd10Catalog, type Icd10ApiRow } from './icd10-catalog';
export { stableId, icd10Id, diagnosisTypeId } from './ids';

export * from './use-cases';
export { createReferenceModule, type NameDirectory, type ReferenceModule } from './module';
