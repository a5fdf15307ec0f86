/** The `test-status` family: a test order was created or changed (schemaVersions 1 and 2). */
import { z } from 'zod';
import { Actor, OrderType, TestStatus, TestType } from './common';
import { TEST_CHANGES } from '@onco/domain';
import { id, instant } from './fields';

export const TestStatusDataV1 = z
  .object({
    testOrderId: id('Test order entity id; also the event subject'),
    testId: id('Human-readable test id shown to users'),
    requisitionId: id('Requisition entity id the test belongs to'),
    testRequisitionId: id('Human-readable TRF number'),
    accountId: id('Ordering account id'),
    testType: TestType.describe('Assay'),
    orderType: OrderType.describe('Initial or subsequent order'),
    previousStatus: TestStatus.nullable().describe(
      'Status before the change; null when the test order was created',
    ),
    status: TestStatus.describe('Status after the change'),
    changedBy: Actor,
    changedOn: instant('When the status changed'),
    dueOn: z.iso.date().nullable().describe('Due date (calendar date, YYYY-MM-DD), null when none'),
  })
  .describe('A test order was created or its status changed');

/** What a test-status event (schemaVersion 2) reports about its test order. */
export const TestChange = z.enum(TEST_CHANGES);
export type TestChange = z.infer<typeof TestChange>;

/**
 * schemaVersion 2 (additive): every change of a test order travels on test-status, not only its status, so
 * `change` says which. `limsProjectId` and `report` carry the current values. A V1 reader still parses it
 * (the V1 fields are unchanged; a due date or LIMS change repeats the same `status` with `previousStatus`).
 */
export const TestStatusDataV2 = TestStatusDataV1.extend({
  change: TestChange.optional().describe(
    "What happened: 'created', 'status' (Update Status), 'report' (a report uploaded; status set by it), 'due-date', 'lims-project', 'merged' (moved to another requisition by a TRF merge)",
  ),
  limsProjectId: z
    .string()
    .max(200)
    .nullable()
    .optional()
    .describe('LIMS project id of the test, null when none (schemaVersion 2; absent in 1)'),
  report: z
    .object({
      id: id(
        'Report file id (download with GET /oms/api/v1/testOrders/{testOrderId}/reports/download?version=N)',
      ),
      version: z.number().int().min(1).describe('Report version: 1 for the first report, +1 per amendment'),
      fileName: z.string().max(300).describe('Uploaded file name'),
      amended: z.boolean().describe('Whether this version amends an earlier report'),
    })
    .nullable()
    .optional()
    .describe('The latest report of the test, null when none (schemaVersion 2; absent in 1)'),
}).describe('A test order was created, or its status, report, due date or LIMS project changed');
export type TestStatusData = z.infer<typeof TestStatusDataV2>;
