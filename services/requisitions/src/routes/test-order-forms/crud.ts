import type { FastifyInstance } from 'fastify';
import { idParams, requireUser, typed } from '@onco/platform';
import { createRequisition, getRequisition, removeRequisition, saveRequisition } from '../../use-cases';
import { REQUISITION_READ } from '../audit';
import { present, replies, saveBody, tags, type TestOrderFormRouteOptions } from './shapes';

/** GET, POST, PUT and DELETE of one requisition: load, create a draft, save (or delete), soft-delete. */
export function registerCrudRoutes(app: FastifyInstance, { deps }: TestOrderFormRouteOptions) {
  const r = typed(app);
  r.get(
    '/testOrderForms/:id',
    {
      config: { permission: ['VIEW_ORDER_PAGE', 'VIEW_ORDERS_PAGE'], audit: REQUISITION_READ },
      schema: {
        tags,
        summary: 'Load a requisition (with the summary actions this user may take)',
        params: idParams,
        response: replies,
      },
    },
    async (req) => {
      const user = requireUser(req);
      return present(deps, user, await getRequisition(deps, user, req.params.id, { includeDeleted: true }));
    },
  );

  r.post(
    '/testOrderForms',
    {
      config: { permission: 'CAN_CREATE_TRF' },
      schema: { tags, summary: 'Create a draft requisition', body: saveBody, response: replies },
    },
    async (req) => {
      const user = requireUser(req);
      return present(deps, user, await createRequisition(deps, user, req.body as any));
    },
  );

  r.put(
    '/testOrderForms/:id',
    {
      config: { permission: ['CAN_CREATE_TRF', 'CAN_EDIT_TRF', 'CAN_DELETE_TRF', 'CAN_REVIEW_DIAGNOSIS'] },
      schema: {
        tags,
        summary:
          'Save a requisition: status DRAFT for a draft save (never changes a submitted one); deleted=true deletes; a clinical reviewer without Edit saves only the specimens and clinicalReviewStatus of a submitted one',
        params: idParams,
        body: saveBody,
        response: replies,
      },
    },
    async (req) => {
      const user = requireUser(req);
      return present(deps, user, await saveRequisition(deps, user, req.params.id, req.body as any));
    },
  );

  r.delete(
    '/testOrderForms/:id',
    {
      config: { permission: ['CAN_CREATE_TRF', 'CAN_DELETE_TRF'] },
      schema: { tags, summary: 'Soft-delete a requisition', params: idParams, response: replies },
    },
    async (req) => {
      const user = requireUser(req);
      return present(deps, user, await removeRequisition(deps, user, req.params.id));
    },
  );
}
