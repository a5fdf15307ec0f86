import {
  domainPreferenceKey,
  fieldView,
  sampleWorkflow,
  type SampleRuleConfig,
  type SpecimenKind,
  type WorkflowPreference,
} from '@onco/domain';
import { notFound, toApi, type SessionUser } from '@onco/platform';
import type { LabModels, SampleDoc, TestOrderDoc } from '../models';
import { testOrderScope } from '../use-cases';
import { knownDomains } from './preferences';
import { sampleOut } from './rules';

export interface SampleServiceOptions {
  /** the one account whose tumor samples need a diagnosis and clinical review REVIEW_COMPLETE to PROCEED */
  reviewAccountId?: string | null;
  /** the clock (tests) */
  now?: () => Date;
}

import type { LabRequisitionView } from './view';

export type { LabRequisitionView };

/** The requisition as the lab knows it, in the user's scope, or 404 (unknown and out of scope look the same). */
export async function labRequisition(
  models: LabModels,
  user: SessionUser,
  id: string,
): Promise<LabRequisitionView> {
  const orders = await models.TestOrder.find({ 'testOrderForm.id': id, ...testOrderScope(user) })
    .sort({ createdOn: 1, _id: 1 })
    .lean<TestOrderDoc[]>()
    .exec();
  if (!orders.length) throw notFound(`Requisition ${id} was not found.`);
  return requisitionView(id, orders);
}

/** The requisition of test orders (all of one requisition, oldest first), as the sample rules see it. */
export function requisitionView(id: string, orders: readonly TestOrderDoc[]): LabRequisitionView {
  const live = orders.filter((o) => !o.deleted);
  const f = (live[0] ?? orders[0]).testOrderForm;
  return {
    id,
    testRequisitionId: f.testRequisitionId ?? null,
    accountId: f.account?.id ?? null,
    accountName: f.account?.name ?? null,
    physician: f.physician ?? null,
    patient: f.patient ?? null,
    testOrders: live.map((o) => ({
      id: o._id,
      testOrderId: o.testOrderId,
      testType: o.testType,
      orderType: o.orderType,
      status: o.status,
      limsProjectId: o.limsProjectId ?? null,
    })),
    diagnosis: f.diagnosis ?? null,
    clinicalReviewStatus: f.reviewStatus ?? null,
    deleted: live.length === 0,
  };
}

/** The samples requisition (spec 2 section 3): the requisition's tumors, normals and plasmas, and what the rules need. */
export async function samplesRequisition(
  models: LabModels,
  user: SessionUser,
  id: string,
  opts: SampleServiceOptions = {},
) {
  const req = await labRequisition(models, user, id);
  const [samples, groups, domains] = await Promise.all([
    models.Sample.find({ 'testOrderForm.id': id, deleted: false })
      .sort({ createdOn: 1, _id: 1 })
      .lean<SampleDoc[]>()
      .exec(),
    models.SampleGroup.find({ 'testOrderForm.id': id, deleted: false }).sort({ createdOn: 1 }).lean().exec(),
    knownDomains(models),
  ]);
  const key = domainPreferenceKey(req, 'TUMOR', '', domains);
  // the workflow each sample is added to or ignored by (spec 2 section 2.8; @onco/domain sampleWorkflow): the
  // requisition's preferences of every tissue and specimen type; none for a deleted requisition (no job)
  const prefs = req.deleted
    ? null
    : await models.DomainPreference.find(
        { domain: key.domain, testType: key.testType, orderType: key.orderType },
        { tissueType: 1, specimenType: 1, rank: 1, workflowAssignId: 1 },
      )
        .lean<WorkflowPreference[]>()
        .exec();
  // a user without VIEW_LIMS_INFORMATION sees no LIMS project, on a sample or a test (fieldView)
  const view = fieldView(user.grantedAuthorities);
  const of = (type: SpecimenKind) =>
    samples
      .filter((s) => s.type === type)
      .map((s) => ({ ...view.sample(sampleOut(s)), workflow: prefs ? sampleWorkflow(s, prefs) : null }));
  const { id: _id, ...seen } = req;
  const requisition = { ...seen, testOrders: seen.testOrders.map((t) => view.sample(t)) };
  return {
    id,
    testRequisitionId: req.testRequisitionId,
    deleted: req.deleted,
    requisition,
    domain: key.domain,
    ruleConfig: { reviewAccountId: opts.reviewAccountId ?? null } satisfies SampleRuleConfig,
    /** the sample group of the first PROCEED sample (the dialog pre-fills it) */
    sampleGroupId: samples.find((s) => s.status === 'PROCEED' && s.sampleGroupId)?.sampleGroupId ?? null,
    sampleGroups: groups.map((g) => toApi(g)),
    tumors: of('TUMOR'),
    normals: of('NORMAL'),
    plasmas: of('PLASMA'),
  };
}

/**
 * The account whose tumor samples need a diagnosis and a completed clinical review to PROCEED: configuration
 * SAMPLE_REVIEW_ACCOUNT (an account id; empty: none).
 */
export function sampleReviewAccount(config: { SAMPLE_REVIEW_ACCOUNT: string }): string | null {
  return config.SAMPLE_REVIEW_ACCOUNT || null;
}
