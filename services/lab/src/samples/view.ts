import type { IdNameRef, SamplesRequisitionInfo } from '@onco/domain';

/** What the lab knows of a requisition, from its test orders. */
export interface LabRequisitionView extends SamplesRequisitionInfo {
  id: string;
  testRequisitionId: string | null;
  physician: IdNameRef | null;
  /** every test order of the requisition is deleted (the requisition was deleted) */
  deleted: boolean;
}
