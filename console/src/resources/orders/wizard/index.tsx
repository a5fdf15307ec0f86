/**
 * The order wizard (spec 1 section 2): `/order/new` and `/order/{id}` for a draft. Every rule comes from
 * @onco/domain (validateRequisition, stepStates, canContinueToConsent, canSubmitOrder, showSaveAndExit, ...).
 */
import { Alert, Box, Button, CircularProgress, Paper } from '@mui/material';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { usePermissions } from 'react-admin';
import { useNavigate, useParams } from 'react-router-dom';
import {
  STEP_KEYS,
  canContinueToConsent,
  canDeleteDraft,
  canJumpTo,
  canSubmitOrder,
  hasProblems,
  saveProblems,
  showSaveAndExit,
  stepStates,
  validateRequisition,
  type FieldErrors,
  type RequisitionForm,
  type StepKey,
} from '@onco/domain';
import { Banner, ConfirmDialog, useToast } from '../../../components';
import { useWizardApi } from './api';
import { WizardContext, type WizardContextValue } from './context';
import {
  NEW_PROGRESS,
  emptyForm,
  markUpdated,
  moveTo,
  nextStep,
  previousStep,
  problemsFromError,
  progressFromForm,
  readProgress,
  ruleContext,
  setPath,
  stepOfPath,
  writeProgress,
  type WizardProgress,
} from './model';
import { AttachmentsStep } from './steps/AttachmentsStep';
import { AuthorizationStep } from './steps/AuthorizationStep';
import { BillingStep } from './steps/BillingStep';
import { PatientStep } from './steps/PatientStep';
import { AdditionalProviderStep, PathologyStep, ProviderStep } from './steps/ProviderStep';
import { SpecimenStep } from './steps/SpecimenStep';
import { SummaryStep } from './steps/SummaryStep';
import { WizardSteps } from './WizardSteps';
import { useWizardT } from './useWizardT';
import { ruleText } from './ruleText';

export { wizardEn, wizardZh } from './i18n';

const errorMessage = (e: unknown, fallback: string) =>
  (e as { body?: { message?: string } })?.body?.message || (e as Error)?.message || fallback;

