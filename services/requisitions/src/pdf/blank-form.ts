import { BLOCK_CSS, escapeHtml, htmlDocument, PAGE_CSS, row } from './form-html';
import { line } from './blank-form/write-in';
import * as sections from './blank-form/sections';

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

const CSS = `
${PAGE_CSS}
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
${BLOCK_CSS}
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

/** a page's header: the lab, the title, the version and page number, the box for laboratory use */
const pageHeader = (lab: string, version: string, page: number) => `
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

export function blankFormHtml(opts: BlankFormOptions = {}): string {
  const version = escapeHtml(opts.formVersion ?? BLANK_FORM_VERSION);
  const lab = escapeHtml(opts.labName ?? 'OncoTRF Clinical Genomics Laboratory');

  const foot = `<footer><span>${lab} &middot; Test Requisition Form</span><span>Form ${version}</span><span>CANCER IS PERSONAL</span></footer>`;

  return htmlDocument(
    `Test Requisition Form ${version}`,
    CSS,
    `${foot}
<div class="page">
  ${pageHeader(lab, version, 1)}
  <p class="note">Complete in blue or black ink, in capitals. Blocks 1, 2, 3, 4, 9 and 11 and the specimen block(s)
  for the test ordered are required for the laboratory to start testing. Send this form with the specimens; keep a copy for the patient's chart.</p>
  <div class="grid">
    ${sections.testSelectionSection()}
    ${sections.patientSection()}
    ${sections.providerSection()}
    ${sections.accountSection()}
    ${sections.pathologistSection()}
    ${sections.additionalProviderSection()}
    ${sections.normalSection()}
    ${sections.commentsSection()}
  </div>
</div>
<div class="page">
  ${pageHeader(lab, version, 2)}
  <div class="grid">
    ${sections.tumorSection()}
    ${sections.billingSection()}
    ${sections.attachmentsSection()}
    ${sections.consentSection(lab)}
  </div>
</div>`,
  );
}
