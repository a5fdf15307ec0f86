import { z } from 'zod';
import { errorReplies, toApi, type SessionUser } from '@onco/platform';
import { fieldView, RequisitionFormSchema } from '@onco/domain';
import type { RequisitionDoc, RequisitionModels } from '../../models';
import { requisitionActionsFor, type RequisitionDeps } from '../../use-cases';

/** What the requisition routes take (testOrderFormRoutes' options). */
export interface TestOrderFormRouteOptions {
  models: RequisitionModels;
  deps: RequisitionDeps;
}

export const tags = ['requisitions'];

const requisitionReply = z.looseObject({ id: z.string() });
export const replies = { 200: requisitionReply, ...errorReplies, 422: errorReplies[400] };
export const saveBody = z.intersection(
  RequisitionFormSchema as z.ZodTypeAny,
  z.looseObject({ deleted: z.boolean().optional(), version: z.number().int().optional() }),
);
export const submitBody = z.intersection(
  RequisitionFormSchema as z.ZodTypeAny,
  z.looseObject({ id: z.string().min(1).max(64).optional(), version: z.number().int().optional() }),
);

/**
 * A requisition as the API shows it to one user: the actions its summary may offer them (spec 1 section 4),
 * without the fields their permissions withhold (`fieldView`: due dates, LIMS project ids).
 */
export function present(deps: RequisitionDeps, user: SessionUser, doc: RequisitionDoc) {
  return {
    ...seenBy(user, doc),
    actions: requisitionActionsFor(deps, user, doc),
  };
}

/** A requisition's API shape without the fields the user's permissions withhold. */
export function seenBy(user: SessionUser, doc: RequisitionDoc): { id: string } & Record<string, unknown> {
  return fieldView(user.grantedAuthorities).requisition(toApi(doc));
}
