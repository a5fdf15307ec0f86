// first: it puts the browser stand-ins in place before the app's i18n loads
import { messages } from '../../messages.testing';
import { describe, expect, it } from 'vitest';
import { lookupMessage } from '../../components/messages';
import { kitsEn, kitsZh } from '../kits/i18n';
import { messagesEn, messagesZh } from './i18n';

const keys = (o: unknown, prefix = ''): string[] =>
  Object.entries(o as Record<string, unknown>).flatMap(([k, v]) =>
    typeof v === 'string' ? [`${prefix}${k}`] : keys(v, `${prefix}${k}.`),
  );
const placeholders = (s: string | undefined) => (s?.match(/%\{\w+\}/g) ?? []).sort();
const hasHan = (s: string | undefined) => /[\u4e00-\u9fff]/.test(s ?? '');

describe('Chinese texts of the Test Kits and Messages screens', () => {
  for (const [name, en, zh] of [
    ['kits', kitsEn, kitsZh],
    ['messages', messagesEn, messagesZh],
  ] as const) {
    it(`${name}: every English key, translated, with the same placeholders`, () => {
      expect(keys(zh).sort()).toEqual(keys(en).sort());
      for (const k of keys(en)) {
        const text = lookupMessage(zh, k);
        expect(hasHan(text), k).toBe(true);
        expect(placeholders(text), k).toEqual(placeholders(lookupMessage(en, k)));
      }
    });
    it(`${name}: the app's Chinese messages carry them (the screens read Chinese when the language is Chinese)`, () => {
      for (const k of keys(en)) {
        expect(lookupMessage(messages['zh-CN'], k), k).toBe(lookupMessage(zh, k));
        expect(lookupMessage(messages.en, k), k).toBe(lookupMessage(en, k));
      }
    });
  }
});
