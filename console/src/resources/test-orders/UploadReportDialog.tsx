import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { Box, Button, Checkbox, FormControlLabel, LinearProgress, Typography } from '@mui/material';
import { FormDialog, useMessagesT, useToast } from '../../components';
import { isPdfFileName, useReportMethods } from './reportsApi';
import { reportsEn } from './reportsI18n';

export interface UploadReportDialogProps {
  open: boolean;
  /** the test order's id */
  testOrderId: string;
  onClose: () => void;
  /** called once the report is uploaded and submitted (the test's status has changed) */
  onDone: () => void;
}

/** react-admin's translate with this dialog's English texts as the default. */
const useReportsT = () => useMessagesT(reportsEn);

const errorMessage = (e: unknown): string | null => {
  const body = (e as { body?: { message?: unknown } })?.body;
  if (body && typeof body.message === 'string' && body.message) return body.message;
  return e instanceof Error && e.message ? e.message : null;
};

/**
 * Upload Report (spec 2 sections 4, 5, 6, 8): a .pdf file (any other file shows "Invalid file type. Please
 * select a valid file (.pdf)." and is not taken), the Amended and TNP flags, Upload disabled until a file is
 * chosen. Upload streams the file with a progress bar (integer percent), then submits it: the status becomes
 * REPORT_AMENDED (amended), TNP_REPORT_COMPLETE (TNP) or REPORT_COMPLETE. A failure shows the server's message
 * in an error toast. Cancel during the upload aborts it (the server keeps nothing).
 */
export function UploadReportDialog({ open, testOrderId, onClose, onDone }: UploadReportDialogProps) {
  const t = useReportsT();
  const toast = useToast();
  const methods = useReportMethods();
  const [file, setFile] = useState<File | null>(null);
  const [invalid, setInvalid] = useState(false);
  const [amended, setAmended] = useState(false);
  const [tnp, setTnp] = useState(false);
  const [percent, setPercent] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const busy = percent !== null || saving;

  // a fresh dialog each time it opens
  useEffect(() => {
    if (!open) return;
    setFile(null);
    setInvalid(false);
    setAmended(false);
    setTnp(false);
    setPercent(null);
    setSaving(false);
  }, [open, testOrderId]);
  useEffect(() => () => abort.current?.abort(), []);

  const choose = (e: ChangeEvent<HTMLInputElement>) => {
    const f = e.target.files?.[0] ?? null;
    e.target.value = ''; // choosing the same file again fires a change
    if (!f) return;
    if (!isPdfFileName(f.name)) {
      setFile(null);
      setInvalid(true);
      return;
    }
    setInvalid(false);
    setFile(f);
  };

  const upload = async () => {
    if (!file) return;
    const ctrl = new AbortController();
    abort.current = ctrl;
    setPercent(0);
    try {
      const { data } = await methods.uploadReport({
        id: testOrderId,
        file,
        amended,
        tnp,
        onProgress: setPercent,
        signal: ctrl.signal,
      });
      setSaving(true);
      await methods.submitReport({ id: testOrderId, filePath: data.filePath, amended, tnp });
      toast('success', t('reports.done'));
      onDone();
      onClose();
    } catch (e) {
      if ((e as Error)?.name !== 'AbortError') toast('error', errorMessage(e) ?? t('reports.failed'));
    } finally {
      abort.current = null;
      setPercent(null);
      setSaving(false);
    }
  };

  const cancel = () => {
    abort.current?.abort();
    if (!saving) onClose();
  };

  return (
    <FormDialog
      open={open}
      title={t('reports.title')}
      onClose={onClose}
      testId="upload-report-dialog"
      busy={busy}
      cancelLabel={t('reports.cancel')}
      onCancel={cancel}
      cancelDisabled={saving}
      submitLabel={t('reports.upload')}
      onSubmit={upload}
      submitDisabled={!file}
      submitTestId="upload-report-submit"
    >
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5, pt: 1 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
          <Button variant="outlined" component="label" disabled={busy}>
            {t('reports.chooseFile')}
            <input
              hidden
              type="file"
              accept=".pdf,application/pdf"
              onChange={choose}
              data-testid="upload-report-file"
            />
          </Button>
          <Typography variant="body2" color={file ? 'text.primary' : 'text.secondary'} noWrap>
            {file
              ? `${file.name} (${t('reports.size', { size: (file.size / 1024 / 1024).toFixed(1) })})`
              : t('reports.noFile')}
          </Typography>
        </Box>
        {invalid && (
          <Typography variant="body2" color="error" role="alert" data-testid="upload-report-invalid">
            {t('reports.invalidType')}
          </Typography>
        )}
        <FormControlLabel
          control={
            <Checkbox checked={amended} onChange={(e) => setAmended(e.target.checked)} disabled={busy} />
          }
          label={t('reports.amended')}
        />
        <FormControlLabel
          control={<Checkbox checked={tnp} onChange={(e) => setTnp(e.target.checked)} disabled={busy} />}
          label={t('reports.tnp')}
        />
        {busy && (
          <Box data-testid="upload-report-progress">
            <LinearProgress
              variant={saving ? 'indeterminate' : 'determinate'}
              value={percent ?? 100}
              aria-label={t('reports.uploading', { percent: percent ?? 100 })}
            />
            <Typography variant="caption" color="text.secondary">
              {saving ? t('reports.saving') : t('reports.uploading', { percent: percent ?? 0 })}
            </Typography>
          </Box>
        )}
      </Box>
    </FormDialog>
  );
}
