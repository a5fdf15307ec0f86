import { escapeHtml, label } from '../form-html';

/** The blank form's write-in parts: empty check boxes, write-in lines and labelled choices. */

export const box = (text: string) => `<span class="opt"><span class="cb"></span>${escapeHtml(text)}</span>`;
export const boxes = (values: readonly string[], labelOf: (v: string) => string = label) =>
  values.map((v) => box(labelOf(v))).join('');
/** a labelled write-in line; `w` is the share of the row it takes */
export const line = (caption: string, w = 1) =>
  `<div class="f" style="flex:${w}"><div class="ln"></div><div class="cap">${escapeHtml(caption)}</div></div>`;
export const choice = (caption: string, options: string) =>
  `<div class="choice"><span class="q">${escapeHtml(caption)}</span>${options}</div>`;
