import {
  ATTACHMENT_KINDS,
  BILLING_TYPES,
  BIOPSY_SITES,
  BIRTH_SEXES,
  BLOOD_COLLECTION_MODES,
  DELIVERY_METHODS,
  DIAGNOSES,
  DISEASE_STATUSES,
  NORMAL_SPECIMEN_TYPES,
  ORDER_TYPES,
  PATIENT_STATUSES,
  RELATIONSHIPS,
  SPECIMEN_REQUEST_TYPES,
  STAGES,
  TISSUE_OBTAIN_METHODS,
  TUMOR_SPECIMEN_TYPES,
} from '@onco/domain';

/**
 * The blank Test Requisition Form (TRF) a provider prints and fills by hand, laid out like a lab's paper
 * form: two Letter pages, numbered blocks, check boxes for every enumeration the portal's wizard offers
 * (taken from @onco/domain so paper and portal never disagree), write-in lines for everything else.
 * Self-contained HTML: no scripts, no fonts or images fetched from anywhere (rendered offline by chromium).
 */

/** The form version printed on the blank form (spec README: NEXT_DX form version 102-210-C). */
export const BLANK_FORM_VERSION = '102-210-C' as const;
export type BlankFormVersion = typeof BLANK_FORM_VERSION;

export interface BlankFormOptions {
  formVersion?: string;
  /** the laboratory named in the header and on the consent text */
  labName?: string;
}

const ACRONYMS = new Set(['FFPE', 'NED', 'EDTA', 'ABN', 'ICD', 'NPI', 'MRN', 'I', 'II', 'III', 'IV']);

const LABELS: Record<string, string> = {
  INITIAL_ORDER: 'Initial order',
  SUBSEQUENT_ORDER: 'Subsequent order (monitoring time point)',
  COLORECTAL: 'Colorectal',
  NED: 'No evidence of disease (NED)',
  PATHOLOGIST_CHOOSES: 'Pathologist chooses best specimen',
  SPECIFIC_SPECIMEN: 'Use the specimen below',
  CONTACT_PATHOLOGY_LAB: 'Lab to contact pathology',
  SELF_SHIPMENT: 'Site will ship tissue',
  FFPE_SLIDES: 'FFPE slides',
  FFPE_BLOCK: 'FFPE block',
  FRESH_FROZEN_TISSUE: 'Fresh frozen tissue',
  BUFFY_COAT: 'Buffy coat',
  COLLECT_IN_CLINIC: 'Collected in clinic',
  MOBILE_PHLEBOTOMY: 'Mobile phlebotomy',
  INPATIENT_DISCHARGED: 'Inpatient, discharged',
  SELF: 'Self-pay',
  RECENT_PATHOLOGY_REPORT: 'Recent pathology report',
  CYTOLOGY_REPORT: 'Cytology report',
  DIAGNOSTIC_TEST: 'Prior diagnostic test results',
  INSURANCE: 'Insurance',
  ABN: 'Advance Beneficiary Notice (ABN)',
  NOTE: 'Clinical notes',
  FINANCIAL_ASSISTANCE: 'Financial assistance application',
  OTHER: 'Other',
};

/** Enumeration value to printed label: an explicit label, else "WORD_WORD" as "Word word" (acronyms kept). */
export function label(value: string): string {
  if (LABELS[value]) return LABELS[value];
  return value
    .split('_')
    .map((w, i) => (ACRONYMS.has(w) ? w : i === 0 ? w.charAt(0) + w.slice(1).toLowerCase() : w.toLowerCase()))
    .join(' ');
}

export function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

const box = (text: string) => `<span class="opt"><span class="cb"></span>${escapeHtml(text)}</span>`;
const boxes = (values: readonly string[], labelOf: (v: string) => string = label) =>
  values.map((v) => box(labelOf(v))).join('');
/** a labelled write-in line; `w` is the share of the row it takes */
const line = (caption: string, w = 1) =>
  `<div class="f" style="flex:${w}"><div class="ln"></div><div class="cap">${escapeHtml(caption)}</div></div>`;
const row = (...cells: string[]) => `<div class="row">${cells.join('')}</div>`;
const choice = (caption: string, options: string) =>
  `<div class="choice"><span class="q">${escapeHtml(caption)}</span>${options}</div>`;
const block = (n: number, title: string, body: string, extra = '') =>
  `<section class="blk ${extra}"><h2>${n ? `<span class="n">${n}</span>` : ''}${escapeHtml(title)}</h2><div class="body">${body}</div></section>`;

