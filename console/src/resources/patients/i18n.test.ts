import { describe, expect, it } from 'vitest';
import { lookupMessage } from '../../components/messages';
import { boxEn, boxZh } from '../box/i18n';
import { patientsEn, patientsZh } from './i18n';

const keys = (o: unknown, prefix = ''): string[] =>
  Object.entries(o as Record<string, unknown>).flatMap(([k, v]) =>
    typeof v === 'string' ? [`${prefix}${k}`] : keys(v, `${prefix}${k}.`),
  );
const placeholders = (s: string | undefined) => (s?.match(/%\{\w+\}/g) ?? []).sort();

describe('Chinese texts of the patients screens and the Attachment Box', () => {
  for (const [name, en, zh] of [
    ['patients', patientsEn, patientsZh],
    ['box', boxEn, boxZh],
  ] as const) {
    it(`${name}: every English key, translated, with the same placeholders`, () => {
      expect(keys(zh).sort()).toEqual(keys(en).sort());
      for (const k of keys(en)) {
        const text = lookupMessage(zh, k);
        expect(text, k).toBeTruthy();
        expect(placeholders(text), k).toEqual(placeholders(lookupMessage(en, k)));
      }
    });
  }
  it('the merge texts read in Chinese', () => {
    expect(lookupMessage(patientsZh, 'patients.merging.title')).toBe('合并患者');
    expect(lookupMessage(patientsEn, 'patients.merging.title')).toBe('Merge Patients');
  });
});
