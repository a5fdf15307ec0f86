import { describe, expect, it } from 'vitest';
import { lookupMessage } from '../../components/messages';
import { auditEn, auditZh } from './i18n';
import { auditFilter, exportQuery, NO_INPUTS, patientsText, whoText } from './logic';
import { AUDIT_ACTIONS, AUDIT_OUTCOMES, AUDIT_RECORD_TYPES } from '@onco/domain';

const keys = (o: unknown, prefix = ''): string[] =>
  Object.entries(o as Record<string, unknown>).flatMap(([k, v]) =>
    typeof v === 'string' ? [`${prefix}${k}`] : keys(v, `${prefix}${k}.`),
  );

describe('the Audit screen', () => {
  it('filters by the ids typed (trimmed) and the day range as `when` between epoch milliseconds', () => {
    expect(auditFilter(NO_INPUTS)).toEqual({});
    expect(
      auditFilter({ userId: ' u-1 ', patientId: '', recordId: 'req-9', range: { start: 1000, end: null } }),
    ).toEqual({ userId: 'u-1', recordId: 'req-9', when: 'between(1000,8640000000000000)' });
    expect(new URLSearchParams(exportQuery({ patientId: 'p-1' })).get('filter')).toBe('{"patientId":"p-1"}');
  });

  it('names the user, or the system by its id', () => {
    expect(whoText({ who: { userId: 'u1', role: 'ROLE_NPI', name: 'Dana P' } })).toBe('Dana P');
    expect(whoText({ who: { userId: 'system', role: 'SYSTEM', name: '' } })).toBe('system');
  });

  it('has a text for every action, outcome and record type, in English and Chinese', () => {
    for (const [group, values] of [
      ['action', AUDIT_ACTIONS],
      ['outcome', AUDIT_OUTCOMES],
      ['recordType', AUDIT_RECORD_TYPES],
    ] as const)
      for (const v of values) {
        expect(lookupMessage(auditEn, `audit.${group}.${v}`), v).toBeTruthy();
        expect(lookupMessage(auditZh, `audit.${group}.${v}`), v).toBeTruthy();
      }
    expect(keys(auditZh).sort()).toEqual(keys(auditEn).sort());
  });
});

describe('the patient column', () => {
  const more = (n: number) => `+${n} more`;
  it("a record's patient; a list read's first patient and how many more", () => {
    const what = (w: Record<string, unknown>) =>
      ({ what: { type: 'requisition', id: null, patientId: null, ...w } }) as never;
    expect(patientsText(what({ patientId: 'p1' }), more)).toBe('p1');
    expect(patientsText(what({ patientIds: ['p1', 'p2', 'p3'] }), more)).toBe('p1 +2 more');
    expect(patientsText(what({ patientIds: ['p1'] }), more)).toBe('p1');
    expect(patientsText(what({}), more)).toBe('');
  });
});
