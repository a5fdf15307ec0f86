import { useEffect, useRef, useState } from 'react';
import { Alert, Box, LinearProgress, Typography } from '@mui/material';
import type { PatientMerge } from './api';
import { MERGE_POLL_MS, mergePercent, mergeProgressCount, mergeRunning } from './logic';
import { errorMessage, usePatientMethods, usePatientsT } from './usePatients';

/**
 * A merge (or its undo) as it runs: starts from the POST's answer and asks GET /patients/merges/{id} every second
 * until the server says DONE or UNDONE, then calls `onFinished` once. A failed read is shown and retried.
 */
export function useMergeProgress(start: PatientMerge | null, onFinished: (m: PatientMerge) => void) {
  const api = usePatientMethods();
  const [merge, setMerge] = useState<PatientMerge | null>(start);
  const [problem, setProblem] = useState<string | null>(null);
  const finished = useRef<string | null>(null);
  const done = useRef(onFinished);
  done.current = onFinished;
  const t = usePatientsT();

  useEffect(() => setMerge(start), [start]);

  useEffect(() => {
    if (!merge) return;
    if (!mergeRunning(merge)) {
      const key = `${merge.id}:${merge.status}`;
      if (finished.current !== key) {
        finished.current = key;
        done.current(merge);
      }
      return;
    }
    let live = true;
    const id = setTimeout(() => {
      api
        .getPatientMerge({ mergeId: merge.id })
        .then(({ data }) => {
          if (!live) return;
          setProblem(null);
          setMerge(data);
        })
        .catch((e: unknown) => {
          if (!live) return;
          setProblem(errorMessage(e, t('patients.merging.progressFailed')));
          setMerge((m) => (m ? { ...m } : m)); // ask again after the next tick
        });
    }, MERGE_POLL_MS);
    return () => {
      live = false;
      clearTimeout(id);
    };
  }, [merge, api, t]);

  return { merge, problem };
}

/** The progress bar: integer percent and "n of m requisitions moved" (or moved back, for an undo). */
export function MergeProgressBar({ merge, problem }: { merge: PatientMerge; problem?: string | null }) {
  const t = usePatientsT();
  const percent = mergePercent(merge);
  const { done, total } = mergeProgressCount(merge);
  const undo = merge.status === 'UNDOING' || merge.status === 'UNDONE';
  return (
    <Box data-testid="merge-progress">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
        <LinearProgress
          variant="determinate"
          value={percent}
          sx={{ flex: 1, height: 10, borderRadius: 5 }}
          aria-label={t(undo ? 'patients.merging.undoRunning' : 'patients.merging.running')}
        />
        <Typography
          variant="body2"
          sx={{ fontWeight: 600, minWidth: 44, textAlign: 'right' }}
          data-testid="merge-progress-percent"
        >
          {percent}%
        </Typography>
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }} data-testid="merge-progress-count">
        {t(undo ? 'patients.merging.undoProgress' : 'patients.merging.progress', { done, total })}
      </Typography>
      {problem ? (
        <Alert severity="warning" sx={{ mt: 1.5 }}>
          {problem}
        </Alert>
      ) : null}
    </Box>
  );
}
