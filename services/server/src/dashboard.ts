import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import {
  badRequest,
  errorReplies,
  requireUser,
  typed,
  type DashboardQuery,
  type DomainModule,
} from '@onco/platform';

/**
 * The home dashboard (spec 2 section 2.1): GET /portal/api/v1/dashboard. Each domain module contributes its part
 * from its own collections (DomainModule.dashboard); this route only parses the range and merges the parts
 * (docs/decisions.md "Home dashboard").
 */

const epochOrIso = (name: string, raw: string): Date => {
  const s = raw.trim();
  const n = Number(s);
  const d = s !== '' && Number.isFinite(n) ? new Date(n) : new Date(s);
  if (s === '' || Number.isNaN(d.getTime()))
    throw badRequest(`Invalid ${name}: expected epoch milliseconds`, { param: name });
  return d;
};

/** Default range: the start of the day three months ago through the end of today (server time). */
export function defaultDashboardRange(now = new Date()): { start: Date; end: Date } {
  const start = new Date(now);
  start.setMonth(start.getMonth() - 3);
  start.setHours(0, 0, 0, 0);
  const end = new Date(now);
  end.setHours(23, 59, 59, 999);
  return { start, end };
}

export const dashboardQuerystring = z.object({
  dateRange: z.string().max(100).optional().describe('between(start, end), epoch milliseconds'),
  from: z.string().max(40).optional().describe('start of the range, epoch milliseconds (or ISO 8601)'),
  to: z.string().max(40).optional().describe('end of the range, epoch milliseconds (or ISO 8601)'),
  page: z.string().max(6).optional().describe('zero-based page of the recently completed tests (8 a page)'),
});

export function parseDashboardQuery(
  qs: z.infer<typeof dashboardQuerystring>,
  now = new Date(),
): DashboardQuery {
  let { start, end } = defaultDashboardRange(now);
  if (qs.dateRange !== undefined) {
    const m = /^between\((.*)\)$/.exec(qs.dateRange.trim());
    const args = m ? m[1].split(',') : [];
    if (args.length !== 2)
      throw badRequest('Invalid dateRange: expected between(start, end) in epoch milliseconds', {
        param: 'dateRange',
      });
    start = epochOrIso('dateRange', args[0]);
    end = epochOrIso('dateRange', args[1]);
  }
  if (qs.from !== undefined) start = epochOrIso('from', qs.from);
  if (qs.to !== undefined) end = epochOrIso('to', qs.to);
  if (start > end) throw badRequest('Invalid date range: the start is after the end', { param: 'dateRange' });
  let page = 0;
  if (qs.page !== undefined) {
    page = Number(qs.page);
    if (!Number.isInteger(page) || page < 0)
      throw badRequest('Invalid page: expected a whole number from 0', { param: 'page' });
  }
  return { start, end, page };
}

const counts = z.record(z.string(), z.number().int());
export const dashboardReply = z.looseObject({
  range: z.object({ start: z.number(), end: z.number() }),
  testStatus: counts.optional(),
  clinicalReview: counts.optional(),
  billingReview: counts.optional(),
  billingAttention: z.number().int().optional(),
  unreadMessages: z.number().int().optional(),
  recentlyCompleted: z
    .looseObject({
      content: z.array(z.looseObject({ id: z.string() })),
      totalElements: z.number(),
      page: z.number(),
      perPage: z.number(),
    })
    .optional(),
});

export async function dashboardRoutes(app: FastifyInstance, opts: { modules: DomainModule[] }) {
  typed(app).get(
    '/dashboard',
    {
      config: { permission: 'VIEW_HOME_PAGE' },
      schema: {
        tags: ['dashboard'],
        summary:
          'Home dashboard counters in the user scope: testStatus, clinicalReview (CAN_REVIEW_DIAGNOSIS), ' +
          'billingReview and billingAttention (VIEW_BILLING_DASHBOARD), unreadMessages, recentlyCompleted',
        querystring: dashboardQuerystring,
        response: { 200: dashboardReply, ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const q = parseDashboardQuery(req.query);
      const parts = await Promise.all(opts.modules.map((m) => m.dashboard?.(user, q) ?? Promise.resolve({})));
      return {
        range: { start: q.start.getTime(), end: q.end.getTime() },
        ...Object.assign({}, ...parts),
      };
    },
  );
}