const CSS = `
@page { size: Letter; margin: 0.4in 0.45in 0.45in 0.45in; }
* { box-sizing: border-box; }
html, body { margin: 0; padding: 0; }
body { font-family: "Liberation Sans", "DejaVu Sans", Arial, Helvetica, sans-serif; font-size: 8pt; color: #111;
  -webkit-print-color-adjust: exact; print-color-adjust: exact; }
.page { page-break-after: always; break-after: page; position: relative; padding-bottom: 12pt; }
.page:last-child { page-break-after: auto; break-after: auto; }
header { display: flex; align-items: stretch; border-bottom: 2.5pt solid #0b4f6c; padding-bottom: 5pt; margin-bottom: 6pt; }
.brand { flex: 1; }
.lab { font-size: 9pt; font-weight: bold; letter-spacing: 0.5pt; color: #0b4f6c; text-transform: uppercase; }
.tagline { font-size: 7pt; letter-spacing: 2.5pt; color: #c2410c; font-weight: bold; margin-top: 1pt; }
h1 { font-size: 17pt; margin: 3pt 0 0 0; color: #0b4f6c; }
.version { font-size: 8pt; margin-top: 1pt; }
.labuse { width: 2.3in; border: 1pt solid #0b4f6c; padding: 3pt 5pt; font-size: 7pt; }
.labuse .t { font-weight: bold; text-transform: uppercase; color: #0b4f6c; margin-bottom: 2pt; }
.labuse .row { margin-top: 2pt; }
.note { font-size: 7pt; color: #333; margin: 0 0 5pt 0; }
.grid { display: grid; grid-template-columns: 1fr 1fr; gap: 5pt; }
.blk { border: 0.8pt solid #0b4f6c; break-inside: avoid; page-break-inside: avoid; }
.blk.wide { grid-column: 1 / span 2; }
.blk h2 { margin: 0; font-size: 8.5pt; background: #0b4f6c; color: #fff; padding: 2pt 5pt; text-transform: uppercase; letter-spacing: 0.4pt; }
.blk h2 .n { display: inline-block; background: #fff; color: #0b4f6c; border-radius: 50%; width: 11pt; height: 11pt;
  text-align: center; line-height: 11pt; margin-right: 5pt; font-size: 7.5pt; }
.body { padding: 3pt 5pt 4pt 5pt; }
.row { display: flex; gap: 8pt; align-items: flex-end; }
.f { min-width: 0; }
.ln { border-bottom: 0.6pt solid #444; height: 12pt; }
.cap { font-size: 6.2pt; color: #444; padding-top: 0.5pt; white-space: nowrap; }
.choice { margin: 3pt 0 1pt 0; line-height: 12pt; }
.q { font-weight: bold; margin-right: 6pt; }
.opt { display: inline-block; margin-right: 9pt; white-space: nowrap; }
.cb { display: inline-block; width: 7.5pt; height: 7.5pt; border: 0.8pt solid #222; margin-right: 3pt; vertical-align: -1pt; }
.test { display: flex; gap: 8pt; }
.test > div { flex: 1; border: 0.6pt solid #9bb8c6; padding: 3pt 5pt; background: #f2f7f9; }
.test .name { font-weight: bold; font-size: 9pt; }
.test .desc { font-size: 6.8pt; color: #333; margin: 1pt 0 2pt 16pt; }
.icd { display: flex; gap: 5pt; margin-top: 2pt; }
.icd > div { flex: 1; }
.icd .ln { border: 0.6pt solid #444; height: 14pt; }
.cols { display: grid; grid-template-columns: 1fr 1fr; gap: 8pt; }
.cols h3 { font-size: 8pt; margin: 2pt 0 0 0; color: #0b4f6c; text-transform: uppercase; }
.consent p { margin: 2pt 0; font-size: 7pt; line-height: 9pt; text-align: justify; }
.sig { margin-top: 4pt; }
.sig .ln { height: 20pt; }
footer { position: fixed; bottom: 0; left: 0; right: 0; font-size: 6.5pt; color: #555; display: flex; justify-content: space-between;
  border-top: 0.5pt solid #999; padding-top: 2pt; }
.pgno { position: absolute; right: 0; top: -14pt; font-size: 7pt; color: #555; }
`;

