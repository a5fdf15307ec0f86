/** The `sample-manifest` family: the lab processed a sample manifest. */
import { z } from 'zod';
import { id, instant } from './fields';

export const SAMPLE_MANIFEST_RESULTS = ['PROCESSED', 'ERROR'] as const;

export const SampleManifestDataV1 = z
  .object({
    attachmentId: id('The manifest attachment id; also the event subject'),
    status: z
      .enum(SAMPLE_MANIFEST_RESULTS)
      .describe('PROCESSED: every row applied; ERROR: nothing applied (see errorDetails)'),
    rows: z.number().int().min(0).describe('Sample rows read (blank rows not counted)'),
    created: z.number().int().min(0).describe('Samples created'),
    updated: z.number().int().min(0).describe('Samples updated'),
    errorCount: z.number().int().min(0).describe('Problems found (0 when PROCESSED)'),
    errorDetails: z
      .string()
      .max(200_000)
      .nullable()
      .describe('One line per problem, "Row N, Column: message" (the first 1,000); null when PROCESSED'),
    missingSamples: z
      .number()
      .int()
      .min(0)
      .describe(
        'Expected samples of the listed requisitions still missing after processing (reconciliation)',
      ),
    processedOn: instant('When the result was committed'),
  })
  .describe('A sample manifest was processed: applied whole (PROCESSED) or refused whole (ERROR)');
export type SampleManifestData = z.infer<typeof SampleManifestDataV1>;
