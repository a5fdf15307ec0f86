import { createContext, useContext } from 'react';
import type { FieldErrors, RequisitionForm, RuleContext, StepKey } from '@onco/domain';

export interface WizardContextValue {
  form: RequisitionForm;
  /** set one dotted path (marks the field touched and its step updated) */
  set: (path: string, value: unknown) => void;
  /** set several paths at once (a picker filling a block) */
  patch: (values: Record<string, unknown>) => void;
  /** every current field error (path -> spec message), all blocks */
  errors: FieldErrors;
  /** the error to show under a field now (touched field or passed step), or undefined */
  errorFor: (path: string) => string | undefined;
  permissions: readonly string[];
  can: (permission: string) => boolean;
  rules: RuleContext;
  requisitionId: string | null;
  testRequisitionId: string | null;
  goTo: (step: StepKey) => void;
  /** saves now (creating the draft if needed) and returns its id */
  ensureSaved: (continueTo?: StepKey) => Promise<string | null>;
}

export const WizardContext = createContext<WizardContextValue | null>(null);

export function useWizard(): WizardContextValue {
  const v = useContext(WizardContext);
  if (!v) throw new Error('useWizard outside the order wizard');
  return v;
}
