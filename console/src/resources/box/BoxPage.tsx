import { useEffect, useMemo, useRef, useState, type ChangeEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  LinearProgress,
  Link,
  ListItemText,
  Menu,
  MenuItem,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import { useDataProvider, useGetList } from 'react-admin';
import { BOX_DEFAULT_TYPE, BOX_UPLOAD_TYPES, MSG_BOX_FILE_TYPE, isBoxFileName } from '@onco/domain';
import {
  ConfirmDialog,
  DateText,
  ListPage,
  Truncate,
  useMessagesT,
  useToast,
  type Column,
  type FacetFilterDef,
} from '../../components';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { useEnumLabel } from '../orders/list/useOrdersT';
import { dayBoundary, dayOf } from '../tests/logic';
import { boxEn } from './i18n';
import { boxBaseFilter, boxEmptyKey, canDelete, hasErrors, needsPolling, type BoxRange } from './logic';

/** The account uploads go to: the one named in the console's build configuration (spec 3 section 7.2). */
const BOX_ACCOUNT_NAME = (import.meta.env.VITE_BOX_ACCOUNT_NAME as string | undefined) ?? '';

interface AttachmentRow {
  id: string;
  name: string;
  type: string;
  status: string;
  errorDetails: string | null;
  attachedBy: { id: string | null; name: string | null } | null;
  account: { id: string | null; name: string | null } | null;
  createdOn: string;
  processedOn: string | null;
}

const stop = (e: React.MouseEvent) => e.stopPropagation();

/**
 * The Attachment Box (/box, spec 3 section 2.8): Created range, Type and Status filters from the server's facets,
 * Actions → Add Attachment, page sizes, search; the name downloads the file; delete (soft) only while UPLOADED; an
 * ERROR row's red Error link opens "Sample Manifest Errors" with Copy to Clipboard. While a sample manifest is still
 * UPLOADED the list refreshes itself every few seconds.
 */
export function BoxPage() {
  const t = useMessagesT(boxEn);
  const label = useEnumLabel();
  const toast = useToast();
  const dp = useDataProvider<ConsoleDataProvider>();
  const [range, setRange] = useState<BoxRange>({ start: null, end: null });
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const [uploading, setUploading] = useState(false);
  const [errorsOf, setErrorsOf] = useState<AttachmentRow | null>(null);
  const [toDelete, setToDelete] = useState<AttachmentRow | null>(null);
  const baseFilter = useMemo(() => boxBaseFilter(range), [range]);
  const ranged = range.start !== null || range.end !== null;

  const facets: FacetFilterDef[] = [
    { name: 'attachment_type_facet', field: 'type', label: t('box.facet.type') },
    { name: 'attachment_status_facet', field: 'status', label: t('box.facet.status') },
  ].map((f) => ({ ...f, itemLabel: (item) => label(item.value == null ? '' : String(item.value)) }));

  const download = (row: AttachmentRow) =>
    void dp
      .download({
        path: `/portal/api/v1/attachments/${encodeURIComponent(row.id)}/download`,
        fileName: row.name,
      })
      .catch(() => toast('error', t('box.uploadFailed')));

  const columns: Column<AttachmentRow>[] = [
    {
      source: 'name',
      label: t('box.col.name'),
      sortable: true,
      render: (r) => (
        <Link
          component="button"
          variant="body2"
          onClick={(e: React.MouseEvent) => {
            stop(e);
            download(r);
          }}
          data-testid={`box-download-${r.id}`}
        >
          <Truncate text={r.name} />
        </Link>
      ),
    },
    {
      source: 'createdOn',
      label: t('box.col.uploadedOn'),
      sortable: true,
      render: (r) => <DateText value={r.createdOn} withTime />,
    },
    {
      source: 'attachedBy',
      label: t('box.col.uploadedBy'),
      sortable: true,
      render: (r) => r.attachedBy?.name ?? '',
    },
    { source: 'type', label: t('box.col.type'), sortable: true, render: (r) => label(r.type) },
    {
      source: 'status',
      label: t('box.col.status'),
      sortable: true,
      render: (r) =>
        hasErrors(r.status) ? (
          <Link
            component="button"
            variant="body2"
            sx={{ color: 'error.main', fontWeight: 600 }}
            onClick={(e: React.MouseEvent) => {
              stop(e);
              setErrorsOf(r);
            }}
            data-testid={`box-error-${r.id}`}
          >
            {t('box.error')}
          </Link>
        ) : (
          <span data-testid={`box-status-${r.id}`}>{label(r.status)}</span>
        ),
    },
    {
      source: 'processedOn',
      label: t('box.col.processedOn'),
      sortable: true,
      render: (r) => <DateText value={r.processedOn} withTime />,
    },
    {
      source: 'delete',
      label: '',
      align: 'center',
      render: (r) =>
        canDelete(r.status) ? (
          <IconButton
            size="small"
            onClick={(e) => {
              stop(e);
              setToDelete(r);
            }}
            data-testid={`box-delete-${r.id}`}
            aria-label={t('box.deleteConfirm', { name: r.name })}
          >
            <DeleteOutlineIcon fontSize="small" />
          </IconButton>
        ) : null,
    },
  ];

  return (
    <ListPage<AttachmentRow>
      resource="attachments"
      listName="box"
      title={t('box.title')}
      subtitle={t('box.subtitle')}
      facets={facets}
      baseFilter={baseFilter}
      defaultSort={{ field: 'updatedOn', order: 'DESC' }}
      emptyText={t(boxEmptyKey(ranged))}
      filteredEmptyText={t('box.emptyFiltered')}
      searchPlaceholder={t('box.searchPlaceholder')}
      actions={() => (
        <>
          <Box sx={{ display: 'flex', gap: 0.5, alignItems: 'center' }}>
            <TextField
              type="date"
              size="small"
              label={t('box.created')}
              value={dayOf(range.start)}
              onChange={(e) => setRange((r) => ({ ...r, start: dayBoundary(e.target.value, 'start') }))}
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'box-created-start' } }}
              sx={{ width: 150 }}
            />
            <TextField
              type="date"
              size="small"
              value={dayOf(range.end)}
              onChange={(e) => setRange((r) => ({ ...r, end: dayBoundary(e.target.value, 'end') }))}
              slotProps={{ htmlInput: { 'data-testid': 'box-created-end', 'aria-label': t('box.created') } }}
              sx={{ width: 150 }}
            />
          </Box>
          <Button
            size="small"
            variant="outlined"
            endIcon={<MoreVertIcon />}
            onClick={(e) => setMenu(e.currentTarget)}
            data-testid="box-actions"
          >
            {t('box.actions')}
          </Button>
          <Menu anchorEl={menu} open={Boolean(menu)} onClose={() => setMenu(null)}>
            <MenuItem
              onClick={() => {
                setMenu(null);
                setUploading(true);
              }}
              data-testid="box-action-add"
            >
              <ListItemText>{t('box.add')}</ListItemText>
            </MenuItem>
          </Menu>
        </>
      )}
      columns={columns}
    >
      {(ctx) => (
        <>
          <Poller active={needsPolling(ctx.rows)} refresh={ctx.refresh} />
          {uploading ? (
            <UploadDialog
              onClose={() => setUploading(false)}
              onDone={() => {
                setUploading(false);
                ctx.refresh();
              }}
            />
          ) : null}
          {errorsOf ? <ErrorsDialog row={errorsOf} onClose={() => setErrorsOf(null)} /> : null}
          {toDelete ? (
            <ConfirmDialog
              open
              kind="warning"
              message={t('box.deleteConfirm', { name: toDelete.name })}
              confirmLabel={t('box.yes')}
              cancelLabel={t('box.no')}
              onClose={() => setToDelete(null)}
              onConfirm={async () => {
                try {
                  await dp.call({
                    path: `/portal/api/v1/attachments/${encodeURIComponent(toDelete.id)}`,
                    method: 'PUT',
                    body: { deleted: true },
                  });
                  toast('success', t('box.deleted'));
                  ctx.refresh();
                } catch (e) {
                  toast(
                    'error',
                    (e as { body?: { message?: string } })?.body?.message || t('box.deleteFailed'),
                  );
                } finally {
                  setToDelete(null);
                }
              }}
            />
          ) : null}
        </>
      )}
    </ListPage>
  );
}

