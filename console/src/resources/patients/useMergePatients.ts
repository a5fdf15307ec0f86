import { useMemo, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDebounced, useToast } from '../../components';
import type { PatientMerge, PatientRow } from './api';
import { MERGE_SEARCH_DEBOUNCE_MS, MERGE_SEARCH_SIZE, primaryResults, primarySearchFilter } from './logic';
import { useMergeProgress } from './MergeProgress';
import { errorMessage, usePatientMethods, usePatientsT } from './usePatients';

export type MergeStep = 'pick' | 'preview' | 'progress';
/** how long the finished bar (100 %) stays before the dialog closes */
const DONE_SHOWN_MS = 1500;

/**
 * Merge Patients' state: the step, the primary's search (debounced, the duplicates excluded) and choice, the
 * preview of the chosen primary, the merge call and the server's run.
 */
export function useMergePatients(duplicates: PatientRow[], onClose: () => void, onMerged: () => void) {
  const t = usePatientsT();
  const toast = useToast();
  const api = usePatientMethods();
  const dupIds = useMemo(() => duplicates.map((d) => d.id), [duplicates]);
  const [step, setStep] = useState<MergeStep>('pick');
  const [text, setText] = useState('');
  const q = useDebounced(text, MERGE_SEARCH_DEBOUNCE_MS);
  const [primary, setPrimary] = useState<PatientRow | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [started, setStarted] = useState<PatientMerge | null>(null);

  const search = useQuery({
    queryKey: ['patients', 'merge-primary', q, dupIds],
    enabled: step === 'pick',
    placeholderData: keepPreviousData,
    retry: false,
    queryFn: () =>
      api
        .searchMergePrimary({ filter: primarySearchFilter(q, dupIds), perPage: MERGE_SEARCH_SIZE })
        .then((r) => primaryResults(r.data, dupIds)),
  });
  const preview = useQuery({
    queryKey: ['patients', 'merge-preview', primary?.id, dupIds],
    enabled: step !== 'pick' && Boolean(primary),
    retry: false,
    staleTime: 0,
    gcTime: 0,
    queryFn: () => api.previewPatientMerge({ targetId: primary!.id, sourceIds: dupIds }).then((r) => r.data),
  });
  const { merge, problem: progressProblem } = useMergeProgress(started, (m) => {
    if (m.status === 'DONE') {
      toast('success', t('patients.merging.merged'));
      onMerged();
      // the bar stays at 100 % a moment, then the dialog closes
      setTimeout(onClose, DONE_SHOWN_MS);
    }
  });

  const doMerge = async () => {
    if (!primary) return;
    setBusy(true);
    setProblem(null);
    try {
      const version = preview.data?.target.version ?? primary.version;
      const { data } = await api.mergePatients({ targetId: primary.id, version, sourceIds: dupIds });
      setStarted(data);
      setStep('progress');
    } catch (e) {
      const msg = errorMessage(e, t('patients.merging.failed'));
      setProblem(msg);
      toast('error', msg);
    } finally {
      setBusy(false);
    }
  };
  const back = () => {
    setProblem(null);
    setStep('pick');
  };

  return {
    dupIds,
    step,
    setStep,
    text,
    setText,
    primary,
    setPrimary,
    busy,
    problem,
    search,
    preview,
    merge,
    progressProblem,
    doMerge,
    back,
  };
}

export type MergePatientsState = ReturnType<typeof useMergePatients>;
