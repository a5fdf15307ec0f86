import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { SampleManifestListRow } from '@onco/domain';
import {
  dateOut,
  type Filter,
  type ListQuery,
  type ListResource,
  listRoutes,
  scopeFilter,
  type SessionUser,
} from '@onco/platform';
import type { LabModels, ManifestRequisition, SampleManifestDoc } from '../models';
import { SAMPLE_MANIFEST_STATUSES } from '../models';
import { manifestVisible } from './result-routes';

/**
 * GET /portal/api/v1/sampleManifests (spec 2 section 7 "Samples": "sample manifest list filtered by archived
 * false, patientId, testOrderFormId"; spec 3 section 7.4, the generic list call): the sample manifests, one row a
 * manifest, with the requisitions whose samples it created or updated (docs/decisions.md "Sample manifest list").
 */
export const sampleManifestsResource: ListResource = {
  name: 'sampleManifests',
  fields: {
    id: { type: 'id', path: '_id', filter: true, sort: true },
    name: { type: 'string', filter: true, sort: true },
    status: { type: 'string', filter: true, sort: true },
    archived: { type: 'boolean', filter: true },
    accountId: { type: 'id', path: 'account.id', filter: true },
    uploadedBy: { type: 'string', path: 'uploadedBy.name', filter: true, sort: true },
    testOrderFormId: { type: 'id', path: 'requisitions.testOrderFormId', filter: true },
    testRequisitionId: { type: 'string', path: 'requisitions.testRequisitionId', filter: true },
    patientId: { type: 'id', path: 'requisitions.patientId', filter: true },
    uploadedOn: { type: 'date', filter: true, sort: true },
    processedOn: { type: 'date', filter: true, sort: true },
    createdOn: { type: 'date', filter: true, sort: true },
    updatedOn: { type: 'date', filter: true, sort: true },
  },
  search: ['name', 'uploadedBy.name'],
  defaultSort: { field: 'updatedOn', order: 'desc' },
  defaultPerPage: 15,
  deletedField: 'deleted',
};

/** The requisition filters: what they ask must hold for one requisition of the manifest (`manifestListScope`). */
const ENTRY_FILTERS: Record<string, keyof ManifestRequisition> = {
  testOrderFormId: 'testOrderFormId',
  testRequisitionId: 'testRequisitionId',
  patientId: 'patientId',
};

/** A requisition filter as a condition on one requisition entry (`!in` stays a condition on the manifest). */
function entryCondition(f: Filter): Record<string, unknown> | null {
  const field = ENTRY_FILTERS[f.field];
  if (!field) return null;
  switch (f.op) {
    case 'eq':
      return { [field]: f.values[0] };
    case 'in':
      return { [field]: { $in: f.values } };
    case 'between':
      return { [field]: { $gte: f.values[0], $lte: f.values[1] } };
    case 'nin':
      return null;
  }
}

const allOf = (conds: Record<string, unknown>[]) => (conds.length === 1 ? conds[0]! : { $and: conds });

/**
 * The data scope of the list, and the rule of its requisition filters. Lab and billing staff
 * (VIEW_ALL_ACCOUNTS) see every manifest. Anyone else sees a manifest they may read whole (its account is
 * theirs, or they uploaded it: GET /sampleManifests/{id}'s rule), and one that changed samples of a requisition
 * in their scope (its account or physician is theirs). The requisition filters (testOrderFormId, patientId,
 * testRequisitionId) must all hold for one requisition of the manifest, and for a manifest seen through a
 * requisition, for such a requisition: a filter never finds a manifest through a requisition the user may not see.
 */
export function manifestListScope(user: SessionUser, query: ListQuery): Record<string, unknown> {
  const conds = query.filters.map(entryCondition).filter((c): c is Record<string, unknown> => c !== null);
  const oneRequisition = conds.length ? { requisitions: { $elemMatch: allOf(conds) } } : null;
  if (user.allAccounts) return oneRequisition ?? {};
  const whole = scopeFilter(user, { account: 'account.id', owner: 'uploadedBy.id' });
  const inScope = scopeFilter(user, { account: 'accountId', physician: 'physicianId' });
  return {
    $or: [
      oneRequisition ? { $and: [whole, oneRequisition] } : whole,
      { requisitions: { $elemMatch: allOf([inScope, ...conds]) } },
    ],
  };
}