/** While a sample manifest is still UPLOADED (being processed), refresh the list every 3 seconds. */
function Poller({ active, refresh }: { active: boolean; refresh: () => void }) {
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(refresh, 3000);
    return () => clearInterval(timer);
  }, [active, refresh]);
  return null;
}

/** "Sample Manifest Errors": the details, the fix-and-re-upload text, Copy to Clipboard and Close. */
function ErrorsDialog({ row, onClose }: { row: AttachmentRow; onClose: () => void }) {
  const t = useMessagesT(boxEn);
  const toast = useToast();
  const copy = async () => {
    await navigator.clipboard.writeText(row.errorDetails ?? '').catch(() => undefined);
    toast('success', t('box.copied'));
  };
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth data-testid="box-errors-dialog">
      <DialogTitle>{t('box.errorsTitle')}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" sx={{ mb: 1.5 }}>
          {t('box.fixAndReupload', { name: row.name })}
        </Typography>
        <Box
          component="pre"
          data-testid="box-error-details"
          sx={{
            m: 0,
            p: 1.5,
            bgcolor: 'grey.100',
            borderRadius: 1,
            whiteSpace: 'pre-wrap',
            fontSize: 13,
            maxHeight: 360,
            overflow: 'auto',
          }}
        >
          {row.errorDetails ?? ''}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => void copy()} data-testid="box-copy">
          {t('box.copy')}
        </Button>
        <Button variant="contained" onClick={onClose}>
          {t('box.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * Add Attachment: .xlsx, .xls, .csv or .pdf; type SAMPLE_MANIFEST by default; Upload disabled until a file is
 * chosen; progress as an integer percent. The account is the one named VITE_BOX_ACCOUNT_NAME (spec 3 section 7.2:
 * the lookup's first result), else the user's first account.
 */
function UploadDialog({ onClose, onDone }: { onClose: () => void; onDone: () => void }) {
  const t = useMessagesT(boxEn);
  const label = useEnumLabel();
  const toast = useToast();
  const dp = useDataProvider<ConsoleDataProvider>();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [type, setType] = useState<string>(BOX_DEFAULT_TYPE);
  const [problem, setProblem] = useState<string | null>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const accounts = useGetList<{ id: string; name: string }>('accounts', {
    pagination: { page: 1, perPage: 1 },
    sort: { field: 'name', order: 'ASC' },
    filter: BOX_ACCOUNT_NAME ? { name: BOX_ACCOUNT_NAME } : {},
  });
  const account = accounts.data?.[0] ?? null;

  const choose = (e: ChangeEvent<HTMLInputElement>) => {
    const f = e.target.files?.[0] ?? null;
    if (f && !isBoxFileName(f.name)) {
      setFile(null);
      setProblem(MSG_BOX_FILE_TYPE);
      return;
    }
    setProblem(null);
    setFile(f);
  };
  const upload = async () => {
    if (!file || !account) return;
    const form = new FormData();
    form.append('type', type);
    form.append('accountId', account.id);
    form.append('accountName', account.name);
    form.append('file', file, file.name);
    setPercent(0);
    try {
      await dp.upload({ path: '/portal/api/v1/attachments/upload', form, onProgress: setPercent });
      toast('success', t('box.uploaded'));
      onDone();
    } catch (e) {
      setPercent(null);
      toast('error', (e as { body?: { message?: string } })?.body?.message || t('box.uploadFailed'));
    }
  };
  return (
    <Dialog
      open
      onClose={percent === null ? onClose : undefined}
      maxWidth="sm"
      fullWidth
      data-testid="box-upload-dialog"
    >
      <DialogTitle>{t('box.uploadTitle')}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2, pt: '8px !important' }}>
        {accounts.isPending ? null : account ? (
          <Typography variant="body2" color="text.secondary">
            {t('box.account', { name: account.name })}
          </Typography>
        ) : (
          <Alert severity="warning">{t('box.noAccount')}</Alert>
        )}
        <TextField
          select
          size="small"
          label={t('box.attachmentType')}
          value={type}
          onChange={(e) => setType(e.target.value)}
          slotProps={{ htmlInput: { 'data-testid': 'box-upload-type' } }}
        >
          {BOX_UPLOAD_TYPES.map((k) => (
            <MenuItem key={k} value={k}>
              {label(k)}
            </MenuItem>
          ))}
        </TextField>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
          <Button variant="outlined" onClick={() => input.current?.click()}>
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
        {problem ? <Alert severity="error">{problem}</Alert> : null}
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
        <Button onClick={onClose} disabled={percent !== null}>
          {t('box.cancel')}
        </Button>
        <Button
          variant="contained"
          disabled={!file || !account || percent !== null}
          onClick={() => void upload()}
          data-testid="box-upload-submit"
        >
          {t('box.upload')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export default BoxPage;
