import { describe, expect, it } from 'vitest';
import { MSG } from '@onco/domain';
import { listsEn } from '../i18n/lists.en';
import { listsZh } from '../i18n/lists.zh';
import { englishText, interpolate, lookupMessage } from './messages';

const keys = (o: unknown, prefix = ''): string[] =>
  Object.entries(o as Record<string, unknown>).flatMap(([k, v]) =>
    typeof v === 'string' ? [`${prefix}${k}`] : keys(v, `${prefix}${k}.`),
  );

describe('building-block texts', () => {
  it('looks keys up and fills %{placeholders}', () => {
    expect(lookupMessage(listsEn, 'lists.showAll')).toBe('Show All (%{n})');
    expect(englishText('lists.showAll', { n: 45 })).toBe('Show All (45)');
    expect(englishText('users.directory.showingOf', { total: 80 })).toBe('Showing 25 of 80 results.');
    expect(englishText('no.such.key')).toBe('no.such.key');
    expect(interpolate('%{a} and %{b}', { a: 1 })).toBe('1 and %{b}');
  });

  it('uses the spec wording', () => {
    expect(englishText('dialogs.pleaseConfirm')).toBe('Please Confirm');
    expect(englishText('dialogs.loadingPdf')).toBe('Loading PDF ...');
    expect(englishText('dialogs.noPdf')).toBe('No PDF File Available.');
    expect(englishText('lists.loading')).toBe('Loading....');
    expect(englishText('users.empty')).toBe('No users found');
    expect(englishText('users.messages.added')).toBe(MSG.userAdded);
    expect(englishText('users.directory.showing', { n: 3 })).toBe('Showing 3 results.');
    expect(englishText('lists.refineSearch')).toBe('Please refine your search.');
  });

  it('Chinese has every English key, with the same placeholders', () => {
    expect(keys(listsZh).sort()).toEqual(keys(listsEn).sort());
    for (const k of keys(listsEn)) {
      const ph = (s: string) => (s.match(/%\{\w+\}/g) ?? []).sort();
      expect(ph(lookupMessage(listsZh, k)!), k).toEqual(ph(lookupMessage(listsEn, k)!));
    }
  });
});