export function blankFormHtml(opts: BlankFormOptions = {}): string {
  const version = escapeHtml(opts.formVersion ?? BLANK_FORM_VERSION);
  const lab = escapeHtml(opts.labName ?? 'OncoTRF Clinical Genomics Laboratory');

  const head = (page: number) => `
  <header>
    <div class="brand">
      <div class="lab">${lab}</div>
      <div class="tagline">CANCER IS PERSONAL</div>
      <h1>Test Requisition Form</h1>
      <div class="version">Form version <b>${version}</b> &middot; Page ${page} of 2</div>
    </div>
    <div class="labuse">
      <div class="t">Laboratory use only</div>
      ${row(line('TRF #'), line('Date received', 0.8))}
      ${row(line('Accession / LIMS project'), line('Initials', 0.4))}
    </div>
  </header>`;

  const testSelection = block(
    1,
    'Test Selection',
    `<div class="test">
      <div>${box('NeXT Dx')}<div class="desc">Tumor-informed diagnostic test: whole-exome tumor and matched normal sequencing. Requires a tumor specimen (block 8) and a normal/blood specimen (block 7).</div></div>
      <div>${box('NeXT Personal Dx')}<div class="desc">Personalized monitoring test: tumor-informed, tracks up to 1,800 patient-specific somatic variants in plasma over time.</div></div>
    </div>
    ${choice('Order type (NeXT Personal Dx):', boxes(ORDER_TYPES))}
    ${row(line('If subsequent order: prior TRF # / LIMS project id', 2), line('Kit id (if a kit was sent)', 1))}`,
    'wide',
  );

  const patient = block(
    2,
    'Patient Information',
    `${row(line('Last name', 1.4), line('First name', 1.2), line('MI', 0.3))}
    ${row(line('Date of birth (MM/DD/YYYY)'), line('Medical record # (MRN)'))}
    ${choice('Sex assigned at birth:', boxes(BIRTH_SEXES))}
    ${row(line('Street address'))}
    ${row(line('City', 1.3), line('State', 0.5), line('ZIP', 0.7))}
    ${row(line('Phone'), line('Email', 1.3))}
    ${row(line('Race'), line('Ethnicity'))}
    ${row(line('Clinical trial name (if any)'), line('Study patient id'))}`,
  );

  const provider = block(
    3,
    'Ordering Provider',
    `${row(line('Provider name (last, first)', 1.6), line('NPI', 0.9))}
    ${row(line('Phone'), line('Fax'))}
    ${row(line('Email'))}
    ${choice(
      'Deliver report by:',
      boxes(DELIVERY_METHODS, (v) => (v === 'BOTH' ? 'Email and fax' : label(v))),
    )}`,
  );

  const account = block(
    4,
    'Account & Location',
    `${row(line('Account / practice name', 1.6), line('Account #', 0.8))}
    ${row(line('Hospital / clinic location'))}
    ${row(line('Street address'))}
    ${row(line('City', 1.3), line('State', 0.5), line('ZIP', 0.7))}
    ${row(line('Telephone'), line('Fax'))}`,
  );

  const pathologist = block(
    5,
    'Pathologist',
    `${row(line('Pathologist name', 1.6), line('NPI', 0.9))}
    ${row(line('Pathology lab / location'))}
    ${row(line('Phone'), line('Fax'))}
    ${row(line('Email'))}`,
  );

  const additional = block(
    6,
    'Additional Provider (copy of report)',
    `${row(line('Provider name (last, first)', 1.6), line('NPI', 0.9))}
    ${row(line('Location'))}
    ${row(line('Phone'), line('Fax'))}
    ${row(line('Email'))}`,
  );

  const tumor = block(
    8,
    'Tumor Specimen',
    `${choice('Diagnosis:', boxes(DIAGNOSES))}
    ${row(line('If other, diagnosis', 1.2), line('Primary tumor site', 1.2), line('Date of diagnosis (MM/DD/YYYY)', 0.9))}
    <div class="cap" style="margin-top:3pt"><b>ICD-10 diagnosis codes</b> (up to 6)</div>
    <div class="icd">${[1, 2, 3, 4, 5, 6].map((i) => `<div><div class="ln"></div><div class="cap">Code ${i}</div></div>`).join('')}</div>
    <div class="cols">
      <div>
        ${choice('Stage:', boxes(STAGES))}${row(line('If other, stage'))}
        ${choice('Disease status:', boxes(DISEASE_STATUSES))}
        ${row(line('Current therapies'), line('Prior therapies'))}
        ${choice('Planning or receiving immunotherapy:', box('Yes') + box('No'))}${row(line('Drug name'))}
        ${row(line('Request pathology review of the diagnosis (reason)'))}
      </div>
      <div>
        ${choice('Specimen request:', boxes(SPECIMEN_REQUEST_TYPES))}
        ${choice('Tissue:', boxes(TISSUE_OBTAIN_METHODS))}
        ${row(line('Specimen id / block id', 1.2), line('Collection date', 0.9), line('Tumor %', 0.5))}
        ${choice('Specimen type:', boxes(TUMOR_SPECIMEN_TYPES))}
        ${choice('Biopsy site:', boxes(BIOPSY_SITES))}${row(line('If other, biopsy site'))}
        ${choice('', box('Do not exhaust the specimen'))}
      </div>
    </div>`,
    'wide',
  );

  const normal = block(
    7,
    'Normal / Blood Specimen',
    `${choice('Specimen type:', boxes(NORMAL_SPECIMEN_TYPES))}
    ${choice('Blood collection:', boxes(BLOOD_COLLECTION_MODES))}
    ${row(line('Collection date (MM/DD/YYYY)'), line('Collection time'))}
    ${choice('Pre-surgical or pre-biopsy sample:', box('Yes') + box('No'))}`,
  );

  const comments = block(
    0,
    'Clinical Notes / Comments for the Laboratory',
    `${row(line(''))}${row(line(''))}${row(line(''))}`,
    'wide',
  );

  const attachments = block(
    10,
    'Attachments Checklist',
    `<div class="cap" style="font-size:6.8pt;margin-bottom:2pt">Please include with this form:</div>
    ${ATTACHMENT_KINDS.filter((k) => k !== 'TRF' && k !== 'TEST_REPORT')
      .map(
        (k) =>
          `<div>${box(k === 'INSURANCE' ? 'Copy of insurance card(s), front and back' : label(k))}</div>`,
      )
      .join('')}`,
  );

  const billingColumn = (title: string) => `<div>
      <h3>${escapeHtml(title)}</h3>
      ${choice('Bill to:', boxes(BILLING_TYPES))}
      ${row(line('Insurance provider / payor'))}
      ${row(line('Payor id'), line('Policy #'), line('Group #'))}
      ${row(line('Insured name', 1.4), line('Insured DOB', 0.8))}
      ${choice(
        'Relationship to patient:',
        boxes(RELATIONSHIPS, (v) => (v === 'SELF' ? 'Self' : label(v))),
      )}
      ${choice('Patient status:', boxes(PATIENT_STATUSES))}
      ${row(line('Prior authorization #'), line('Discharge date (if inpatient discharged)'))}
      ${row(line('Facility name (facility bill)'), line('Other (describe)'))}
    </div>`;

  const billing = block(
    9,
    'Billing',
    `<div class="cols">${billingColumn('Primary')}${billingColumn('Secondary')}</div>`,
    'wide',
  );

  const consent = block(
    11,
    'Consent & Provider Signature',
    `<div class="consent">
      <p>I certify that the test(s) ordered on this form are medically necessary for the diagnosis or treatment of this patient
      and that the results will be used in the patient's medical management. The patient has been informed of the purpose,
      benefits and limitations of genomic testing, has consented to testing of the specimens named above, and has authorized
      ${lab} to release the results to the providers named on this form and to bill the payor(s) named above.</p>
      <p>For NeXT Personal Dx the patient understands that further blood draws will be requested at monitoring time points.</p>
    </div>
    <div class="sig">${row(line('Ordering provider signature', 2), line('Date (MM/DD/YYYY)', 0.8))}</div>
    ${row(line('Printed name', 2), line('NPI', 0.8))}
    <div class="sig">${row(line('Patient signature (if required by state law)', 2), line('Date (MM/DD/YYYY)', 0.8))}</div>`,
  );

  const foot = `<footer><span>${lab} &middot; Test Requisition Form</span><span>Form ${version}</span><span>CANCER IS PERSONAL</span></footer>`;

  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test Requisition Form ${version}</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<style>${CSS}</style></head>
<body>
${foot}
<div class="page">
  ${head(1)}
  <p class="note">Complete in blue or black ink, in capitals. Blocks 1, 2, 3, 4, 9 and 11 and the specimen block(s)
  for the test ordered are required for the laboratory to start testing. Send this form with the specimens; keep a copy for the patient's chart.</p>
  <div class="grid">
    ${testSelection}
    ${patient}
    ${provider}
    ${account}
    ${pathologist}
    ${additional}
    ${normal}
    ${comments}
  </div>
</div>
<div class="page">
  ${head(2)}
  <div class="grid">
    ${tumor}
    ${billing}
    ${attachments}
    ${consent}
  </div>
</div>
</body></html>`;
}
