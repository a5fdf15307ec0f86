import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errorReplies, escapeRegex, searchableText, typed } from '@onco/platform';
import type { BillingModels, BillingSpecialistDoc } from '../models';

const specialistReply = z.object({ id: z.string(), name: z.string(), email: z.string().nullable() });

/** The billing specialist search (Assign Billing User's picker). */
export function registerSpecialistSearchRoute(app: FastifyInstance, opts: { models: BillingModels }) {
  const r = typed(app);
  const { models } = opts;

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
        searchText: { $regex: escapeRegex(searchableText(req.query.q).toLowerCase()) },
      })
        .sort({ name: 1 })
        .limit(req.query.size)
        .lean<BillingSpecialistDoc[]>()
        .exec();
      return { content: rows.map((s) => ({ id: s._id, name: s.name, email: s.email ?? null })) };
    },
  );
}
