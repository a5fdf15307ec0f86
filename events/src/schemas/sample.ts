/** The `sample` family: a sample was created, updated or copied. */
import { z } from 'zod';
import { Actor, SampleChange, SampleStatus, SampleType } from './common';
import { id, instant } from './fields';

export const SampleDataV1 = z
  .object({
    sampleId: id('Sample entity id; also the event subject'),
    requisitionId: id('Requisition entity id the sample belongs to'),
    type: SampleType.describe('Specimen kind'),
    status: SampleStatus.nullable().describe('Lab status of the sample, null if not set'),
    limsId: z.string().max(200).nullable().describe('Identifier in the LIMS, null until known'),
    change: SampleChange.describe(
      "What happened: 'created', 'updated', or 'copied' (from another requisition)",
    ),
    changedBy: Actor,
    changedOn: instant('When the change happened'),
  })
  .describe('A sample was created, updated or copied');
export type SampleData = z.infer<typeof SampleDataV1>;
