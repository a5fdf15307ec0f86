import { useState } from 'react';
import { Alert, Box, Button, Chip, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import PrintIcon from '@mui/icons-material/Print';
import WarningAmberRoundedIcon from '@mui/icons-material/WarningAmberRounded';
import { alpha, type Theme } from '@mui/material/styles';
import { useQuery } from '@tanstack/react-query';
import { HttpError, usePermissions, type Identifier } from 'react-admin';
import {
  SAMPLE_KINDS,
  SAMPLE_NAME_MAX,
  SAMPLES_PER_PAGE,
  sampleActions,
  sampleTypeOptions,
  type SpecimenKind,
} from '@onco/domain';
import { DataTable, formatDate, Paginator, Truncate, type Column } from '../../../../components';
import { useEnumLabel } from '../../list/useOrdersT';
import type { Requisition } from '../requisition';
import type { SampleRow } from './api';
import { BarcodesDialog } from './BarcodesDialog';
import { CopySamplesDialog } from './CopySamplesDialog';
import { ignoredByWorkflow, pageOf, ruleRequisition, rowsFor } from './logic';
import { SampleDialog } from './SampleDialog';
import { SampleManifestsPanel } from './SampleManifestsPanel';
import { useSampleMethods } from './useSampleMethods';
import { useSamplesT } from './useSamplesT';

const STATUS_TONE = { PROCEED: 'success', ON_HOLD: 'warning', CANCELLED: 'default' } as const;

/** A sample the workflow ignores: muted, in italics, on a warning tint with a warning edge (spec 2 section 2.8). */
const IGNORED_ROW = {
  bgcolor: (theme: Theme) => alpha(theme.palette.warning.main, 0.07),
  '& td': { color: 'text.secondary', fontStyle: 'italic' },
  '& td:first-of-type': { boxShadow: (theme: Theme) => `inset 3px 0 0 ${theme.palette.warning.main}` },
} as const;

/**
 * The Samples tab of an order (spec 2 sections 2.8, 6, 9): the lab's samples of the requisition with a
 * TUMOR/NORMAL/PLASMA filter, 7 a page, single selection, and Add / Edit / Copy with the rules of @onco/domain
 * (lab/samples.ts), which the lab service enforces too. Actions show with VIEW_SAMPLE_ACTIONS and are disabled
 * in draft. A sample the requisition's workflow ignores (the lab's `workflow` verdict, @onco/domain
 * sampleWorkflow) is shown muted and in italics, marked Ignored with the spec's message; copied samples carry a
 * Copied chip. Below the table, the sample manifests that added or changed the order's samples.
 */
export function SamplesTab({ r }: { r: Requisition }) {
  const t = useSamplesT();
  const label = useEnumLabel();
  const api = useSampleMethods();
  const { permissions = [] } = usePermissions<string[]>();
  const [type, setType] = useState<SpecimenKind | null>('TUMOR');
  const [page, setPage] = useState(1);
  const [selectedIds, setSelectedIds] = useState<Identifier[]>([]);
  const [dialog, setDialog] = useState<'add' | 'edit' | 'copy' | 'barcodes' | null>(null);

  const query = useQuery({
    queryKey: ['samples', r.id],
    queryFn: () => api.getSamples({ requisitionId: r.id }).then((x) => x.data),
    enabled: r.status !== 'DRAFT',
    retry: (n, e) => !(e instanceof HttpError && e.status === 404) && n < 2,
  });
  const data = query.data;
  const unknown = query.error instanceof HttpError && query.error.status === 404;
  const rows = rowsFor(data, type);
  const selected = rows.find((x) => selectedIds.includes(x.id)) ?? null;
  const offered = data ? sampleTypeOptions(ruleRequisition(data)) : [];
  const actions = sampleActions({
    permissions,
    draft: r.status === 'DRAFT',
    deleted: Boolean(r.deleted || data?.deleted),
    testStatuses: data?.requisition.testOrders.map((x) => x.status) ?? [],
    typeChosen: type !== null && offered.includes(type),
    selected: selected !== null,
    loaded: Boolean(data),
  });
  const done = () => {
    setDialog(null);
    setSelectedIds([]);
    void query.refetch();
  };

  const columns: Column<SampleRow>[] = [
    ...(type === null
      ? [
          {
            source: 'type',
            label: t('samples.col.type'),
            render: (x: SampleRow) => t(`samples.type.${x.type}`),
          },
        ]
      : []),
    { source: 'limsId', label: t('samples.col.limsId') },
    {
      source: 'name',
      label: t('samples.col.name'),
      render: (x) => (
        <Box component="span" data-workflow={x.workflow?.state?.toLowerCase()}>
          <Truncate text={x.name} max={SAMPLE_NAME_MAX} />
          {x.copiedFrom ? (
            <Chip size="small" variant="outlined" label={t('samples.copiedTag')} sx={{ ml: 1 }} />
          ) : null}
          {ignoredByWorkflow(x) ? (
            <>
              <Chip
                size="small"
                variant="outlined"
                color="warning"
                label={t('samples.workflow.ignored')}
                sx={{ ml: 1 }}
                data-testid={`sample-ignored-${x.id}`}
              />
              <Box
                component="span"
                data-testid={`sample-incompatible-${x.id}`}
                sx={{
                  display: 'flex',
                  alignItems: 'flex-start',
                  gap: 0.5,
                  mt: 0.5,
                  maxWidth: 380,
                  whiteSpace: 'normal',
                  fontStyle: 'normal',
                  fontSize: 12.5,
                  lineHeight: 1.4,
                  color: 'warning.dark',
                }}
              >
                <WarningAmberRoundedIcon sx={{ fontSize: 16, mt: '1px' }} />
                {t('samples.workflow.incompatible')}
              </Box>
            </>
          ) : null}
        </Box>
      ),
    },
    { source: 'specimenId', label: t('samples.col.specimenId') },
    { source: 'specimenType', label: t('samples.col.specimenType'), render: (x) => label(x.specimenType) },
    {
      source: 'status',
      label: t('samples.col.status'),
      render: (x) =>
        x.status ? (
          <Chip size="small" variant="outlined" color={STATUS_TONE[x.status]} label={label(x.status)} />
        ) : (
          ''
        ),
    },
    { source: 'sampleGroupId', label: t('samples.col.sampleGroupId') },
    { source: 'workOrderNumber', label: t('samples.col.workOrderNumber') },
    { source: 'collectedOn', label: t('samples.col.collectedOn'), render: (x) => formatDate(x.collectedOn) },
    { source: 'receivedOn', label: t('samples.col.receivedOn'), render: (x) => formatDate(x.receivedOn) },
  ];

  const typeLabel = (k: SpecimenKind) => t(`samples.type.${k}`);
  return (
    <Box data-testid="samples-tab">
      <Box sx={{ display: 'flex', gap: 1.5, mb: 1.5, flexWrap: 'wrap', alignItems: 'center' }}>
        <Typography variant="body2" color="text.secondary">
          {t('samples.filter')}
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={type ?? 'ALL'}
          onChange={(_, v: SpecimenKind | 'ALL' | null) => {
            if (v === null) return;
            setType(v === 'ALL' ? null : v);
            setPage(1);
            setSelectedIds([]);
          }}
        >
          <ToggleButton value="ALL" data-testid="samples-filter-ALL">
            {t('samples.all')}
          </ToggleButton>
          {SAMPLE_KINDS.map((k) => (
            <ToggleButton key={k} value={k} data-testid={`samples-filter-${k}`}>
              {typeLabel(k)}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <Box sx={{ flex: 1 }} />
        {actions.visible ? (
          <Box sx={{ display: 'flex', gap: 1 }}>
            <Button
              size="small"
              variant="contained"
              startIcon={<AddIcon />}
              disabled={!actions.add}
              onClick={() => setDialog('add')}
              data-testid="samples-add"
            >
              {type ? t('samples.addType', { type: typeLabel(type) }) : t('samples.add')}
            </Button>
            <Button
              size="small"
              variant="outlined"
              startIcon={<EditOutlinedIcon />}
              disabled={!actions.edit}
              onClick={() => setDialog('edit')}
              data-testid="samples-edit"
            >
              {t('samples.edit')}
            </Button>
            <Button
              size="small"
              variant="outlined"
              startIcon={<ContentCopyIcon />}
              disabled={!actions.copy}
              onClick={() => setDialog('copy')}
              data-testid="samples-copy"
            >
              {t('samples.copy')}
            </Button>
            <Button
              size="small"
              variant="outlined"
              startIcon={<PrintIcon />}
              onClick={() => setDialog('barcodes')}
              data-testid="samples-barcodes"
            >
              {t('samples.barcodes.open')}
            </Button>
          </Box>
        ) : null}
      </Box>
      {unknown ? (
        <Alert severity="info" sx={{ mb: 1.5 }}>
          {t('samples.notKnown')}
        </Alert>
      ) : query.error ? (
        <Alert severity="error" sx={{ mb: 1.5 }}>
          {t('samples.toast.loadFailed')}
        </Alert>
      ) : null}
      <DataTable<SampleRow>
        columns={columns}
        rows={pageOf(rows, page, SAMPLES_PER_PAGE)}
        loading={query.isPending && r.status !== 'DRAFT' && !query.error}
        fetching={query.isFetching}
        emptyText={t('samples.empty')}
        selection={actions.visible ? 'single' : 'none'}
        selectedIds={selectedIds}
        onSelect={setSelectedIds}
        rowState={(x) => (ignoredByWorkflow(x) ? 'ignored' : undefined)}
        rowSx={(x) => (ignoredByWorkflow(x) ? IGNORED_ROW : undefined)}
      />
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 1 }}>
        <Paginator page={page} perPage={SAMPLES_PER_PAGE} total={rows.length} onChange={setPage} />
      </Box>
      {r.status !== 'DRAFT' && data ? (
        <SampleManifestsPanel requisitionId={r.id} patientId={data.requisition.patient?.id ?? null} />
      ) : null}
      {dialog === 'add' && data && type ? (
        <SampleDialog open data={data} type={type} onClose={() => setDialog(null)} onDone={done} />
      ) : null}
      {dialog === 'edit' && data && selected ? (
        <SampleDialog
          open
          data={data}
          type={selected.type}
          sample={selected}
          onClose={() => setDialog(null)}
          onDone={done}
        />
      ) : null}
      {dialog === 'copy' && data ? (
        <CopySamplesDialog open r={r} target={data} onClose={() => setDialog(null)} onDone={done} />
      ) : null}
      {dialog === 'barcodes' ? <BarcodesDialog open onClose={() => setDialog(null)} /> : null}
    </Box>
  );
}
