import { DELIVERY_METHODS, DELIVERY_METHOD_LABELS } from '@onco/domain';
import type {
  LocationSnapshot,
  NormalSpecimen,
  OrderingProviderSnapshot,
  PatientSnapshot,
  ProviderSnapshot,
  RequisitionBilling,
  TumorSpecimen,
} from '../../models/requisition';
import { block, certification, escapeHtml, label, row } from '../form-html';
import type { RequisitionDoc } from '../../models/requisition';
import {
  addressText,
  breadcrumbText,
  e,
  formatDate,
  formatDateTime,
  icd10List,
  lbl,
  personName,
  yesNo,
} from './format';

/** The blocks of the filled form, numbered as on the blank form, with the requisition's values. */

const TEST_NAMES: Record<string, string> = {
  NEXT_DX: 'NeXT Dx',
  NEXT_PERSONAL_DX: 'NeXT Personal Dx',
};

/** a labelled value; `w` is the share of the row it takes */
const field = (caption: string, value: string, w = 1) =>
  `<div class="f" style="flex:${w}"><div class="v">${value || '&nbsp;'}</div><div class="cap">${escapeHtml(caption)}</div></div>`;
const check = (on: boolean, text: string) =>
  `<span class="opt"><span class="cb${on ? ' on' : ''}">${on ? '&#10003;' : ''}</span>${escapeHtml(text)}</span>`;

function locationRows(loc: LocationSnapshot | null | undefined, caption = 'Location'): string {
  return `${row(field(caption, e(loc?.name)))}
    ${row(field('Address', e(addressText(loc?.address))))}
    ${row(field('Telephone', e(loc?.address?.telephone)), field('Fax', e(loc?.address?.fax)))}`;
}

function providerRows(p: ProviderSnapshot | null | undefined): string {
  return `${row(field('Name', e(personName(p)), 1.6), field('NPI', e(p?.userId), 0.9))}
    ${row(field('Phone', e(p?.phone)), field('Fax', e(p?.fax)))}
    ${row(field('Email', e(p?.email)))}`;
}

function billingColumn(title: string, b: RequisitionBilling | undefined): string {
  if (!b) return `<div><h3>${escapeHtml(title)}</h3><div class="muted">None</div></div>`;
  const insured = ['INSURANCE', 'MEDICARE', 'MEDICAID'].includes(b.billingType);
  return `<div>
    <h3>${escapeHtml(title)}</h3>
    ${row(field('Bill to', lbl(b.billingType)))}
    ${
      insured
        ? `${row(field('Insurance provider / payor', e(b.insuranceProvider), 1.6), field('Payor id', e(b.payorId)))}
    ${row(field('Policy #', e(b.policyNumber)), field('Group #', e(b.groupNumber)))}
    ${row(field('Insured name', e(b.insuredName), 1.4), field('Insured DOB', e(formatDate(b.insuredDob)), 0.8))}
    ${row(field('Relationship to patient', lbl(b.relationshipToPatient)), field('Patient status', lbl(b.patientStatus)))}
    ${row(field('Prior authorization #', e(b.priorAuthorizationNumber)), field('Discharge date', e(formatDate(b.dischargeDate))))}`
        : ''
    }
    ${b.billingType === 'FACILITY' ? row(field('Facility', e(b.facilityTypeName))) : ''}
    ${b.billingType === 'OTHER' ? row(field('Other (specified)', e(b.otherTypeName))) : ''}
  </div>`;
}

/** The requisition fields the form prints. */
export type TrfFormRequisition = Pick<
  RequisitionDoc,
  | '_id'
  | 'testRequisitionId'
  | 'status'
  | 'patient'
  | 'physician'
  | 'account'
  | 'hospitalLocation'
  | 'pathologist'
  | 'pathologistLocation'
  | 'additionalPhysician'
  | 'additionalPhysicianLocation'
  | 'orderInformation'
  | 'testOrders'
  | 'parentTestOrderForm'
  | 'tumorSpecimen'
  | 'normalSpecimen'
  | 'billings'
  | 'attachments'
  | 'approvals'
  | 'consent'
  | 'comment'
  | 'kitId'
  | 'isNYState'
>;

