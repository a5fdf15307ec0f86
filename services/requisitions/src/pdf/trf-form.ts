import type {
  Address,
  LocationSnapshot,
  ProviderSnapshot,
  RequisitionBilling,
  RequisitionDoc,
} from '../models/requisition';
import { BLANK_FORM_VERSION, escapeHtml, label } from './blank-form';

/**
 * The filled Test Requisition Form (TRF) of a submitted requisition, form version 102-210-C: the blocks of the
 * blank form (blank-form.ts) with the requisition's values, the requisition number (testRequisitionId) in the
 * header, the ICD-10 codes, the attachments sent with it, the consent and the electronic signature (the
 * approval's signer and time). Self-contained HTML: no scripts, nothing fetched (rendered offline).
 */

export const TRF_FORM_VERSION = BLANK_FORM_VERSION;

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

export interface TrfFormOptions {
  formVersion?: string;
  labName?: string;
  /** when the requisition was submitted (printed in the header) */
  submittedOn?: Date | null;
  /** the time zone of printed times (default UTC) */
  timeZone?: string;
  /** the print time (default now) */
  now?: Date;
}

const TEST_NAMES: Record<string, string> = {
  NEXT_DX: 'NeXT Dx',
  NEXT_PERSONAL_DX: 'NeXT Personal Dx',
};

const e = (v: unknown): string => (v === null || v === undefined ? '' : escapeHtml(String(v)));
const lbl = (v: string | null | undefined): string => (v ? escapeHtml(label(v)) : '');

/** 'YYYY-MM-DD' (calendar date) or a Date as MM/DD/YYYY (spec 1 section 9: date display MM/DD/YYYY). */
export function formatDate(v: string | Date | null | undefined, timeZone = 'UTC'): string {
  if (!v) return '';
  if (typeof v === 'string') {
    const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(v);
    return m ? `${m[2]}/${m[3]}/${m[1]}` : v;
  }
  const p = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(v);
  const get = (t: string) => p.find((x) => x.type === t)?.value ?? '';
  return `${get('month')}/${get('day')}/${get('year')}`;
}

/** A Date as 'MM/DD/YYYY hh:mm AM' in the time zone (spec: time hh:mm a). */
export function formatDateTime(v: Date | string | null | undefined, timeZone = 'UTC'): string {
  if (!v) return '';
  const d = typeof v === 'string' ? new Date(v) : v;
  if (Number.isNaN(d.getTime())) return '';
  const time = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hour12: true,
  }).format(d);
  return `${formatDate(d, timeZone)} ${time} ${timeZone === 'UTC' ? 'UTC' : ''}`.trim();
}

/** The stored diagnosis path (JSON text of [{name, code}] or a plain string) as 'Name (CODE) -> ...'. */
export function breadcrumbText(raw: string | null | undefined): string {
  if (!raw) return '';
  try {
    const v = JSON.parse(raw) as unknown;
    if (Array.isArray(v)) {
      return v
        .map((x) =>
          x && typeof x === 'object'
            ? `${(x as any).name ?? ''}${(x as any).code ? ` (${(x as any).code})` : ''}`.trim()
            : String(x),
        )
        .filter(Boolean)
        .join(' -> ');
    }
    if (typeof v === 'string') return v;
    if (v && typeof v === 'object' && typeof (v as any).octDxBreadCrumb === 'string')
      return (v as any).octDxBreadCrumb;
  } catch {
    // plain text
  }
  return raw;
}

/** The ICD-10 codes of the tumor specimen (comma-separated text) as a list, in entry order, distinct. */
export function icd10List(raw: string | null | undefined): string[] {
  if (!raw) return [];
  return [
    ...new Set(
      raw
        .split(',')
        .map((c) => c.trim())
        .filter(Boolean),
    ),
  ];
}

const yesNo = (v: boolean | null | undefined) => (v === true ? 'Yes' : v === false ? 'No' : '');
const personName = (p: ProviderSnapshot | null | undefined) =>
  p ? p.name || [p.lastName, p.firstName].filter(Boolean).join(', ') : '';
const addressText = (a: Address | null | undefined) =>
  a
    ? [a.street, [a.city, [a.state, a.postalCode].filter(Boolean).join(' ')].filter(Boolean).join(', ')]
        .filter(Boolean)
        .join(', ')
    : '';

/** a labelled value; `w` is the share of the row it takes */
const field = (caption: string, value: string, w = 1) =>
  `<div class="f" style="flex:${w}"><div class="v">${value || '&nbsp;'}</div><div class="cap">${escapeHtml(caption)}</div></div>`;
const row = (...cells: string[]) => `<div class="row">${cells.join('')}</div>`;
const check = (on: boolean, text: string) =>
  `<span class="opt"><span class="cb${on ? ' on' : ''}">${on ? '&#10003;' : ''}</span>${escapeHtml(text)}</span>`;
const block = (n: number, title: string, body: string, extra = '') =>
  `<section class="blk ${extra}"><h2>${n ? `<span class="n">${n}</span>` : ''}${escapeHtml(title)}</h2><div class="body">${body}</div></section>`;

