import { describe, expect, it } from 'vitest';
import { REQ_MSG } from '@onco/domain';
import { ruleText } from './ruleText';
import { wizardText } from './useWizardT';
import { wizardZh } from './i18n';
import { getPath } from './model';

const en = (key: string, values?: Record<string, unknown>) => wizardText(key, values);
const zh = (key: string, values: Record<string, unknown> = {}) =>
  String(getPath(wizardZh, key) ?? key).replace(/%\{(\w+)\}/g, (_, k: string) => String(values[k] ?? ''));

describe('rule messages in the user language', () => {
  const samples = [
    REQ_MSG.required,
    REQ_MSG.invalid('Email'),
    REQ_MSG.min(0),
    REQ_MSG.max(100),
    REQ_MSG.length(10),
    REQ_MSG.invalidDate,
    REQ_MSG.noLaterThan('11/21/2026'),
    REQ_MSG.noEarlierThan('08/21/2026'),
    REQ_MSG.billingOnOrAfter,
    REQ_MSG.billingOnOrBefore('11/21/2026'),
    REQ_MSG.billingInvalidDate,
    REQ_MSG.billingTypeRequired,
    REQ_MSG.labelRequired('Policy Number'),
    REQ_MSG.tumorAndNormalRequired,
    REQ_MSG.medicareWarning,
    REQ_MSG.icdSearchMinimum,
    REQ_MSG.minimumTumorContent,
    REQ_MSG.faxDeliveryNeedsFax,
  ];

  it('English shows the spec words unchanged', () => {
    for (const m of samples) expect(ruleText(m, en)).toBe(m);
  });

  it('Chinese translates every message and keeps its values', () => {
    for (const m of samples) expect(ruleText(m, zh), m).not.toBe(m);
    expect(ruleText(REQ_MSG.noLaterThan('11/21/2026'), zh)).toBe('日期不得晚于 11/21/2026');
    expect(ruleText(REQ_MSG.max(100), zh)).toBe('最大值为 100');
  });

  it('an unknown message (a server reason) is shown as it came', () => {
    expect(ruleText('Requisition was changed by someone else', zh)).toBe(
      'Requisition was changed by someone else',
    );
  });
});
