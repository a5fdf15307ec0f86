import { useMemo, useRef, useState } from 'react';
import { validateRequisition, type FieldErrors, type RequisitionForm } from '@onco/domain';
import { usePermissions } from 'react-admin';
import { WizardContext, type WizardContextValue } from '../wizard/context';
import { ruleContext, setPath } from '../wizard/model';
import { SpecimenStep } from '../wizard/steps/SpecimenStep';
import type { Requisition } from './requisition';

/** The specimen blocks a submitted order's Edit changes whole (every field of the wizard's Specimen step). */
export type SpecimenValues = {
  tumorSpecimen: Record<string, unknown>;
  normalSpecimen: Record<string, unknown>;
};

const SPECIMEN_PATH = /^(tumorSpecimen|normalSpecimen)\./;

/**
 * The Specimen section of a submitted order in edit mode (spec 1 section 4: the Specimen link jumps to its wizard
 * step): the wizard's own Specimen step over a copy of the order, so every field, option, date window, message and
 * permission lock is the wizard's. Only the two specimen blocks change; the server checks the save again.
 */
export function SpecimenEdit({
  r,
  value,
  onChange,
}: {
  r: Requisition;
  value: SpecimenValues;
  onChange: (v: SpecimenValues) => void;
}) {
  const { permissions: granted } = usePermissions<string[]>();
  const permissions = useMemo(() => granted ?? [], [granted]);
  const rules = useMemo(() => ruleContext(permissions), [permissions]);
  const [touched, setTouched] = useState<readonly string[]>([]);
  const form = useMemo(() => ({ ...(r as RequisitionForm), ...value }) as RequisitionForm, [r, value]);
  // the latest form, so two sets in one event (a choice and the field it clears) both count
  const latest = useRef(form);
  latest.current = form;
  const errors = useMemo(() => {
    const out: FieldErrors = {};
    for (const e of Object.values(validateRequisition(form, rules))) Object.assign(out, e);
    return out;
  }, [form, rules]);

  const ctx = useMemo<WizardContextValue>(() => {
    const apply = (values: Record<string, unknown>) => {
      let next = latest.current;
      for (const [path, v] of Object.entries(values))
        if (SPECIMEN_PATH.test(path)) next = setPath(next, path, v);
      latest.current = next;
      onChange({
        tumorSpecimen: (next.tumorSpecimen ?? {}) as Record<string, unknown>,
        normalSpecimen: (next.normalSpecimen ?? {}) as Record<string, unknown>,
      });
      setTouched((list) => [...list, ...Object.keys(values).filter((p) => !list.includes(p))]);
    };
    return {
      form,
      set: (path, v) => apply({ [path]: v }),
      patch: apply,
      errors,
      errorFor: (path) => (touched.includes(path) ? errors[path] : undefined),
      permissions,
      can: (p) => permissions.includes(p),
      rules,
      requisitionId: r.id,
      testRequisitionId: r.testRequisitionId ?? null,
      // the summary's Edit is one page: there is no other step to go to, and Save is the summary's
      goTo: () => undefined,
      ensureSaved: async () => r.id,
    };
  }, [form, errors, touched, permissions, rules, r.id, r.testRequisitionId, onChange]);

  return (
    <WizardContext.Provider value={ctx}>
      <SpecimenStep />
    </WizardContext.Provider>
  );
}
