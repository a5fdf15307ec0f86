/** The registry of event families: their data schemas by schemaVersion, current versions and subject fields. */
import { z } from 'zod';
import { AttachmentDataV1, AttachmentDataV2, type AttachmentData } from './attachment';
import { AuditDataV1, AuditDataV2, type AuditData } from './audit';
import { BillingCaseDataV1, type BillingCaseData } from './billing-case';
import { PatientDataV1, type PatientData } from './patient';
import { PatientRequisitionsDataV1, type PatientRequisitionsData } from './patient-requisitions';
import {
  RequisitionChangedDataV1,
  RequisitionChangedDataV2,
  RequisitionChangedDataV3,
  RequisitionChangedDataV4,
  RequisitionChangedDataV5,
  RequisitionChangedDataV6,
  RequisitionChangedDataV7,
  RequisitionChangedDataV8,
  type RequisitionChangedData,
} from './requisition-changed';
import {
  RequisitionSubmittedDataV1,
  RequisitionSubmittedDataV2,
  RequisitionSubmittedDataV3,
  RequisitionSubmittedDataV4,
  RequisitionSubmittedDataV5,
  type RequisitionSubmittedData,
} from './requisition-submitted';
import { SampleDataV1, type SampleData } from './sample';
import { SampleManifestDataV1, type SampleManifestData } from './sample-manifest';
import { TestStatusDataV1, TestStatusDataV2, type TestStatusData } from './test-status';

export const EVENT_FAMILIES = [
  'requisition-submitted',
  'requisition-changed',
  'test-status',
  'sample',
  'billing-case',
  'attachment',
  'sample-manifest',
  'patient',
  'patient-requisitions',
  'audit',
] as const;
export type EventFamily = (typeof EVENT_FAMILIES)[number];

/** Data types per family (the latest schemaVersion). */
export interface EventDataMap {
  'requisition-submitted': RequisitionSubmittedData;
  'requisition-changed': RequisitionChangedData;
  'test-status': TestStatusData;
  sample: SampleData;
  'billing-case': BillingCaseData;
  attachment: AttachmentData;
  'sample-manifest': SampleManifestData;
  patient: PatientData;
  'patient-requisitions': PatientRequisitionsData;
  audit: AuditData;
}
export type EventData<F extends EventFamily> = EventDataMap[F];

/**
 * Data schemas per family, indexed by schemaVersion (1-based). The last entry is the
 * current version producers write; consumers parse with the newest version they know that
 * is <= the event's schemaVersion (so older events still parse, and newer, additive ones too).
 */
export const DATA_SCHEMAS = {
  'requisition-submitted': {
    1: RequisitionSubmittedDataV1,
    2: RequisitionSubmittedDataV2,
    3: RequisitionSubmittedDataV3,
    4: RequisitionSubmittedDataV4,
    5: RequisitionSubmittedDataV5,
  },
  'requisition-changed': {
    1: RequisitionChangedDataV1,
    2: RequisitionChangedDataV2,
    3: RequisitionChangedDataV3,
    4: RequisitionChangedDataV4,
    5: RequisitionChangedDataV5,
    6: RequisitionChangedDataV6,
    7: RequisitionChangedDataV7,
    8: RequisitionChangedDataV8,
  },
  'test-status': { 1: TestStatusDataV1, 2: TestStatusDataV2 },
  sample: { 1: SampleDataV1 },
  'billing-case': { 1: BillingCaseDataV1 },
  attachment: { 1: AttachmentDataV1, 2: AttachmentDataV2 },
  'sample-manifest': { 1: SampleManifestDataV1 },
  patient: { 1: PatientDataV1 },
  'patient-requisitions': { 1: PatientRequisitionsDataV1 },
  audit: { 1: AuditDataV1, 2: AuditDataV2 },
} as const satisfies Record<EventFamily, Record<number, z.ZodType>>;

export const CURRENT_SCHEMA_VERSION: Record<EventFamily, number> = {
  'requisition-submitted': 5,
  'requisition-changed': 8,
  'test-status': 2,
  sample: 1,
  'billing-case': 1,
  attachment: 2,
  'sample-manifest': 1,
  patient: 1,
  'patient-requisitions': 1,
  audit: 2,
};

/** The data schema to use for a family at a given schemaVersion (see DATA_SCHEMAS). */
export function dataSchemaFor<F extends EventFamily>(
  family: F,
  schemaVersion: number,
): z.ZodType<EventData<F>> {
  const versions = DATA_SCHEMAS[family] as Record<number, z.ZodType>;
  const known = Object.keys(versions)
    .map(Number)
    .sort((a, b) => a - b);
  let chosen = known[0];
  for (const v of known) if (v <= schemaVersion) chosen = v;
  return versions[chosen] as z.ZodType<EventData<F>>;
}

/** The field that holds the entity id (the event subject / partition key) per family. */
export const SUBJECT_FIELD = {
  'requisition-submitted': 'requisitionId',
  'requisition-changed': 'requisitionId',
  'test-status': 'testOrderId',
  sample: 'sampleId',
  'billing-case': 'billingCaseId',
  attachment: 'attachmentId',
  'sample-manifest': 'attachmentId',
  patient: 'patientId',
  'patient-requisitions': 'mergeId',
  audit: 'entryId',
} as const satisfies { [F in EventFamily]: keyof EventDataMap[F] };