const CSS = `
@page { size: Letter; margin: 0.4in 0.45in 0.45in 0.45in; }
* { box-sizing: border-box; }
html, body { margin: 0; padding: 0; }
body { font-family: "Liberation Sans", "DejaVu Sans", Arial, Helvetica, sans-serif; font-size: 8pt; color: #111;
  -webkit-print-color-adjust: exact; print-color-adjust: exact; }
header { display: flex; align-items: stretch; border-bottom: 2.5pt solid #0b4f6c; padding-bottom: 5pt; margin-bottom: 6pt; }
.brand { flex: 1; }
.lab { font-size: 9pt; font-weight: bold; letter-spacing: 0.5pt; color: #0b4f6c; text-transform: uppercase; }
h1 { font-size: 17pt; margin: 3pt 0 0 0; color: #0b4f6c; }
.version { font-size: 8pt; margin-top: 1pt; }
.trfno { width: 2.6in; border: 1.2pt solid #0b4f6c; padding: 4pt 6pt; font-size: 7.5pt; }
.trfno .t { font-weight: bold; text-transform: uppercase; color: #0b4f6c; }
.trfno .num { font-size: 15pt; font-weight: bold; margin: 2pt 0; letter-spacing: 0.5pt; }
.grid { display: grid; grid-template-columns: 1fr 1fr; gap: 5pt; }
.blk { border: 0.8pt solid #0b4f6c; break-inside: avoid; page-break-inside: avoid; }
.blk.wide { grid-column: 1 / span 2; }
.blk h2 { margin: 0; font-size: 8.5pt; background: #0b4f6c; color: #fff; padding: 2pt 5pt; text-transform: uppercase; letter-spacing: 0.4pt; }
.blk h2 .n { display: inline-block; background: #fff; color: #0b4f6c; border-radius: 50%; width: 11pt; height: 11pt;
  text-align: center; line-height: 11pt; margin-right: 5pt; font-size: 7.5pt; }
.body { padding: 3pt 5pt 4pt 5pt; }
.row { display: flex; gap: 8pt; align-items: flex-end; margin-top: 2pt; }
.f { min-width: 0; }
.v { border-bottom: 0.6pt solid #888; min-height: 11pt; font-size: 8.5pt; padding: 0 1pt; overflow-wrap: anywhere; }
.cap { font-size: 6.2pt; color: #444; padding-top: 0.5pt; white-space: nowrap; }
.opt { display: inline-block; margin-right: 9pt; white-space: nowrap; }
.cb { display: inline-block; width: 8pt; height: 8pt; border: 0.8pt solid #222; margin-right: 3pt; vertical-align: -1pt;
  font-size: 7pt; line-height: 7pt; text-align: center; font-weight: bold; }
.cb.on { background: #e6f0f4; }
.icd { display: flex; gap: 5pt; margin-top: 2pt; flex-wrap: wrap; }
.icd span { border: 0.8pt solid #444; padding: 2pt 5pt; font-weight: bold; font-size: 9pt; }
.cols { display: grid; grid-template-columns: 1fr 1fr; gap: 8pt; }
.cols h3 { font-size: 8pt; margin: 2pt 0 0 0; color: #0b4f6c; text-transform: uppercase; }
table { width: 100%; border-collapse: collapse; margin-top: 2pt; }
th, td { text-align: left; border-bottom: 0.5pt solid #bbb; padding: 1.5pt 3pt; font-size: 7.5pt; }
th { color: #0b4f6c; font-size: 6.8pt; text-transform: uppercase; }
.consent p { margin: 2pt 0; font-size: 7pt; line-height: 9pt; text-align: justify; }
.sig { margin-top: 4pt; border: 0.8pt solid #0b4f6c; background: #f2f7f9; padding: 4pt 6pt; }
.sig .who { font-size: 10pt; font-weight: bold; }
.muted { color: #666; }
footer { position: fixed; bottom: 0; left: 0; right: 0; font-size: 6.5pt; color: #555; display: flex; justify-content: space-between;
  border-top: 0.5pt solid #999; padding-top: 2pt; }
`;

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

