import { describe, expect, it } from 'vitest';
import {
  BARCODE_DEFAULT_COUNT,
  BARCODE_DEFAULT_PREFIX,
  BARCODE_MSG,
  formatBarcode,
  normalizeBarcodePrefix,
} from './barcodes';

describe('container barcodes (spec 3 sections 8, 9.1)', () => {
  it('defaults to prefix PS and one code', () => {
    expect(BARCODE_DEFAULT_PREFIX).toBe('PS');
    expect(BARCODE_DEFAULT_COUNT).toBe(1);
  });

  it('writes the prefix and an 8-digit sequence, and a longer number in full', () => {
    expect(formatBarcode('PS', 1)).toBe('PS00000001');
    expect(formatBarcode('AB1', 12345)).toBe('AB100012345');
    expect(formatBarcode('PS', 123_456_789)).toBe('PS123456789');
  });

  it('takes 1 to 6 letters and digits starting with a letter, lower case as upper case', () => {
    expect(normalizeBarcodePrefix(' ps ')).toBe('PS');
    expect(normalizeBarcodePrefix('A1B2C3')).toBe('A1B2C3');
    for (const bad of ['', '1PS', 'P-S', 'ABCDEFG', 'P S', 'PÜ'])
      expect(normalizeBarcodePrefix(bad), bad).toBeNull();
  });

  it("keeps the spec's texts exactly", () => {
    expect(BARCODE_MSG.printed).toBe('Barcode printed successfully.');
    expect(BARCODE_MSG.printFailed).toBe('Error printing barcode!');
    expect(BARCODE_MSG.containerExists('PS00000001')).toBe(
      'Container already created for barcode PS00000001.',
    );
  });
});
