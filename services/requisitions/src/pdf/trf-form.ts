import { BLANK_FORM_VERSION } from './blank-form';
import { BLOCK_CSS, htmlDocument, PAGE_CSS } from './form-html';
import { e, formatDateTime } from './trf-form/format';
import * as sections from './trf-form/sections';
import type { TrfFormRequisition } from './trf-form/sections';

/**
 * The filled Test Requisition Form (TRF) of a submitted requisition, form version 102-210-C: the blocks of the
 * blank form (blank-form.ts) with the requisition's values, the requisition number (testRequisitionId) in the
 * header, the ICD-10 codes, the attachments sent with it, the consent and the electronic signature (the
 * approval's signer and time). Self-contained HTML: no scripts, nothing fetched (rendered offline).
 */

export const TRF_FORM_VERSION = BLANK_FORM_VERSION;

export type { TrfFormRequisition } from './trf-form/sections';

export interface TrfFormOptions {
  formVersion?: string;
  labName?: string;
  /** when the requisition was submitted (printed in the header) */
  submittedOn?: Date | null;
  /** a version made by an Edit of the submitted form: when (printed under the submission time) */
  editedOn?: Date | null;
  /** the time zone of printed times (default UTC) */
  timeZone?: string;
  /** the print time (default now) */
  now?: Date;
}

const CSS = `
${PAGE_CSS}
header { display: flex; align-items: stretch; border-bottom: 2.5pt solid #0b4f6c; padding-bottom: 5pt; margin-bottom: 6pt; }
.brand { flex: 1; }
.lab { font-size: 9pt; font-weight: bold; letter-spacing: 0.5pt; color: #0b4f6c; text-transform: uppercase; }
h1 { font-size: 17pt; margin: 3pt 0 0 0; color: #0b4f6c; }
.version { font-size: 8pt; margin-top: 1pt; }
.trfno { width: 2.6in; border: 1.2pt solid #0b4f6c; padding: 4pt 6pt; font-size: 7.5pt; }
.trfno .t { font-weight: bold; text-transform: uppercase; color: #0b4f6c; }
.trfno .num { font-size: 15pt; font-weight: bold; margin: 2pt 0; letter-spacing: 0.5pt; }
${BLOCK_CSS}
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

export function trfFormHtml(trf: TrfFormRequisition, opts: TrfFormOptions = {}): string {
  const version = e(opts.formVersion ?? TRF_FORM_VERSION);
  const lab = e(opts.labName ?? 'OncoTRF Clinical Genomics Laboratory');
  const tz = opts.timeZone ?? 'UTC';
  const number = e(trf.testRequisitionId);

  const foot = `<footer><span>${lab} &middot; Test Requisition Form ${number}</span><span>Form ${version}</span><span>Printed ${e(formatDateTime(opts.now ?? new Date(), tz))}</span></footer>`;

  return htmlDocument(
    `Test Requisition Form ${number}`,
    CSS,
    `${foot}
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
    ${opts.editedOn ? `<div>Edited ${e(formatDateTime(opts.editedOn, tz))}</div>` : ''}
  </div>
</header>
<div class="grid">
  ${sections.testSelectionSection(trf)}
  ${sections.patientSection(trf.patient)}
  ${sections.providerSection(trf.physician)}
  ${sections.accountSection(trf)}
  ${sections.pathologistSection(trf)}
  ${sections.additionalProviderSection(trf)}
  ${sections.normalSection(trf.normalSpecimen)}
  ${sections.tumorSection(trf.tumorSpecimen)}
  ${sections.billingSection(trf.billings)}
  ${sections.attachmentsSection(trf.attachments, tz)}
  ${sections.commentsSection(trf.comment)}
  ${sections.consentSection(trf, lab, tz)}
</div>`,
  );
}
