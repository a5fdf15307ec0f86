import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { TEST_STATUSES } from '@onco/domain';
import { badRequest, errorReplies, idParams, requireUser, typed } from '@onco/platform';
import type { LabModels } from '../models';
import { submitReport } from '../use-cases';
import { testOrderOut } from '../use-cases';

/** A flag sent as a form field or query value: true, false, 1, 0, on, off, yes, no (any case). */
export function flagValue(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v !== 'string') return undefined;
  const s = v.trim().toLowerCase();
  if (['true', '1', 'on', 'yes'].includes(s)) return true;
  if (['false', '0', 'off', 'no', ''].includes(s)) return false;
  throw badRequest(`Invalid flag value: ${v}`);
}

export const flagQuery = z
  .string()
  .max(10)
  .optional()
  .describe('true or false (also 1/0); absent: the value sent with the upload');

export const testOrderReply = z.looseObject({ id: z.string(), status: z.enum(TEST_STATUSES) });

/** Submit an uploaded report, and the TNP path of it (reports.ts). */
export function registerReportSubmitRoutes(app: FastifyInstance, opts: { models: LabModels }) {
  const r = typed(app);
  const { models } = opts;

  r.post(
    '/testOrders/:id/reports/submit',
    {
      config: { permission: 'VIEW_TESTORDER_ACTIONS' },
      schema: {
        tags: ['tests'],
        summary: 'Submit an uploaded report: attach it as the next report version and set the status',
        description:
          'Step 2 of 2. `filePath` is the answer of the upload; only its uploader may submit it, only to the ' +
          'test it was uploaded to (else 404), once (409 the second time). The status comes from the flags ' +
          '(amended: REPORT_AMENDED; TNP: TNP_REPORT_COMPLETE; else REPORT_COMPLETE); a flag left out takes the ' +
          'value sent with the upload. One write of the test order: status, report version, history entry and ' +
          'the test-status event (`change: "report"`). A cancelled or not yet started test is refused (409).',
        params: idParams,
        querystring: z.object({
          filePath: z.string().min(1).max(64),
          amendedFlag: flagQuery,
          tnpReportCompleteFlag: flagQuery,
        }),
        response: { 200: testOrderReply, ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const done = await submitReport({ models }, user, req.params.id, req.query.filePath, {
        amended: flagValue(req.query.amendedFlag),
        tnp: flagValue(req.query.tnpReportCompleteFlag),
      });
      app.platform.nudgeOutbox();
      req.log.info({ testOrderId: req.params.id, version: done.report.version }, 'report submitted');
      return testOrderOut(done.testOrder, user);
    },
  );

  r.post(
    '/testOrders/updateTestStatusWithReport',
    {
      config: { permission: 'VIEW_TESTORDER_ACTIONS' },
      schema: {
        tags: ['tests'],
        summary: 'TNP report: attach an uploaded report and set TNP_REPORT_COMPLETE',
        description:
          'The TNP path of the report upload: as submit with tnpReportCompleteFlag=true and amendedFlag=false.',
        body: z.object({
          uuid: z.string().min(1).max(64),
          status: z.literal('TNP_REPORT_COMPLETE'),
          filePath: z.string().min(1).max(64),
        }),
        response: { 200: testOrderReply, ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const done = await submitReport({ models }, user, req.body.uuid, req.body.filePath, {
        amended: false,
        tnp: true,
      });
      app.platform.nudgeOutbox();
      req.log.info({ testOrderId: req.body.uuid, version: done.report.version }, 'TNP report submitted');
      return testOrderOut(done.testOrder, user);
    },
  );
}
