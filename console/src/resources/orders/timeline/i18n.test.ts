import { describe, expect, it } from 'vitest';
import { REQUISITION_CHANGES } from '../../../../../events/src/schemas';
import { lookupMessage } from '../../../components/messages';
import { billingKey, changeKey, timelineEn, timelineZh } from './i18n';

const keys = (o: unknown, prefix = ''): string[] =>
  Object.entries(o as Record<string, unknown>).flatMap(([k, v]) =>
    typeof v === 'string' ? [`${prefix}${k}`] : keys(v, `${prefix}${k}.`),
  );

describe('order timeline texts', () => {
  it('every change a requisition-changed event can report has its own text, in English and Chinese', () => {
    for (const change of REQUISITION_CHANGES) {
      expect(changeKey(change), change).toBe(change);
      expect(lookupMessage(timelineEn, `timeline.changed.${change}`), change).toBeTruthy();
      expect(lookupMessage(timelineZh, `timeline.changed.${change}`), change).toBeTruthy();
    }
  });
  it('a change without a text reads as "Order changed", not as its key', () => {
    expect(changeKey('some-future-change')).toBe('other');
    expect(changeKey('toString')).toBe('other');
    expect(lookupMessage(timelineEn, `timeline.changed.${changeKey('x')}`)).toBe('Order changed');
  });
  it('Chinese has every English key', () => {
    expect(keys(timelineZh).sort()).toEqual(keys(timelineEn).sort());
  });
  it('billing case entries say opened, from → to, or updated when the status stayed', () => {
    expect(billingKey('created', { caseStatus: 'NOT_SUBMITTED', previousStatus: null })).toBe(
      'timeline.billingCreated',
    );
    expect(billingKey('status', { caseStatus: 'READY_TO_SUBMIT', previousStatus: 'NOT_SUBMITTED' })).toBe(
      'timeline.billingStatus',
    );
    expect(billingKey('status', { caseStatus: 'NOT_SUBMITTED', previousStatus: 'NOT_SUBMITTED' })).toBe(
      'timeline.billingUpdated',
    );
  });
});
