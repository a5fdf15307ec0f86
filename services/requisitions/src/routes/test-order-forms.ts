import type { FastifyInstance } from 'fastify';
import { idParams, listRoutes, requireUser, typed } from '@onco/platform';
import { requisitionListScope, requisitionsResource } from '../resource';
import { getRequisition, type RequisitionDeps } from '../use-cases';
import { REQUISITION_READ } from './audit';
import { registerSignAndCopyRoutes, registerSubmitRoutes } from './test-order-forms/actions';
import { registerCrudRoutes } from './test-order-forms/crud';
import { registerExportRoutes } from './test-order-forms/export';
import { present, replies, seenBy, type TestOrderFormRouteOptions } from './test-order-forms/shapes';
import { registerTimelineRoute } from './test-order-forms/timeline';

/**
 * /portal/api/v1/testOrderForms: the requisition API (spec 1 section 7, spec 2 section 7). The routes are
 * registered in this plugin itself (its hooks and decorators), in this order, by the functions of
 * test-order-forms/.
 */
export async function testOrderFormRoutes(app: FastifyInstance, opts: TestOrderFormRouteOptions) {
  const { deps, models } = opts;

  listRoutes(app, {
    path: '/testOrderForms',
    resource: requisitionsResource,
    model: models.Requisition,
    permission: 'VIEW_ORDERS_PAGE',
    scope: requisitionListScope,
    tag: 'requisitions',
    noun: 'requisitions',
    summary:
      'List requisitions (Draft and Submitted; deleted only with filter deleted=true and CAN_DELETE_TRF); each row carries the actions this user may take on it',
    map: (doc, user) => present(deps, user, doc),
    // each page served names its rows' patients in the audit trail
    audit: { record: 'requisition', patientOf: (row) => row.patient?.id },
  });

  registerTimelineRoute(app, opts);
  registerExportRoutes(app, opts);
  registerSubmitRoutes(app, opts);
  registerCrudRoutes(app, opts);
  registerSignAndCopyRoutes(app, opts);
}

/** /oms/api/v1/testOrderForms/{id}: a requisition loaded for its samples (spec 2 section 7). */
export async function omsTestOrderFormRoutes(app: FastifyInstance, opts: { deps: RequisitionDeps }) {
  const r = typed(app);
  r.get(
    '/testOrderForms/:id',
    {
      config: {
        permission: ['VIEW_ORDER_PAGE', 'VIEW_TEST_PAGE', 'VIEW_SAMPLE_ACTIONS'],
        audit: REQUISITION_READ,
      },
      schema: {
        tags: ['requisitions'],
        summary: 'Load a requisition for its samples',
        params: idParams,
        response: replies,
      },
    },
    async (req) => {
      const user = requireUser(req);
      return seenBy(user, await getRequisition(opts.deps, user, req.params.id));
    },
  );
}
