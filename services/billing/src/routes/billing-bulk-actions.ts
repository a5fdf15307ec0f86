import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { BILLING_CASE_STATUSES, billingStatusUpdateError, type BillingCaseStatus } from '@onco/domain';
import {
  actorOf,
  can,
  conflict,
  errorReplies,
  forbidden,
  notFound,
  requireUser,
  typed,
  type SessionUser,
} from '@onco/platform';
import type { BillingCaseDoc, BillingModels, BillingSpecialistDoc } from '../models';
import { changeCase, findCase, type CaseDecision } from '../case-service';
import { billingCaseOut, caseReply, orRefuse } from './billing-action-parts';

const caseIds = z
  .array(z.string().min(1).max(64))
  .min(1)
  .max(500)
  .describe('Billing case ids (all or none: one unknown id is 404, one refused case is 409)');

/** Every case of a bulk action, in the caller's scope, or 404 naming the ids not found (nothing changes). */
async function findAll(models: BillingModels, user: SessionUser, ids: string[]) {
  const unique = [...new Set(ids)];
  const found: BillingCaseDoc[] = [];
  const missing: string[] = [];
  for (const id of unique) {
    try {
      found.push(await findCase(models, user, id));
    } catch {
      missing.push(id);
    }
  }
  if (missing.length)
    throw notFound(`Billing case${missing.length > 1 ? 's' : ''} ${missing.join(', ')} not found.`);
  return found;
}

/** 409 with the refusal per id when any case of a bulk action is refused (nothing changes). */
function refuseAny(cases: BillingCaseDoc[], check: (c: BillingCaseDoc) => string | null) {
  const refused: Record<string, string> = {};
  for (const c of cases) {
    const why = check(c);
    if (why) refused[c._id] = why;
  }
  const ids = Object.keys(refused);
  if (ids.length) throw conflict(refused[ids[0]], { refused });
}

/** Assign Billing User and Update Billing Status, on one or many cases (all or none; billing-actions.ts). */
/** Each case changed in turn, each its own conditional write (re-read and re-decided on a lost race). */
async function changeEach(
  models: BillingModels,
  user: SessionUser,
  cases: BillingCaseDoc[],
  decide: (doc: BillingCaseDoc) => CaseDecision,
): Promise<BillingCaseDoc[]> {
  const done: BillingCaseDoc[] = [];
  for (const c of cases)
    done.push(await changeCase(models, () => findCase(models, user, c._id), decide, actorOf(user)));
  return done;
}

export function registerBulkActionRoutes(
  app: FastifyInstance,
  opts: { models: BillingModels; nudge: () => void },
) {
  const r = typed(app);
  const { models, nudge } = opts;

  r.post(
    '/billing/assign/:billingSpecialistId',
    {
      config: { permission: 'VIEW_BILLING_ACTIONS' },
      schema: {
        tags: ['billing'],
        summary: 'Assign Billing User to one or many cases (CAN_UPDATE_ASSIGNEE; all or none)',
        params: z.object({ billingSpecialistId: z.string().min(1).max(64) }),
        body: caseIds,
        response: { 200: z.array(caseReply), ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      if (!can(user, 'CAN_UPDATE_ASSIGNEE')) throw forbidden();
      const specialist = await models.BillingSpecialist.findOne({
        _id: req.params.billingSpecialistId,
        active: true,
      })
        .lean<BillingSpecialistDoc>()
        .exec();
      if (!specialist) throw notFound(`Billing specialist ${req.params.billingSpecialistId} not found.`);
      const cases = await findAll(models, user, req.body);
      const assignee = { id: specialist._id, name: specialist.name };
      const done = await changeEach(models, user, cases, () => ({ set: { assignee }, history: true }));
      nudge();
      return done.map(billingCaseOut);
    },
  );

  r.put(
    '/billing/status/:status',
    {
      config: { permission: 'VIEW_BILLING_ACTIONS' },
      schema: {
        tags: ['billing'],
        summary:
          'Update Billing Status: PARTIALLY_ACCEPTED or DUPLICATE_ACCESSION to FIXED_IN_XIFIN (all or none)',
        params: z.object({ status: z.enum(BILLING_CASE_STATUSES) }),
        body: caseIds,
        response: { 200: z.array(caseReply), ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const to = req.params.status as BillingCaseStatus;
      const cases = await findAll(models, user, req.body);
      refuseAny(cases, (c) => billingStatusUpdateError(c.caseStatus, to));
      const done = await changeEach(models, user, cases, (doc) =>
        orRefuse(billingStatusUpdateError(doc.caseStatus, to), { set: { caseStatus: to } }),
      );
      nudge();
      return done.map(billingCaseOut);
    },
  );
}
