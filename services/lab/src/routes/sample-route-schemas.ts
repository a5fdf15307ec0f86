import { z } from 'zod';
import { ORDER_TYPES, SAMPLE_STATUSES, SPECIMEN_TYPES } from '@onco/domain';

/** The sample routes' permissions, request bodies and reply (samples.ts, sample-write-routes.ts). */

const day = z.string().max(10).nullish().describe("A calendar day 'YYYY-MM-DD'");
const text = (max = 300) => z.string().max(max).nullish();

/** One sample as the dialog sends it (the rules check the values; unknown keys are stripped). */
const sampleInput = z.object({
  id: z.string().min(1).max(64).optional().describe('The sample id (updates only)'),
  version: z.number().int().min(0).optional().describe('The version read (updates: a stale one is a 409)'),
  status: z.enum(SAMPLE_STATUSES).nullish(),
  specimenId: text(100).describe(
    'Specimen #: letters, digits, hyphen, underscore; required for tumor; locked on edit',
  ),
  specimenType: text(100),
  sampleSite: text(),
  name: text(),
  limsProjectId: text(200),
  limsProjectName: text(),
  accessionId: text(1000).describe('Accession #: slide ids separated by spaces; required for PROCEED'),
  sampleGroupId: text(200).describe('Sample group id (SGI); required for PROCEED'),
  collectedOn: day,
  receivedOn: day,
  trackingNumber: text(200),
  doNotExhaust: z.boolean().nullish(),
  diagnosis: text(),
  accessioner: text(),
  containerLocationValue: text(),
  researcherId: text(200),
  patient: z
    .object({ firstName: text(), lastName: text(), dateOfBirth: day })
    .nullish()
    .describe(
      'Patient names and date of birth as the LIMS gets them (default: the requisition patient name)',
    ),
});

export const lists = {
  tumors: z.array(sampleInput).max(50).optional(),
  normals: z.array(sampleInput).max(50).optional(),
  plasmas: z.array(sampleInput).max(50).optional(),
};

const sampleReply = z.looseObject({
  id: z.string(),
  type: z.enum(SPECIMEN_TYPES),
  status: z.enum(SAMPLE_STATUSES).nullable(),
  version: z.number(),
  workflow: z
    .object({
      state: z.enum(['ADDED', 'IGNORED']),
      reason: z.enum(['NO_WORKFLOW', 'OTHER_WORKFLOW']).nullable(),
      assigned: z
        .string()
        .nullable()
        .describe('the workflow the requisition assigns to a sample like this one'),
    })
    .nullable()
    .describe(
      'ADDED to the job of the workflow its requisition assigns, or IGNORED as incompatible with it (its ' +
        'workflowAssignId is not the assigned one, or no workflow takes it); null on a deleted requisition',
    ),
});
export const samplesRequisitionReply = z.looseObject({
  id: z.string(),
  testRequisitionId: z.string().nullable(),
  deleted: z.boolean(),
  requisition: z.looseObject({
    accountId: z.string().nullable(),
    testOrders: z.array(z.looseObject({ testType: z.string(), orderType: z.enum(ORDER_TYPES) })),
  }),
  domain: z.string(),
  ruleConfig: z.object({ reviewAccountId: z.string().nullable() }),
  sampleGroupId: z.string().nullable(),
  tumors: z.array(sampleReply),
  normals: z.array(sampleReply),
  plasmas: z.array(sampleReply),
});

export const READ = ['VIEW_ORDER_PAGE'] as const;
export const WRITE = 'VIEW_SAMPLE_ACTIONS' as const;
