import { useCallback } from 'react';
import { useTranslate } from 'react-admin';
import { wizardEn } from './i18n';
import { getPath } from './model';

/** The English text of a `wizard.*` key with %{name} / {name} placeholders filled. */
export function wizardText(key: string, values: Record<string, unknown> = {}): string {
  const raw = getPath(wizardEn, key);
  const text = typeof raw === 'string' ? raw : key;
  return text.replace(/%?\{(\w+)\}/g, (_, k: string) => String(values[k] ?? ''));
}

/** react-admin's translate with the wizard's English texts as the fallback (until the lead merges them). */
export function useWizardT() {
  const translate = useTranslate();
  return useCallback(
    (key: string, values: Record<string, unknown> = {}) => {
      const out = translate(key, { ...values, _: wizardText(key, values) });
      return out === key ? wizardText(key, values) : out;
    },
    [translate],
  );
}
