import { useRef, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
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
import { BOX_UPLOAD_TYPES } from '@onco/domain';
import { DateText, FormDialog, useMessagesT, useToast } from '../../components';
import { useEnumLabel } from '../orders/list/useOrdersT';
import { useBoxMethods, type AttachmentRow } from './api';
import { CheckResult } from './CheckResult';
import { messageOf, preSx } from './dialogShared';
import { boxEn } from './i18n';
import { canCheckManifest, hasErrorFile, manifestErrorsText, missingKinds } from './logic';
import { useUpload } from './useUpload';

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
    <FormDialog
      title={t('box.errorsTitle')}
      onClose={onClose}
      maxWidth="md"
      testId="box-errors-dialog"
      extraActions={
        <>
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
        </>
      }
      closeLabel={t('box.close')}
      closeTestId="box-errors-close"
    >
      <Typography variant="body2" sx={{ mb: 1.5 }}>
        {t('box.fixAndReupload', { name: row.name })}
      </Typography>
      <Box component="pre" data-testid="box-error-details" sx={preSx}>
        {details}
      </Box>
    </FormDialog>
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
    <FormDialog
      title={t('box.summaryTitle')}
      onClose={onClose}
      maxWidth="md"
      testId="box-summary-dialog"
      closeLabel={t('box.close')}
    >
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
    </FormDialog>
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
  const { permissions = [] } = usePermissions<string[]>();
  const input = useRef<HTMLInputElement>(null);
  const u = useUpload(onDone);
  const { account, file, percent, busy } = u;
  return (
    <FormDialog
      title={t('box.uploadTitle')}
      onClose={onClose}
      maxWidth="md"
      testId="box-upload-dialog"
      locked={busy}
      contentSx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}
      extraActions={
        canCheckManifest(u.type, file, permissions) ? (
          <Button
            onClick={() => void u.check()}
            disabled={busy}
            data-testid="box-upload-check"
            sx={{ mr: 'auto' }}
          >
            {u.checking ? t('box.checking') : t('box.check')}
          </Button>
        ) : null
      }
      cancelLabel={t('box.cancel')}
      cancelDisabled={percent !== null}
      submitLabel={t('box.upload')}
      onSubmit={u.upload}
      submitDisabled={!file || !account.data || busy}
      submitTestId="box-upload-submit"
    >
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
        value={u.type}
        onChange={(e) => u.chooseType(e.target.value)}
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
          onChange={u.choose}
          data-testid="box-upload-input"
        />
      </Box>
      {u.problem ? (
        <Alert severity="error" data-testid="box-upload-problem">
          {u.problem}
        </Alert>
      ) : null}
      {u.checking ? <LinearProgress data-testid="box-checking" /> : null}
      {u.checked ? <CheckResult result={u.checked} /> : null}
      {percent !== null ? (
        <Box>
          <LinearProgress variant="determinate" value={percent} />
          <Typography variant="caption" data-testid="box-upload-percent">
            {percent}%
          </Typography>
        </Box>
      ) : null}
    </FormDialog>
  );
}
