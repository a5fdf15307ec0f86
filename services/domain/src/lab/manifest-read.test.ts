import { describe, expect, it } from 'vitest';
import { MANIFEST_MSG, manifestErrorText } from './manifest';
import { readManifestErrorLine, readManifestMessage } from './manifest-read';

/** every template called with values of its own (words and colons in them, to tempt the patterns) */
const cases: Array<[keyof typeof MANIFEST_MSG, string]> = Object.entries(MANIFEST_MSG).map(([key, msg]) => {
  if (typeof msg === 'string') return [key as keyof typeof MANIFEST_MSG, msg];
  const args = Array.from({ length: msg.length }, (_, i) => `v${i} with: odd words on it`);
  return [key as keyof typeof MANIFEST_MSG, (msg as (...a: string[]) => string)(...args)];
});

describe('reading manifest messages back (the console translates them)', () => {
  it('every MANIFEST_MSG message is recognised as its own template, values included', () => {
    for (const [key, text] of cases) {
      const read = readManifestMessage(text);
      expect(read?.key, text).toBe(key);
      // every value read is in the message
      const msg = MANIFEST_MSG[key];
      if (typeof msg !== 'string') {
        const values = Object.values(read!.values);
        expect(
          values.every((v) => text.includes(v)),
          text,
        ).toBe(true);
      }
    }
    expect(readManifestMessage(MANIFEST_MSG.alreadyApplied('samples on monday.xlsx', '11/20/2026'))).toEqual({
      key: 'alreadyApplied',
      values: { name: 'samples on monday.xlsx', on: '11/20/2026' },
    });
    expect(readManifestMessage(MANIFEST_MSG.unreadable('xlsx', 'Field x is required.'))?.key).toBe(
      'unreadable',
    );
    expect(readManifestMessage('Something else.')).toBeNull();
  });

  it('reads the lines of manifestErrorText', () => {
    const text = manifestErrorText(
      [
        { row: 0, column: null, message: MANIFEST_MSG.noRows },
        { row: 3, column: 'Specimen ID', message: MANIFEST_MSG.duplicateSpecimen('T-1', 2) },
      ],
      5,
    );
    expect(text.split('\n').map(readManifestErrorLine)).toEqual([
      { kind: 'error', row: 0, column: null, message: MANIFEST_MSG.noRows },
      { kind: 'error', row: 3, column: 'Specimen ID', message: MANIFEST_MSG.duplicateSpecimen('T-1', 2) },
      { kind: 'more', count: 3 },
    ]);
    expect(readManifestErrorLine('not ours')).toBeNull();
    expect(readManifestErrorLine(`Row 1: ${'x'.repeat(5000)}`)).toBeNull();
  });
});
