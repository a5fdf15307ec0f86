import { useEffect, useMemo, useState } from 'react';
import { Box, IconButton, LinearProgress, Link, Typography } from '@mui/material';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import {
  ActionsMenu,
  ConfirmDialog,
  DateText,
  enumColumn,
  ListPage,
  Poller,
  stopRowClick as stop,
  Truncate,
  useMessagesT,
  useToast,
  type Column,
  type FacetFilterDef,
} from '../../components';
import { useEnumLabel } from '../orders/list/useOrdersT';
import { DayRangeFields } from '../../components/DayRangeFields';
import { useBoxMethods, type AttachmentRow, type ManifestProgress } from './api';
import { ErrorsDialog, SummaryDialog, UploadDialog } from './BoxDialogs';
import { boxEn } from './i18n';
import {
  BOX_POLL_MS,
  boxBaseFilter,
  boxEmptyKey,
  canDelete,
  hasErrors,
  hasSummary,
  needsPolling,
  progressView,
  PROGRESS_POLL_MS,
  type BoxRange,
} from './logic';

/**
 * The Attachment Box (/box, spec 3 section 2.8): Created range, Type and Status filters from the server's facets,
 * Actions → Add Attachment, page sizes, search; the name downloads the file; delete (soft) only while UPLOADED; an
 * ERROR row's red Error link opens "Sample Manifest Errors" with Copy to Clipboard and the error file. Beyond the
 * spec (issue 14): Actions → Download template, "Check file" (the dry run) in the upload dialog, and a processed
 * manifest's status opens its summary (counts, expected samples still missing). While a sample manifest is still
 * UPLOADED the list refreshes itself every few seconds, so PROCESSED or ERROR appears without a reload.
 */
export function BoxPage() {
  const t = useMessagesT(boxEn);
  const label = useEnumLabel();
  const toast = useToast();
  const box = useBoxMethods();
  const [range, setRange] = useState<BoxRange>({ start: null, end: null });
  const [uploading, setUploading] = useState(false);
  const [errorsOf, setErrorsOf] = useState<AttachmentRow | null>(null);
  const [summaryOf, setSummaryOf] = useState<AttachmentRow | null>(null);
  const [toDelete, setToDelete] = useState<AttachmentRow | null>(null);
  const baseFilter = useMemo(() => boxBaseFilter(range), [range]);
  const ranged = range.start !== null || range.end !== null;

  const facets: FacetFilterDef[] = [
    { name: 'attachment_type_facet', field: 'type', label: t('box.facet.type') },
    { name: 'attachment_status_facet', field: 'status', label: t('box.facet.status') },
  ].map((f) => ({ ...f, itemLabel: (item) => label(item.value == null ? '' : String(item.value)) }));

  const fail = (fallback: string) => (e: unknown) =>
    toast('error', (e as { body?: { message?: string } })?.body?.message || fallback);
  const download = (row: AttachmentRow) =>
    void box.downloadAttachment({ id: row.id, name: row.name }).catch(fail(t('box.downloadFailed')));
  const template = (format: 'xlsx' | 'csv') => {
    void box.downloadManifestTemplate({ format }).catch(fail(t('box.downloadFailed')));
  };

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
    enumColumn('type', t('box.col.type'), label),
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
        ) : hasSummary(r) ? (
          <Link
            component="button"
            variant="body2"
            onClick={(e: React.MouseEvent) => {
              stop(e);
              setSummaryOf(r);
            }}
            data-testid={`box-status-${r.id}`}
          >
            {label(r.status)}
          </Link>
        ) : r.status === 'UPLOADED' && r.type === 'SAMPLE_MANIFEST' ? (
          <>
            <span data-testid={`box-status-${r.id}`}>{label(r.status)}</span>
            <ManifestProgressLine id={r.id} />
          </>
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
          <DayRangeFields label={t('box.created')} range={range} setRange={setRange} testId="box-created" />
          <ActionsMenu
            label={t('box.actions')}
            testId="box-actions"
            actions={[
              {
                key: 'add',
                label: t('box.add'),
                testId: 'box-action-add',
                onClick: () => setUploading(true),
              },
              ...(['xlsx', 'csv'] as const).map((format, i) => ({
                key: format,
                label: t(format === 'xlsx' ? 'box.templateXlsx' : 'box.templateCsv'),
                testId: `box-action-template-${format}`,
                divider: i === 0,
                onClick: () => template(format),
              })),
            ]}
          />
        </>
      )}
      columns={columns}
    >
      {(ctx) => (
        <>
          <Poller active={needsPolling(ctx.rows)} refresh={ctx.refresh} everyMs={BOX_POLL_MS} />
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
          {summaryOf ? <SummaryDialog row={summaryOf} onClose={() => setSummaryOf(null)} /> : null}
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
                  await box.deleteAttachment({ id: toDelete.id });
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

/**
 * Under an UPLOADED sample manifest's status: where its job is (waiting, reading, checking, adding samples n of
 * m, retrying), asked every 1.5 s while the row shows (GET sampleManifests/{id}'s `progress`). Nothing when the
 * server knows no job (yet) or cannot be asked; the list's own refresh then shows the verdict.
 */
function ManifestProgressLine({ id }: { id: string }) {
  const t = useMessagesT(boxEn);
  const box = useBoxMethods();
  const [progress, setProgress] = useState<ManifestProgress | null>(null);
  useEffect(() => {
    let live = true;
    const ask = () =>
      box.getSampleManifest({ id }).then(
        ({ data }) => live && setProgress(data.status === 'UPLOADED' ? (data.progress ?? null) : null),
        () => live && setProgress(null),
      );
    void ask();
    const timer = setInterval(() => void ask(), PROGRESS_POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [box, id]);
  if (!progress) return null;
  const view = progressView(progress);
  return (
    <Box sx={{ mt: 0.5, minWidth: 160 }} data-testid={`box-progress-${id}`}>
      <Typography variant="caption" color="text.secondary" component="div">
        {t(view.key, view.values)}
      </Typography>
      <LinearProgress
        variant={view.percent === null ? 'indeterminate' : 'determinate'}
        value={view.percent ?? undefined}
        sx={{ height: 3, borderRadius: 1 }}
        aria-label={t(view.key, view.values)}
      />
    </Box>
  );
}

export default BoxPage;