export function testSelectionSection(trf: TrfFormRequisition): string {
  const oi = trf.orderInformation ?? { nextDx: false, nextPersonalDx: false, orderType: null };
  return block(
    1,
    'Test Selection',
    `${row(
      `<div class="f" style="flex:2">${check(!!oi.nextDx, 'NeXT Dx (tumor-informed diagnostic test)')}${check(
        !!oi.nextPersonalDx,
        'NeXT Personal Dx (personalized monitoring)',
      )}</div>`,
      field('Order type', lbl(oi.orderType)),
    )}
    ${row(
      field('Prior TRF # (subsequent order)', e(trf.parentTestOrderForm?.testRequisitionId)),
      field('LIMS project id(s)', e((trf.parentTestOrderForm?.limsProjectIds ?? []).join(', '))),
      field('Kit id', e(trf.kitId)),
    )}
    ${
      trf.testOrders?.length
        ? `<table><tr><th>Test id</th><th>Test</th><th>Order type</th><th>Status</th></tr>${trf.testOrders
            .map(
              (o) =>
                `<tr><td>${e(o.testOrderId)}</td><td>${e(TEST_NAMES[o.testType] ?? o.testType)}</td><td>${lbl(o.orderType)}</td><td>${lbl(o.status)}</td></tr>`,
            )
            .join('')}</table>`
        : ''
    }`,
    'wide',
  );
}

export function patientSection(p: PatientSnapshot | null | undefined): string {
  const patientName =
    p?.name || [p?.firstName, p?.middleName, p?.lastName].filter((x) => x && x.trim()).join(' ');
  return block(
    2,
    'Patient Information',
    `${row(field('Patient name', e(patientName), 2), field('PAT #', e(p?.userId)))}
    ${row(field('Date of birth', e(formatDate(p?.dateOfBirth))), field('Sex assigned at birth', lbl(p?.birthSex)), field('MRN', e(p?.mrn)))}
    ${row(field('Address', e(addressText(p?.address))))}
    ${row(field('Phone', e(p?.phone)), field('Email', e(p?.email), 1.4))}
    ${row(field('Race', e(p?.race)), field('Ethnicity', e(p?.ethnicity)))}
    ${row(field('Clinical trial', e(p?.trialName)), field('Study patient id', e(p?.studyPatientId)))}`,
  );
}

/** "Deliver report by:" as on the blank form, the chosen method checked (none checked when none was chosen). */
const deliveryRow = (method: string | null | undefined) =>
  row(
    `<div class="f"><div class="v">${DELIVERY_METHODS.map((m) => check(m === method, DELIVERY_METHOD_LABELS[m])).join('')}</div><div class="cap">Deliver report by</div></div>`,
  );

export const providerSection = (physician: OrderingProviderSnapshot | null | undefined) =>
  block(3, 'Ordering Provider', `${providerRows(physician)}\n    ${deliveryRow(physician?.deliveryMethod)}`);

export const accountSection = (trf: TrfFormRequisition) =>
  block(
    4,
    'Account & Location',
    `${row(field('Account', e(trf.account?.name), 1.6), field('Account #', e(trf.account?.accountId), 0.8))}
    ${locationRows(trf.hospitalLocation, 'Hospital / clinic location')}
    ${trf.isNYState ? row(field('New York State patient', 'Yes')) : ''}`,
  );

export const pathologistSection = (trf: TrfFormRequisition) =>
  block(
    5,
    'Pathologist',
    `${row(field('Name', e(trf.pathologist?.name), 1.6), field('NPI', e(trf.pathologist?.npi), 0.9))}
    ${row(field('Phone', e(trf.pathologist?.phone)), field('Fax', e(trf.pathologist?.fax)))}
    ${row(field('Email', e(trf.pathologist?.email)))}
    ${locationRows(trf.pathologistLocation, 'Pathology lab / location')}`,
  );

export const additionalProviderSection = (trf: TrfFormRequisition) =>
  block(
    6,
    'Additional Provider (copy of report)',
    `${providerRows(trf.additionalPhysician)}
    ${locationRows(trf.additionalPhysicianLocation)}`,
  );

export const normalSection = (n: NormalSpecimen | null | undefined) =>
  block(
    7,
    'Normal / Blood Specimen',
    `${row(field('Specimen type', lbl(n?.specimenType)), field('Blood collection', lbl(n?.collectionMode)))}
    ${row(field('Collection date', e(formatDate(n?.collectionDate))), field('Pre-surgical or pre-biopsy sample', yesNo(n?.isPreSurgicalOrPreBiopsySample)))}`,
  );

