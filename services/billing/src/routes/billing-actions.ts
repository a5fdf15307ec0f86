import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  BILLING_CASE_STATUSES,
  billingStatusUpdateError,
  caseActionError,
  qualification,
  timePointError,
  type BillingCaseStatus,
} from '@onco/domain';
import {
  actorOf,
  can,
  conflict,
  errorReplies,
  forbidden,
  idParams,
  notFound,
  requireUser,
  toApi,
  typed,
  type SessionUser,
} from '@onco/platform';
import {
  CASE_CHANGE_FIELDS,
  type BillingCaseDoc,
  type BillingModels,
  type BillingSpecialistDoc,
} from '../models';
import { changeCase, findCase, type CaseDecision } from '../case-service';

/**
 * The billing actions of spec 3 section 7.3 under /bis/api/v1: one case with its history, Update Billing Code,
 * Assign Billing User, Update Billing Status, Update Timepoint, and the billing specialist search. Every change
 * goes through changeCase: one conditional write with a history entry and the billing-case event.
 *
 * Bulk actions (assign, status) are all or none: every id is read and checked first; an unknown or out-of-scope
 * id is 404 and a refused case is 409 (with the refusal per id in `details`), and then nothing changes. Only a
 * concurrent change between the check and the writes can still refuse a case (409; the others stay changed).
 */

/** A case as the API gives it: `id`, no outbox, the history newest first. */
export function billingCaseOut(doc: BillingCaseDoc) {
  const out = toApi(doc);
  return {
    ...out,
    caseHistory: [...(doc.caseHistory ?? [])]
      .sort((a, b) => new Date(b.createdOn).getTime() - new Date(a.createdOn).getTime())
      .map((e) => ({ ...e })),
  };
}

const caseReply = z.looseObject({
  id: z.string(),
  testOrderId: z.string(),
  caseStatus: z.enum(BILLING_CASE_STATUSES),
  caseHistory: z.array(
    z.looseObject({
      id: z.string(),
      status: z.enum(BILLING_CASE_STATUSES),
      by: z.string().nullable().optional().describe('who made the change: a user, or system'),
      byId: z.string().nullable().optional().describe("the user's id, or system"),
      changes: z
        .array(
          z.object({
            field: z.enum(CASE_CHANGE_FIELDS),
            from: z.string().nullable(),
            to: z.string().nullable(),
          }),
        )
        .optional()
        .describe('what the change set besides the status (the assignee by name)'),
    }),
  ),
});
const caseIds = z
  .array(z.string().min(1).max(64))
  .min(1)
  .max(500)
  .describe('Billing case ids (all or none: one unknown id is 404, one refused case is 409)');
const specialistReply = z.object({ id: z.string(), name: z.string(), email: z.string().nullable() });

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

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

/** A decided change or its refusal (the rule checked again on the case as written). */
const orRefuse = (why: string | null, d: CaseDecision): CaseDecision => {
  if (why) throw conflict(why);
  return d;
};

export async function billingActionRoutes(app: FastifyInstance, opts: { models: BillingModels }) {
  const r = typed(app);
  const { models } = opts;
  const nudge = () => app.platform.nudgeOutbox();

  r.get(
    '/billingCases/:id',
    {
      config: { permission: 'VIEW_BILLING_PAGE' },
      schema: {
        tags: ['billing'],
        summary: 'One billing case with its history, newest first (404 outside the data scope)',
        params: idParams,
        response: { 200: caseReply, ...errorReplies },
      },
    },
    async (req) => billingCaseOut(await findCase(models, requireUser(req), req.params.id)),
  );

  r.post(
    '/billing/:id/billingCode/:code',
    {
      config: { permission: 'VIEW_BILLING_ACTIONS' },
      schema: {
        tags: ['billing'],
        summary: 'Update Billing Code of one case (CAN_UPDATE_BILLING_CODE); the case may qualify',
        params: z.object({
          id: z.string().min(1).max(64),
          code: z
            .string()
            .trim()
            .min(1, 'Billing Code is required')
            .max(100)
            .regex(/^[A-Za-z0-9][A-Za-z0-9.-]*$/, 'A billing code is letters, digits, dots and dashes.'),
        }),
        response: { 200: caseReply, ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      if (!can(user, 'CAN_UPDATE_BILLING_CODE')) throw forbidden();
      const { id, code } = req.params;
      const done = await changeCase(
        models,
        () => findCase(models, user, id),
        (doc) =>
          orRefuse(caseActionError(doc.caseStatus), {
            set: { billingCode: code, ...qualification({ ...doc, billingCode: code }, new Date()) },
            history: true,
          }),
        actorOf(user),
      );
      nudge();
      return billingCaseOut(done);
    },
  );

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
      const done: BillingCaseDoc[] = [];
      for (const c of cases) {
        done.push(
          await changeCase(
            models,
            () => findCase(models, user, c._id),
            () => ({ set: { assignee }, history: true }),
            actorOf(user),
          ),
        );
      }
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
      const done: BillingCaseDoc[] = [];
      for (const c of cases) {
        done.push(
          await changeCase(
            models,
            () => findCase(models, user, c._id),
            (doc) => orRefuse(billingStatusUpdateError(doc.caseStatus, to), { set: { caseStatus: to } }),
            actorOf(user),
          ),
        );
      }
      nudge();
      return done.map(billingCaseOut);
    },
  );

  r.post(
    '/billing/:id/timePoint/:timePoint',
    {
      config: { permission: 'VIEW_BILLING_ACTIONS' },
      schema: {
        tags: ['billing'],
        summary: 'Update Timepoint of one case (a subsequent order with a complete or amended report)',
        params: z.object({
          id: z.string().min(1).max(64),
          timePoint: z.string().trim().min(1, 'Timepoint is required').max(100),
        }),
        response: { 200: caseReply, ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const { id, timePoint } = req.params;
      const done = await changeCase(
        models,
        () => findCase(models, user, id),
        (doc) =>
          orRefuse(caseActionError(doc.caseStatus) ?? timePointError(doc), {
            set: { timePoint },
            history: true,
          }),
        actorOf(user),
      );
      nudge();
      return billingCaseOut(done);
    },
  );

  r.get(
    '/billingSpecialists',
    {
      config: { permission: 'VIEW_BILLING_PAGE' },
      schema: {
        tags: ['billing'],
        summary:
          'Billing specialist search for Assign Billing User (name or e-mail contains q; 2+ characters)',
        querystring: z.object({
          q: z.string().trim().min(2, 'Type at least 2 characters').max(100),
          size: z.coerce.number().int().min(1).max(100).default(25),
        }),
        response: { 200: z.object({ content: z.array(specialistReply) }), ...errorReplies },
      },
    },
    async (req) => {
      const rows = await models.BillingSpecialist.find({
        active: true,
        searchText: { $regex: escapeRegex(req.query.q.toLowerCase()) },
      })
        .sort({ name: 1 })
        .limit(req.query.size)
        .lean<BillingSpecialistDoc[]>()
        .exec();
      return { content: rows.map((s) => ({ id: s._id, name: s.name, email: s.email ?? null })) };
    },
  );
}