/** Route component for /order/new and /order/:id (a draft). */
export function OrderWizardPage() {
  const { id: routeId } = useParams<{ id: string }>();
  const navigate = useNavigate();
  const toast = useToast();
  const t = useWizardT();
  const api = useWizardApi();
  const { permissions: granted } = usePermissions<string[]>();
  const permissions = useMemo(() => granted ?? [], [granted]);
  const rules = useMemo(() => ruleContext(permissions), [permissions]);

  const [form, setForm] = useState<RequisitionForm | null>(
    routeId === 'new' || !routeId ? emptyForm() : null,
  );
  const [progress, setProgress] = useState<WizardProgress>(NEW_PROGRESS);
  const [touched, setTouched] = useState<string[]>([]);
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const [reqId, setReqId] = useState<string | null>(null);
  const [trfNumber, setTrfNumber] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  const idRef = useRef<string | null>(null);
  const formRef = useRef<RequisitionForm | null>(form);
  formRef.current = form;
  const progressRef = useRef<WizardProgress>(progress);
  progressRef.current = progress;
  const saving = useRef<Promise<string | null> | null>(null);

  // load a draft (or start empty); a non-draft opens the summary
  useEffect(() => {
    if (!routeId || routeId === 'new') {
      if (idRef.current) return; // just created: the route now names it
      setForm(emptyForm());
      setProgress(NEW_PROGRESS);
      return;
    }
    if (idRef.current === routeId) return;
    let live = true;
    setForm(null);
    api
      .load(routeId)
      .then((doc) => {
        if (!live) return;
        if (doc.status && doc.status !== 'DRAFT') {
          navigate(`/order/${encodeURIComponent(routeId)}/summary/patient`, { replace: true });
          return;
        }
        idRef.current = doc.id;
        setReqId(doc.id);
        setTrfNumber(doc.testRequisitionId ?? null);
        setForm(doc);
        setProgress(readProgress(doc.id) ?? progressFromForm(doc));
      })
      .catch((e) => live && setLoadError(errorMessage(e, t('wizard.messages.loadFailed'))));
    return () => {
      live = false;
    };
  }, [routeId, api, navigate, t]);

  useEffect(() => {
    if (reqId) writeProgress(reqId, progress);
  }, [reqId, progress]);

  const errors = useMemo<FieldErrors>(() => {
    if (!form) return {};
    const out: FieldErrors = {};
    for (const e of Object.values(validateRequisition(form, rules))) Object.assign(out, e);
    return out;
  }, [form, rules]);

  const states = useMemo(() => (form ? stepStates(form, rules, progress) : null), [form, rules, progress]);

  /** Save now: create on the first call, PUT afterwards (status DRAFT). Concurrent calls share one save. */
  const ensureSaved = useCallback(
    async (continueTo?: StepKey): Promise<string | null> => {
      if (saving.current) await saving.current.catch(() => null);
      const current = formRef.current;
      if (!current) return null;
      // values that break a rule are never sent: show them (the step counts as passed) and stay
      const invalid = saveProblems(current, rules);
      if (hasProblems(invalid)) {
        const paths = Object.values(invalid).flatMap((e) => Object.keys(e ?? {}));
        setTouched((list) => [...list, ...paths.filter((p) => !list.includes(p))]);
        toast('error', t('wizard.messages.fixErrors'));
        return null;
      }
      const run = (async () => {
        try {
          if (!idRef.current) {
            const doc = await api.create(current);
            idRef.current = doc.id;
            setReqId(doc.id);
            setTrfNumber(doc.testRequisitionId ?? null);
            // remembered before the route changes, so a remount on /order/{id} resumes at the right step
            const p = progressRef.current;
            writeProgress(doc.id, continueTo ? moveTo(p, continueTo) : p);
            navigate(`/order/${encodeURIComponent(doc.id)}`, { replace: true });
          } else {
            const doc = await api.save(idRef.current, current);
            setTrfNumber(doc.testRequisitionId ?? null);
          }
          setServerErrors({});
          return idRef.current;
        } catch (e) {
          // the field messages of a refused save: `details.fields` (the requisition API's 400), or `errors`
          const details = (e as { body?: { details?: { fields?: FieldErrors; errors?: FieldErrors } } })?.body
            ?.details;
          const fields = details?.fields ?? details?.errors;
          if (fields) setServerErrors(fields);
          toast(
            'error',
            errorMessage(
              e,
              idRef.current ? t('wizard.messages.saveFailed') : t('wizard.messages.createFailed'),
            ),
          );
          return null;
        }
      })();
      saving.current = run;
      try {
        return await run;
      } finally {
        if (saving.current === run) saving.current = null;
      }
    },
    [api, navigate, toast, t, rules],
  );

  const set = useCallback((path: string, value: unknown) => {
    setForm((f) => (f ? setPath(f, path, value) : f));
    setTouched((list) => (list.includes(path) ? list : [...list, path]));
    setProgress((p) => markUpdated(p, stepOfPath(path)));
  }, []);

  const patch = useCallback((values: Record<string, unknown>) => {
    setForm((f) => {
      let out = f;
      for (const [k, v] of Object.entries(values)) out = out ? setPath(out, k, v) : out;
      return out;
    });
    setTouched((list) => [...list, ...Object.keys(values).filter((k) => !list.includes(k))]);
    setProgress((p) => Object.keys(values).reduce((acc, k) => markUpdated(acc, stepOfPath(k)), p));
  }, []);

  const errorFor = useCallback(
    (path: string): string | undefined => {
      if (serverErrors[path]) return ruleText(serverErrors[path], t);
      const message = errors[path];
      if (!message) return undefined;
      const step = stepOfPath(path);
      const shown =
        (step && progress.passed.includes(step)) ||
        touched.some((p) => p === path || path.startsWith(`${p}.`) || p.startsWith(`${path}.`));
      return shown ? ruleText(message, t) : undefined;
    },
    [errors, serverErrors, progress.passed, touched, t],
  );

  const goTo = useCallback((step: StepKey) => setProgress((p) => moveTo(p, step)), []);

  const can = useCallback((p: string) => permissions.includes(p), [permissions]);

  const ctx: WizardContextValue | null = form
    ? {
        form,
        set,
        patch,
        errors,
        errorFor,
        permissions,
        can,
        rules,
        requisitionId: reqId,
        testRequisitionId: trfNumber,
        goTo,
        ensureSaved,
      }
    : null;

  const step = progress.step;
  const isLast = step === STEP_KEYS[STEP_KEYS.length - 1];
  const isConsentStep = nextStep(step) === STEP_KEYS[STEP_KEYS.length - 1];

  const onContinue = async () => {
    const next = nextStep(step);
    if (!next) return;
    setBusy(true);
    const id = await ensureSaved(next);
    setBusy(false);
    if (id) setProgress((p) => moveTo(p, next));
  };

  const onPrevious = () => {
    const prev = previousStep(step);
    if (prev) setProgress((p) => moveTo(p, prev));
  };

  const onSaveAndExit = async () => {
    setBusy(true);
    const id = await ensureSaved();
    setBusy(false);
    if (id) navigate('/orders');
  };

  const onSubmit = async () => {
    if (!form || !reqId) return;
    setBusy(true);
    try {
      await api.submit(reqId, form);
      localStorage.removeItem(`oncotrf.wizard.${reqId}`);
      toast('success', t('wizard.messages.submitted'));
      navigate('/orders');
    } catch (e) {
      setServerErrors(problemsFromError((e as { body?: unknown }).body));
      toast('error', errorMessage(e, t('wizard.messages.saveFailed')));
    } finally {
      setBusy(false);
    }
  };

  const onDelete = async () => {
    if (!reqId) return;
    try {
      await api.remove(reqId);
      localStorage.removeItem(`oncotrf.wizard.${reqId}`);
      toast('success', t('wizard.messages.draftDeleted'));
      navigate('/orders');
    } catch (e) {
      toast('error', errorMessage(e, t('wizard.messages.deleteFailed')));
    } finally {
      setConfirmDelete(false);
    }
  };

  const title = `${t('wizard.banner')}${trfNumber ? ` : ${trfNumber}` : ''}`;

  if (loadError) {
    return (
      <Box sx={{ p: 2 }}>
        <Banner title={t('wizard.banner')} />
        <Alert severity="error">{loadError}</Alert>
      </Box>
    );
  }
  if (!ctx || !states) {
    return (
      <Box sx={{ p: 2 }}>
        <Banner title={title} />
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
          <CircularProgress aria-label={t('wizard.loading')} />
        </Box>
      </Box>
    );
  }

  return (
    <WizardContext.Provider value={ctx}>
      <Box sx={{ p: 2 }} data-wizard-step={step}>
        <Banner title={title} />
        <WizardSteps current={step} states={states} onJump={(s) => canJumpTo(states, s) && goTo(s)} />
        <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 }, mb: 2 }}>
          {step === 'patient' && <PatientStep />}
          {step === 'provider' && <ProviderStep />}
          {step === 'pathology' && <PathologyStep />}
          {step === 'additionalProvider' && <AdditionalProviderStep />}
          {step === 'specimen' && <SpecimenStep />}
          {step === 'billing' && <BillingStep />}
          {step === 'attachments' && <AttachmentsStep />}
          {step === 'summary' && <SummaryStep />}
          {step === 'authorization' && (
            <AuthorizationStep
              onSigned={(approvals) => setForm((f) => (f ? { ...f, approvals: approvals as never } : f))}
            />
          )}
        </Paper>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
          {previousStep(step) && (
            <Button variant="outlined" onClick={onPrevious} disabled={busy}>
              {t('wizard.buttons.previous')}
            </Button>
          )}
          {reqId && canDeleteDraft(permissions) ? (
            <Button
              color="error"
              variant="text"
              onClick={() => setConfirmDelete(true)}
              disabled={busy}
              data-testid="wizard-delete-draft"
            >
              {t('wizard.buttons.deleteDraft')}
            </Button>
          ) : null}
          <Box sx={{ flex: 1 }} />
          {showSaveAndExit(step) && (
            <Button variant="text" onClick={() => void onSaveAndExit()} disabled={busy}>
              {t('wizard.buttons.saveAndExit')}
            </Button>
          )}
          {isLast ? (
            <Button
              variant="contained"
              onClick={() => void onSubmit()}
              disabled={busy || !canSubmitOrder(form!)}
            >
              {t('wizard.buttons.submit')}
            </Button>
          ) : isConsentStep ? (
            <Button
              variant="contained"
              onClick={() => void onContinue()}
              disabled={busy || !canContinueToConsent(states)}
            >
              {t('wizard.buttons.continueToConsent')}
            </Button>
          ) : (
            <Button variant="contained" onClick={() => void onContinue()} disabled={busy}>
              {t('wizard.buttons.continue')}
            </Button>
          )}
        </Box>
        <ConfirmDialog
          open={confirmDelete}
          kind="warning"
          title={t('wizard.deleteDraftTitle')}
          message={t('wizard.deleteDraftMessage')}
          onConfirm={onDelete}
          onClose={() => setConfirmDelete(false)}
        />
      </Box>
    </WizardContext.Provider>
  );
}

export default OrderWizardPage;
