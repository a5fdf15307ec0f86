import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  Link,
  MenuItem,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { usePermissions } from 'react-admin';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router-dom';
import {
  BOX_DEFAULT_TYPE,
  BOX_UPLOAD_TYPES,
  MSG_BOX_FILE_TYPE,
  isBoxFileName,
  manifestErrorText,
} from '@onco/domain';
import { DateText, useMessagesT, useToast } from '../../components';
import { useEnumLabel } from '../orders/list/useOrdersT';
import { useBoxMethods, type AttachmentRow, type ManifestCheck } from './api';
import { boxEn } from './i18n';
import { canCheckManifest, checkOutcome, hasErrorFile, manifestErrorsText, missingKinds } from './logic';

/** The account uploads go to: the one named in the console's build configuration (spec 3 section 7.2). */
const BOX_ACCOUNT_NAME = (import.meta.env.VITE_BOX_ACCOUNT_NAME as string | undefined) ?? '';

/** The server's message of a failed call, else `fallback`. */
const messageOf = (e: unknown, fallback: string) =>
  (e as { body?: { message?: string } })?.body?.message || fallback;

const preSx = {
  m: 0,
  p: 1.5,
  bgcolor: 'grey.100',
  borderRadius: 1,
  whiteSpace: 'pre-wrap',
  fontSize: 13,
  maxHeight: 320,
  overflow: 'auto',
} as const;

/**
 * Put `text` on the clipboard: the Clipboard API, else (no secure context, no focus, no permission) a selected
 * textarea and the copy command, placed inside `within` (the dialog, whose focus trap would otherwise take the
 * focus back). Whether either worked.
 */
async function copyText(text: string, within: HTMLElement): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    Object.assign(area.style, { position: 'fixed', top: '0', left: '0', opacity: '0' });
    (within.closest('[role="dialog"]') ?? document.body).appendChild(area);
    area.focus();
    area.select();
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    } finally {
      area.remove();
      within.focus();
    }
  }
}

/**
 * "Sample Manifest Errors" (spec 3 section 2.8): the details, the fix-and-re-upload text, Copy to Clipboard and
 * Close; for a sample manifest also "Download error file" (its rows with an Error column, to fix and re-upload).
 */
