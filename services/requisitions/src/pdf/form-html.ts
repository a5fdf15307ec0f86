/**
 * The building blocks the printed forms share (blank-form.ts, the form a provider fills by hand; trf-form.ts, a
 * submitted requisition's filled form): escaping, enumeration labels, rows and numbered blocks, the stylesheet
 * rules both lay out the same way, the provider's certification and the self-contained document around a body.
 */

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

/** a row of labelled cells */
export const row = (...cells: string[]) => `<div class="row">${cells.join('')}</div>`;

/** a form block: its number (0: none), its title and its body; `extra` adds classes (`wide`: both columns) */
export const block = (n: number, title: string, body: string, extra = '') =>
  `<section class="blk ${extra}"><h2>${n ? `<span class="n">${n}</span>` : ''}${escapeHtml(title)}</h2><div class="body">${body}</div></section>`;

/** The stylesheet's start: Letter pages, the font, colours printed. */
export const PAGE_CSS = `@page { size: Letter; margin: 0.4in 0.45in 0.45in 0.45in; }
* { box-sizing: border-box; }
html, body { margin: 0; padding: 0; }
body { font-family: "Liberation Sans", "DejaVu Sans", Arial, Helvetica, sans-serif; font-size: 8pt; color: #111;
  -webkit-print-color-adjust: exact; print-color-adjust: exact; }`;

/** The two-column grid of numbered blocks. */
export const BLOCK_CSS = `.grid { display: grid; grid-template-columns: 1fr 1fr; gap: 5pt; }
.blk { border: 0.8pt solid #0b4f6c; break-inside: avoid; page-break-inside: avoid; }
.blk.wide { grid-column: 1 / span 2; }
.blk h2 { margin: 0; font-size: 8.5pt; background: #0b4f6c; color: #fff; padding: 2pt 5pt; text-transform: uppercase; letter-spacing: 0.4pt; }
.blk h2 .n { display: inline-block; background: #fff; color: #0b4f6c; border-radius: 50%; width: 11pt; height: 11pt;
  text-align: center; line-height: 11pt; margin-right: 5pt; font-size: 7.5pt; }
.body { padding: 3pt 5pt 4pt 5pt; }`;

/** The provider's certification of block 11 (Consent & Provider Signature). */
export const certification = (lab: string) =>
  `<p>I certify that the test(s) ordered on this form are medically necessary for the diagnosis or treatment of this patient
      and that the results will be used in the patient's medical management. The patient has been informed of the purpose,
      benefits and limitations of genomic testing, has consented to testing of the specimens named above, and has authorized
      ${lab} to release the results to the providers named on this form and to bill the payor(s) named above.</p>`;

/**
 * A self-contained document: no scripts, nothing fetched (a `default-src 'none'` CSP); `title` and `body` are
 * HTML already escaped.
 */
export const htmlDocument = (title: string, css: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<style>${css}</style></head>
<body>
${body}
</body></html>`;