export function tumorSection(t: TumorSpecimen | null | undefined): string {
  const codes = icd10List(t?.icd10Codes);
  const diagnosis =
    t?.diagnosis === 'OTHER' ? `Other: ${t?.otherDiagnosis ?? ''}` : t?.diagnosis ? label(t.diagnosis) : '';
  return block(
    8,
    'Tumor Specimen',
    `${row(field('Diagnosis', e(diagnosis), 1.2), field('Primary tumor site', e(t?.primaryTumorSite)), field('Date of diagnosis', e(formatDate(t?.dateOfDiagnosis)), 0.7))}
    ${row(field('Diagnosis path', e(breadcrumbText(t?.octDxBreadCrumb))))}
    <div class="cap" style="margin-top:3pt"><b>ICD-10 diagnosis codes</b></div>
    <div class="icd">${codes.length ? codes.map((c) => `<span>${e(c)}</span>`).join('') : '<span class="muted">None</span>'}</div>
    <div class="cols">
      <div>
        ${row(field('Stage', t?.stage === 'OTHER' ? e(`Other: ${t?.otherStage ?? ''}`) : lbl(t?.stage)), field('Disease status', lbl(t?.diseaseStatus)))}
        ${row(field('Current therapies', e((t?.currentTherapies ?? []).join(', '))))}
        ${row(field('Prior therapies', e((t?.priorTherapies ?? []).join(', '))))}
        ${row(field('Planning or receiving immunotherapy', yesNo(t?.planOrReceivingImmunotherapy)), field('Drug name', e(t?.drugName)))}
        ${row(field('Pathology review of the diagnosis requested', yesNo(t?.reviewDiagnosis)))}
      </div>
      <div>
        ${row(field('Specimen request', lbl(t?.specimenRequestType)), field('Tissue', lbl(t?.ffpeTissueObtainMethod)))}
        ${row(field('Specimen id / block id', e(t?.specimenId), 1.2), field('Collection date', e(formatDate(t?.collectionDate)), 0.9), field('Tumor %', t?.content != null ? `${t.content}%` : '', 0.5))}
        ${row(field('Specimen type', lbl(t?.specimenType)), field('Biopsy site', t?.specimenBiopsySite === 'OTHER' ? e(`Other: ${t?.otherBiopsySite ?? ''}`) : lbl(t?.specimenBiopsySite)))}
        ${row(field('Do not exhaust the specimen', yesNo(t?.doNotExhaust)))}
      </div>
    </div>`,
    'wide',
  );
}

/** the primary billing (or the one without a preference) and the secondary, archived ones left out */
export function billingSection(all: RequisitionBilling[] | null | undefined): string {
  const billings = (all ?? []).filter((b) => !b.archived);
  const primary = billings.find((b) => b.preference === 'PRIMARY') ?? billings.find((b) => !b.preference);
  const secondary = billings.find((b) => b.preference === 'SECONDARY' && b !== primary);
  return block(
    9,
    'Billing',
    `<div class="cols">${billingColumn('Primary', primary)}${billingColumn('Secondary', secondary)}</div>`,
    'wide',
  );
}

/** the attachments sent with the requisition (its TRFs left out), their dates in `tz` */
export function attachmentsSection(all: TrfFormRequisition['attachments'], tz: string): string {
  const attachments = (all ?? []).filter((a) => a.type !== 'TRF');
  return block(
    10,
    'Attachments',
    attachments.length
      ? `<table><tr><th>Name</th><th>Type</th><th>Added</th></tr>${attachments
          .map(
            (a) =>
              `<tr><td>${e(a.name)}</td><td>${lbl(a.type)}</td><td>${e(formatDate(new Date(a.createdOn), tz))}</td></tr>`,
          )
          .join('')}</table>`
      : '<div class="muted">No attachments</div>',
    'wide',
  );
}

/** the comments for the laboratory: no block when there are none */
export const commentsSection = (comment: string | null | undefined) =>
  comment ? block(0, 'Comments for the Laboratory', `<div>${e(comment)}</div>`, 'wide') : '';

/** the consent, the certification and the electronic signature (the newest approval); `lab` escaped */
export function consentSection(trf: TrfFormRequisition, lab: string, tz: string): string {
  const approval = [...(trf.approvals ?? [])].sort(
    (a, b) => new Date(b.createdOn).getTime() - new Date(a.createdOn).getTime(),
  )[0];
  return block(
    11,
    'Consent & Provider Signature',
    `<div class="consent">
      <p>${check(trf.consent === true, 'The patient has given informed consent to the testing ordered on this form.')}</p>
      ${certification(lab)}
    </div>
    <div class="sig">${
      approval
        ? `<div>Electronically signed by</div><div class="who">${e(approval.approvedBy?.name)}</div>
           <div>on ${e(formatDateTime(new Date(approval.createdOn), tz))}</div>`
        : '<div class="muted">Not signed</div>'
    }</div>`,
    'wide',
  );
}