export function ErrorsDialog({ row, onClose }: { row: AttachmentRow; onClose: () => void }) {
  const t = useMessagesT(boxEn);
  const label = useEnumLabel();
  const toast = useToast();
  const box = useBoxMethods();
  const [downloading, setDownloading] = useState(false);
  // the details in the user's language (the stored text and the error file are English)
  const details = manifestErrorsText(row.errorDetails ?? '', t, label);
  const copy = async (within: HTMLElement) => {
    if (await copyText(details, within)) toast('success', t('box.copied'));
    else toast('error', t('box.copyFailed'));
  };
  const downloadErrors = async () => {
    setDownloading(true);
    try {
      await box.downloadManifestErrors({ id: row.id, name: row.name });
    } catch (e) {
      toast('error', messageOf(e, t('box.downloadFailed')));
    } finally {
      setDownloading(false);
    }
  };
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth data-testid="box-errors-dialog">
      <DialogTitle>{t('box.errorsTitle')}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" sx={{ mb: 1.5 }}>
          {t('box.fixAndReupload', { name: row.name })}
        </Typography>
        <Box component="pre" data-testid="box-error-details" sx={preSx}>
          {details}
        </Box>
      </DialogContent>
      <DialogActions>
        {hasErrorFile(row) ? (
          <Button
            onClick={() => void downloadErrors()}
            disabled={downloading}
            data-testid="box-download-errors"
            sx={{ mr: 'auto' }}
          >
            {t('box.downloadErrors')}
          </Button>
        ) : null}
        <Button onClick={(e) => void copy(e.currentTarget)} data-testid="box-copy">
          {t('box.copy')}
        </Button>
        <Button variant="contained" onClick={onClose} data-testid="box-errors-close">
          {t('box.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * A processed manifest's summary (GET sampleManifests/{id}): rows, samples created and updated, and the
 * reconciliation: which expected samples of the requisitions it named are still missing, each linked to its
 * order's Samples tab.
 */
export function SummaryDialog({ row, onClose }: { row: AttachmentRow; onClose: () => void }) {
  const t = useMessagesT(boxEn);
  const label = useEnumLabel();
  const box = useBoxMethods();
  const summary = useQuery({
    queryKey: ['sampleManifest', row.id],
    queryFn: async () => (await box.getSampleManifest({ id: row.id })).data,
    retry: false,
  });
  const m = summary.data;
  const fact = (name: string, value: React.ReactNode, testId: string) => (
    <Box>
      <Typography variant="caption" color="text.secondary">
        {name}
      </Typography>
      <Typography variant="body1" data-testid={testId} sx={{ fontWeight: 600 }}>
        {value}
      </Typography>
    </Box>
  );
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth data-testid="box-summary-dialog">
      <DialogTitle>{t('box.summaryTitle')}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" sx={{ mb: 2 }}>
          {t('box.summary.file')}: {row.name}
        </Typography>
        {summary.isPending ? (
          <CircularProgress size={24} />
        ) : summary.error || !m ? (
          <Alert severity="warning">{messageOf(summary.error, t('box.summaryFailed'))}</Alert>
        ) : (
          <>
            <Box sx={{ display: 'flex', gap: 4, mb: 2.5, flexWrap: 'wrap' }}>
              {fact(t('box.summary.rows'), m.rows, 'box-summary-rows')}
              {fact(t('box.summary.created'), m.created, 'box-summary-created')}
              {fact(t('box.summary.updated'), m.updated, 'box-summary-updated')}
              {fact(
                t('box.summary.processedOn'),
                <DateText value={m.processedOn} withTime />,
                'box-summary-on',
              )}
            </Box>
            <Typography variant="subtitle2" sx={{ mb: 1 }}>
              {t('box.summary.missingTitle')}
            </Typography>
            {m.missing.length === 0 ? (
              <Alert severity="success" data-testid="box-summary-complete">
                {t('box.summary.missingNone')}
              </Alert>
            ) : (
              <Table size="small" data-testid="box-summary-missing">
                <TableHead>
                  <TableRow>
                    <TableCell>{t('box.summary.trf')}</TableCell>
                    <TableCell>{t('box.summary.expected')}</TableCell>
                    <TableCell>{t('box.summary.found')}</TableCell>
                    <TableCell>{t('box.summary.missing')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {m.missing.map((x) => (
                    <TableRow key={x.testOrderFormId}>
                      <TableCell>
                        <Link
                          component={RouterLink}
                          to={`/order/${encodeURIComponent(x.testOrderFormId)}/summary/samples`}
                          title={t('box.summary.openOrder')}
                        >
                          {x.testRequisitionId ?? x.testOrderFormId}
                        </Link>
                      </TableCell>
                      <TableCell>{x.expected.map(label).join(', ')}</TableCell>
                      <TableCell>{x.found.map(label).join(', ') || '—'}</TableCell>
                      <TableCell sx={{ color: 'error.main', fontWeight: 600 }}>
                        {missingKinds(x).map(label).join(', ')}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          {t('box.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The dry run's answer: the counts, then the row errors or the samples the file would create and update. */
function CheckResult({ result }: { result: ManifestCheck }) {
  const t = useMessagesT(boxEn);
  const label = useEnumLabel();
  const outcome = checkOutcome(result);
  const shown = result.samples.slice(0, 50);
  return (
    <Box data-testid="box-check-result" sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      <Typography variant="body2" sx={{ fontWeight: 600 }} data-testid="box-check-counts">
        {t('box.checkCounts', {
          rows: result.rows,
          create: result.create,
          update: result.update,
          refused: result.refused,
        })}
      </Typography>
      {outcome === 'errors' ? (
        <>
          <Alert severity="error">{t('box.checkErrors')}</Alert>
          <Box component="pre" data-testid="box-check-errors" sx={preSx}>
            {manifestErrorsText(
              manifestErrorText(result.errors, result.errorCount ?? result.errors.length),
              t,
              label,
            )}
          </Box>
        </>
      ) : outcome === 'empty' ? (
        <Alert severity="warning">{t('box.checkEmpty')}</Alert>
      ) : (
        <Alert severity="success" data-testid="box-check-ok">
          {t('box.checkOk')}
        </Alert>
      )}
      {outcome !== 'errors' && shown.length ? (
        <Box sx={{ maxHeight: 220, overflow: 'auto' }}>
          <Table size="small" stickyHeader data-testid="box-check-samples">
            <TableHead>
              <TableRow>
                <TableCell>{t('box.sample.row')}</TableCell>
                <TableCell>{t('box.sample.action')}</TableCell>
                <TableCell>{t('box.sample.trf')}</TableCell>
                <TableCell>{t('box.sample.type')}</TableCell>
                <TableCell>{t('box.sample.name')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {shown.map((s) => (
                <TableRow key={`${s.row}`}>
                  <TableCell>{s.row}</TableCell>
                  <TableCell>{t(`box.sample.${s.action}`)}</TableCell>
                  <TableCell>{s.testRequisitionId ?? s.testOrderFormId}</TableCell>
                  <TableCell>{label(s.type)}</TableCell>
                  <TableCell>{s.name}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {result.samples.length > shown.length ? (
            <Typography variant="caption" color="text.secondary">
              {t('box.checkMore', { count: result.samples.length - shown.length })}
            </Typography>
          ) : null}
        </Box>
      ) : null}
    </Box>
  );
}

/**
 * Add Attachment (spec 3 section 2.8): .xlsx, .xls, .csv or .pdf; type SAMPLE_MANIFEST by default; Upload
 * disabled until a file is chosen; progress as an integer percent. The account is the one named
 * VITE_BOX_ACCOUNT_NAME (spec 3 section 7.2: the lookup's first result), else the user's first account. For a
 * sample manifest, "Check file" runs the dry run (nothing applied) and shows what the upload would do.
 */
export function UploadDialog({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const t = useMessagesT(boxEn);
  const label = useEnumLabel();
  const toast = useToast();
  const box = useBoxMethods();
  const { permissions = [] } = usePermissions<string[]>();
  const input = useRef<HTMLInputElement>(null);
  const abort = useRef<AbortController | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [type, setType] = useState<string>(BOX_DEFAULT_TYPE);
  const [problem, setProblem] = useState<string | null>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const [checking, setChecking] = useState(false);
  const [checked, setChecked] = useState<ManifestCheck | null>(null);
  const account = useQuery({
    queryKey: ['boxAccount', BOX_ACCOUNT_NAME],
    queryFn: async () => (await box.getBoxAccount({ name: BOX_ACCOUNT_NAME })).data,
  });
  useEffect(() => () => abort.current?.abort(), []);

  const choose = (e: ChangeEvent<HTMLInputElement>) => {
    const f = e.target.files?.[0] ?? null;
    e.target.value = ''; // choosing the same file again (after fixing it) fires again
    setChecked(null);
    if (f && !isBoxFileName(f.name)) {
      setFile(null);
      setProblem(MSG_BOX_FILE_TYPE);
      return;
    }
    setProblem(null);
    setFile(f);
  };
  const check = async () => {
    if (!file) return;
    setChecking(true);
    setProblem(null);
    setChecked(null);
    abort.current = new AbortController();
    try {
      setChecked((await box.checkManifest({ file, signal: abort.current.signal })).data);
    } catch (e) {
      if ((e as Error)?.name !== 'AbortError') setProblem(messageOf(e, t('box.checkFailed')));
    } finally {
      setChecking(false);
    }
  };
  const upload = async () => {
    if (!file || !account.data) return;
    setProblem(null);
    setPercent(0);
    abort.current = new AbortController();
    try {
      await box.uploadAttachment({
        file,
        type,
        account: account.data,
        onProgress: setPercent,
        signal: abort.current.signal,
      });
      toast('success', t('box.uploaded'));
      onDone();
    } catch (e) {
      setPercent(null);
      if ((e as Error)?.name === 'AbortError') return;
      // the server's message (e.g. the Box's file-type text) in the dialog, so the user can choose again
      setProblem(messageOf(e, t('box.uploadFailed')));
    }
  };
  const busy = percent !== null || checking;
  return (
    <Dialog open onClose={busy ? undefined : onClose} maxWidth="md" fullWidth data-testid="box-upload-dialog">
      <DialogTitle>{t('box.uploadTitle')}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}>
        {account.isPending ? null : account.data ? (
          <Typography variant="body2" color="text.secondary" data-testid="box-upload-account">
            {t('box.account', { name: account.data.name ?? account.data.id })}
          </Typography>
        ) : (
          <Alert severity="warning">{t('box.noAccount')}</Alert>
        )}
        <TextField
          select
          size="small"
          label={t('box.attachmentType')}
          value={type}
          onChange={(e) => {
            setType(e.target.value);
            setChecked(null);
          }}
          disabled={busy}
          slotProps={{ htmlInput: { 'data-testid': 'box-upload-type' } }}
          sx={{ maxWidth: 360 }}
        >
          {BOX_UPLOAD_TYPES.map((k) => (
            <MenuItem key={k} value={k}>
              {label(k)}
            </MenuItem>
          ))}
        </TextField>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, minWidth: 0 }}>
          <Button variant="outlined" onClick={() => input.current?.click()} disabled={busy}>
            {t('box.chooseFile')}
          </Button>
          <Tooltip title={file?.name ?? ''}>
            <Typography variant="body2" noWrap data-testid="box-upload-file-name">
              {file?.name ?? ''}
            </Typography>
          </Tooltip>
          <input
            ref={input}
            type="file"
            hidden
            accept=".xlsx,.xls,.csv,.pdf"
            onChange={choose}
            data-testid="box-upload-input"
          />
        </Box>
        {problem ? (
          <Alert severity="error" data-testid="box-upload-problem">
            {problem}
          </Alert>
        ) : null}
        {checking ? <LinearProgress data-testid="box-checking" /> : null}
        {checked ? <CheckResult result={checked} /> : null}
        {percent !== null ? (
          <Box>
            <LinearProgress variant="determinate" value={percent} />
            <Typography variant="caption" data-testid="box-upload-percent">
              {percent}%
            </Typography>
          </Box>
        ) : null}
      </DialogContent>
      <DialogActions>
        {canCheckManifest(type, file, permissions) ? (
          <Button
            onClick={() => void check()}
            disabled={busy}
            data-testid="box-upload-check"
            sx={{ mr: 'auto' }}
          >
            {checking ? t('box.checking') : t('box.check')}
          </Button>
        ) : null}
        <Button onClick={onClose} disabled={percent !== null}>
          {t('box.cancel')}
        </Button>
        <Button
          variant="contained"
          disabled={!file || !account.data || busy}
          onClick={() => void upload()}
          data-testid="box-upload-submit"
        >
          {t('box.upload')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
