import bwipjs from 'bwip-js/node';

/**
 * The printable labels of POST /oms/api/v1/barcodes/print: Letter sheets of 30 address-size labels (3 columns
 * of 10, 2 5/8" x 1", the common 30-up sheet), one code a label in reading order. Each label carries the code as
 * Code 128 (drawn by bwip-js as SVG, so the bars stay sharp at any printer resolution) with its text below.
 * Self-contained HTML: no script, nothing fetched (the renderer runs offline; the CSP says so too).
 */
export const LABEL_SHEET = {
  columns: 3,
  rows: 10,
  /** the page's margins, the label's size and the gap between columns, in inches */
  marginTopIn: 0.5,
  marginLeftIn: 0.1875,
  labelWidthIn: 2.625,
  labelHeightIn: 1,
  columnGapIn: 0.125,
} as const;
export const LABELS_PER_SHEET = LABEL_SHEET.columns * LABEL_SHEET.rows;

/** Where the `index`-th label (0-based, across sheets) is: its page (0-based) and its top-left corner in inches. */
export function labelPosition(index: number): { page: number; xIn: number; yIn: number } {
  const s = LABEL_SHEET;
  const onPage = index % LABELS_PER_SHEET;
  const col = onPage % s.columns;
  const row = Math.floor(onPage / s.columns);
  return {
    page: Math.floor(index / LABELS_PER_SHEET),
    xIn: s.marginLeftIn + col * (s.labelWidthIn + s.columnGapIn),
    yIn: s.marginTopIn + row * s.labelHeightIn,
  };
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The Code 128 symbol of `code` as SVG bars (no text: the label prints it below), stretched to its box. */
export function code128Svg(code: string): string {
  const svg = bwipjs.toSVG({ bcid: 'code128', text: code, scale: 1, height: 10, paddingwidth: 0 });
  // the box sets the size; a 1D symbol may be stretched (only the bars' relative widths carry the data)
  return svg.replace('<svg ', '<svg preserveAspectRatio="none" ');
}

const CSS = `@page { size: Letter; margin: 0; }
* { box-sizing: border-box; }
body { margin: 0; font-family: "DejaVu Sans Mono", "Liberation Mono", monospace; color: #000; }
.sheet { width: 8.5in; height: 11in; padding: ${LABEL_SHEET.marginTopIn}in 0 0 ${LABEL_SHEET.marginLeftIn}in;
  display: grid; grid-template-columns: repeat(${LABEL_SHEET.columns}, ${LABEL_SHEET.labelWidthIn}in);
  grid-auto-rows: ${LABEL_SHEET.labelHeightIn}in; column-gap: ${LABEL_SHEET.columnGapIn}in;
  align-content: start; break-after: page; overflow: hidden; }
.sheet:last-child { break-after: auto; }
.label { padding: 0.1in 0.2in 0.06in; display: flex; flex-direction: column; align-items: center; }
.bars { width: 100%; height: 0.58in; }
.bars svg { display: block; width: 100%; height: 100%; }
.code { margin-top: 0.03in; font-size: 10pt; font-weight: bold; letter-spacing: 0.06em; }`;

/** The label sheets of `codes` as one HTML document (a Letter page per 30 codes). */
export function labelSheetHtml(codes: readonly string[]): string {
  const labels = codes.map(
    (code) =>
      `<div class="label"><div class="bars">${code128Svg(code)}</div>` +
      `<div class="code">${escapeHtml(code)}</div></div>`,
  );
  const sheets: string[] = [];
  for (let i = 0; i < labels.length; i += LABELS_PER_SHEET)
    sheets.push(`<section class="sheet">${labels.slice(i, i + LABELS_PER_SHEET).join('')}</section>`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Barcode labels</title><style>${CSS}</style></head>
<body>${sheets.join('')}</body></html>`;
}