export function trfFormHtml(trf: TrfFormRequisition, opts: TrfFormOptions = {}): string {
  const version = e(opts.formVersion ?? TRF_FORM_VERSION);
  const lab = e(opts.labName ?? 'OncoTRF Clinical Genomics Laboratory');
  const tz = opts.timeZone ?? 'UTC';
  const number = e(trf.testRequisitionId);
  const p = trf.patient;
  const t = trf.tumorSpecimen;
  const n = trf.normalSpecimen;
  const oi = trf.orderInformation ?? { nextDx: false, nextPersonalDx: false, orderType: null };
  const codes = icd10List(t?.icd10Codes);
  const approval = [...(trf.approvals ?? [])].sort(
    (a, b) => new Date(b.createdOn).getTime() - new Date(a.createdOn).getTime(),
  )[0];
  const billings = (trf.billings ?? []).filter((b) => !b.archived);
  const primary = billings.find((b) => b.preference === 'PRIMARY') ?? billings.find((b) => !b.preference);
  const secondary = billings.find((b) => b.preference === 'SECONDARY' && b !== primary);
  const attachments = (trf.attachments ?? []).filter((a) => a.type !== 'TRF');
  const patientName =
    p?.name || [p?.firstName, p?.middleName, p?.lastName].filter((x) => x && x.trim()).join(' ');

  const testSelection = block(
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

  const patient = block(
    2,
    'Patient Information',
    `${row(field('Patient name', e(patientName), 2), field('PAT #', e(p?.userId)))}
    ${row(field('Date of birth', e(formatDate(p?.dateOfBirth))), field('Sex assigned at birth', lbl(p?.birthSex)), field('MRN', e(p?.mrn)))}
    ${row(field('Address', e(addressText(p?.address))))}
    ${row(field('Phone', e(p?.phone)), field('Email', e(p?.email), 1.4))}
    ${row(field('Race', e(p?.race)), field('Ethnicity', e(p?.ethnicity)))}
    ${row(field('Clinical trial', e(p?.trialName)), field('Study patient id', e(p?.studyPatientId)))}`,
  );

  const provider = block(3, 'Ordering Provider', providerRows(trf.physician));

  const account = block(
    4,
    'Account & Location',
    `${row(field('Account', e(trf.account?.name), 1.6), field('Account #', e(trf.account?.accountId), 0.8))}
    ${locationRows(trf.hospitalLocation, 'Hospital / clinic location')}
    ${trf.isNYState ? row(field('New York State patient', 'Yes')) : ''}`,
  );

  const pathologist = block(
    5,
    'Pathologist',
    `${row(field('Name', e(trf.pathologist?.name), 1.6), field('NPI', e(trf.pathologist?.npi), 0.9))}
    ${row(field('Phone', e(trf.pathologist?.phone)), field('Fax', e(trf.pathologist?.fax)))}
    ${row(field('Email', e(trf.pathologist?.email)))}
    ${locationRows(trf.pathologistLocation, 'Pathology lab / location')}`,
  );

  const additional = block(
    6,
    'Additional Provider (copy of report)',
    `${providerRows(trf.additionalPhysician)}
    ${locationRows(trf.additionalPhysicianLocation)}`,
  );

  const normal = block(
    7,
    'Normal / Blood Specimen',
    `${row(field('Specimen type', lbl(n?.specimenType)), field('Blood collection', lbl(n?.collectionMode)))}
    ${row(field('Collection date', e(formatDate(n?.collectionDate))), field('Pre-surgical or pre-biopsy sample', yesNo(n?.isPreSurgicalOrPreBiopsySample)))}`,
  );

  const diagnosis =
    t?.diagnosis === 'OTHER' ? `Other: ${t?.otherDiagnosis ?? ''}` : t?.diagnosis ? label(t.diagnosis) : '';
  const tumor = block(
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

  const billing = block(
    9,
    'Billing',
    `<div class="cols">${billingColumn('Primary', primary)}${billingColumn('Secondary', secondary)}</div>`,
    'wide',
  );

  const attachmentList = block(
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

  const comments = trf.comment
    ? block(0, 'Comments for the Laboratory', `<div>${e(trf.comment)}</div>`, 'wide')
    : '';

  const consent = block(
    11,
    'Consent & Provider Signature',
    `<div class="consent">
      <p>${check(trf.consent === true, 'The patient has given informed consent to the testing ordered on this form.')}</p>
      <p>I certify that the test(s) ordered on this form are medically necessary for the diagnosis or treatment of this patient
      and that the results will be used in the patient's medical management. The patient has been informed of the purpose,
      benefits and limitations of genomic testing, has consented to testing of the specimens named above, and has authorized
      ${lab} to release the results to the providers named on this form and to bill the payor(s) named above.</p>
    </div>
    <div class="sig">${
      approval
        ? `<div>Electronically signed by</div><div class="who">${e(approval.approvedBy?.name)}</div>
           <div>on ${e(formatDateTime(new Date(approval.createdOn), tz))}</div>`
        : '<div class="muted">Not signed</div>'
    }</div>`,
    'wide',
  );

  const foot = `<footer><span>${lab} &middot; Test Requisition Form ${number}</span><span>Form ${version}</span><span>Printed ${e(formatDateTime(opts.now ?? new Date(), tz))}</span></footer>`;

  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test Requisition Form ${number}</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<style>${CSS}</style></head>
<body>
${foot}
<header>
  <div class="brand">
    <div class="lab">${lab}</div>
    <h1>Test Requisition Form</h1>
    <div class="version">Form version <b>${version}</b></div>
  </div>
  <div class="trfno">
    <div class="t">Requisition number</div>
    <div class="num">${number}</div>
    <div>Submitted ${e(formatDateTime(opts.submittedOn ?? null, tz))}</div>
  </div>
</header>
<div class="grid">
  ${testSelection}
  ${patient}
  ${provider}
  ${account}
  ${pathologist}
  ${additional}
  ${normal}
  ${tumor}
  ${billing}
  ${attachmentList}
  ${comments}
  ${consent}
</div>
</body></html>`;
}