/** A requisition entry of a manifest the user sees (the whole manifest, or a requisition in their scope). */
const entryVisible = (user: SessionUser, e: ManifestRequisition) =>
  (e.accountId != null && user.accountIds.includes(e.accountId)) ||
  (e.physicianId != null && user.physicianIds.includes(e.physicianId));

export const sampleManifestRow = z.object({
  id: z.string().describe('The attachment id of the manifest (GET /sampleManifests/{id} gives its result)'),
  name: z.string().describe('The file name'),
  status: z.enum(SAMPLE_MANIFEST_STATUSES),
  archived: z.boolean(),
  account: z
    .object({ id: z.string().nullable(), name: z.string().nullable() })
    .nullable()
    .describe('The account it was uploaded to'),
  uploadedBy: z.object({ id: z.string().nullable(), name: z.string().nullable() }).nullable(),
  uploadedOn: dateOut,
  processedOn: dateOut.nullable(),
  createdOn: dateOut,
  updatedOn: dateOut,
  requisitions: z
    .array(
      z.object({
        testOrderFormId: z.string(),
        testRequisitionId: z.string().nullable(),
        patientId: z.string().nullable(),
        created: z.number().int().describe("this requisition's samples the manifest created"),
        updated: z.number().int().describe("this requisition's samples the manifest updated"),
      }),
    )
    .describe(
      'PROCESSED: the requisitions whose samples it created or updated (in the order of their first row); ' +
        'only those in your data scope unless you may read the whole manifest. Empty for UPLOADED and ERROR.',
    ),
});

/** One manifest as the list shows it to `user`. */
export function sampleManifestToRow(
  m: SampleManifestDoc,
  user: SessionUser,
): z.infer<typeof sampleManifestRow> & SampleManifestListRow<Date> {
  const whole = manifestVisible(user, m);
  return {
    id: m._id,
    name: m.name,
    status: m.status,
    archived: m.archived ?? false,
    account: m.account ? { id: m.account.id ?? null, name: m.account.name ?? null } : null,
    uploadedBy: m.uploadedBy ? { id: m.uploadedBy.id ?? null, name: m.uploadedBy.name ?? null } : null,
    uploadedOn: m.uploadedOn,
    processedOn: m.processedOn ?? null,
    createdOn: m.createdOn,
    updatedOn: m.updatedOn,
    requisitions: (m.requisitions ?? [])
      .filter((e) => whole || entryVisible(user, e))
      .map((e) => ({
        testOrderFormId: e.testOrderFormId,
        testRequisitionId: e.testRequisitionId ?? null,
        patientId: e.patientId ?? null,
        created: e.created,
        updated: e.updated,
      })),
  };
}

/**
 * The list route: for the Attachment Box (VIEW_BOX_PAGE) and the Samples tab of an order (VIEW_ORDER_PAGE).
 * Unknown filter fields are a 400, as on every list.
 */
export function registerManifestListRoutes(app: FastifyInstance, opts: { models: LabModels }) {
  listRoutes(app, {
    path: '/sampleManifests',
    resource: sampleManifestsResource,
    model: opts.models.SampleManifest,
    permission: ['VIEW_BOX_PAGE', 'VIEW_ORDER_PAGE'],
    scope: manifestListScope,
    tag: 'sample manifests',
    noun: 'sample manifests',
    summary:
      'List sample manifests (both list dialects): filter archived, patientId, testOrderFormId, status, ' +
      'uploadedOn, ...; each with the requisitions whose samples it created or updated',
    map: (doc: SampleManifestDoc, user) => sampleManifestToRow(doc, user),
    row: sampleManifestRow,
    // each page served names the patients of the requisitions its manifests changed
    audit: {
      record: 'sample',
      patientOf: (row: { requisitions: Array<{ patientId: string | null }> }) =>
        row.requisitions.map((r) => r.patientId),
    },
  });
}

/**
 * Manifests stored before `archived` existed get `archived: false`, so the spec's `archived=false` filter finds
 * them (their requisitions cannot be recovered: they are not found by testOrderFormId or patientId). Run at
 * start; a no-op once done.
 */
export async function backfillManifestArchived(models: Pick<LabModels, 'SampleManifest'>): Promise<void> {
  await models.SampleManifest.updateMany(
    { archived: { $exists: false } },
    { $set: { archived: false } },
  ).exec();
}
