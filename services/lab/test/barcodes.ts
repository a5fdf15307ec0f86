import { createCanvas } from '@napi-rs/canvas';
import {
  BarcodeFormat,
  BinaryBitmap,
  DecodeHintType,
  HybridBinarizer,
  MultiFormatReader,
  RGBLuminanceSource,
} from '@zxing/library';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { LABEL_SHEET, labelPosition } from '../src/barcode-labels';

/**
 * Read barcode labels back from the PDF POST /barcodes/print answered, as a scanner would: each page is
 * rasterized by pdf.js (on a skia canvas) at `dpi`, each label's cell is cut out where the sheet's layout puts it,
 * and ZXing decodes the Code 128 in it. A label that does not decode is `null`.
 */
export async function decodeLabels(pdf: Buffer, count: number, dpi = 300): Promise<Array<string | null>> {
  const doc = await getDocument({ data: new Uint8Array(pdf), isEvalSupported: false }).promise;
  try {
    const pages = new Map<number, { lum: Uint8ClampedArray; width: number }>();
    const pageOf = async (n: number) => {
      const cached = pages.get(n);
      if (cached) return cached;
      const page = await doc.getPage(n + 1);
      const viewport = page.getViewport({ scale: dpi / 72 });
      const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
      const ctx = canvas.getContext('2d');
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(0, 0, canvas.width, canvas.height);
      await page.render({ canvas: canvas as never, canvasContext: ctx as never, viewport }).promise;
      const { data, width, height } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      const lum = new Uint8ClampedArray(width * height);
      for (let i = 0; i < width * height; i++)
        lum[i] = (data[i * 4] * 299 + data[i * 4 + 1] * 587 + data[i * 4 + 2] * 114) / 1000;
      const read = { lum, width };
      pages.set(n, read);
      return read;
    };
    const hints = new Map<DecodeHintType, unknown>([
      [DecodeHintType.POSSIBLE_FORMATS, [BarcodeFormat.CODE_128]],
      [DecodeHintType.TRY_HARDER, true],
    ]);
    const out: Array<string | null> = [];
    for (let i = 0; i < count; i++) {
      const at = labelPosition(i);
      if (at.page >= doc.numPages) {
        out.push(null);
        continue;
      }
      const { lum, width } = await pageOf(at.page);
      const x0 = Math.round(at.xIn * dpi);
      const y0 = Math.round(at.yIn * dpi);
      const w = Math.round(LABEL_SHEET.labelWidthIn * dpi);
      const h = Math.round(LABEL_SHEET.labelHeightIn * dpi);
      const cell = new Uint8ClampedArray(w * h);
      for (let y = 0; y < h; y++)
        cell.set(lum.subarray((y0 + y) * width + x0, (y0 + y) * width + x0 + w), y * w);
      const reader = new MultiFormatReader();
      reader.setHints(hints);
      try {
        out.push(
          reader.decode(new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(cell, w, h)))).getText(),
        );
      } catch {
        out.push(null);
      }
    }
    return out;
  } finally {
    await doc.destroy();
  }
}

/** The number of pages of a PDF. */
export async function pdfPageCount(pdf: Buffer): Promise<number> {
  const doc = await getDocument({ data: new Uint8Array(pdf), isEvalSupported: false }).promise;
  try {
    return doc.numPages;
  } finally {
    await doc.destroy();
  }
}
