import { Alert, Box, Chip, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { DataTable, formatDateTime, type Column } from '../../../../components';
import { useEnumLabel } from '../../list/useOrdersT';
import type { SampleManifestListRow } from './api';
import { useSampleMethods } from './useSampleMethods';
import { useSamplesT } from './useSamplesT';

const STATUS_TONE = { UPLOADED: 'info', PROCESSED: 'success', ERROR: 'error' } as const;

/**
 * Under the Samples tab's table: the sample manifests (Attachment Box uploads) that added or changed samples of
 * this order, from GET sampleManifests filtered by archived false, patientId and testOrderFormId (spec 2 section
 * 7 "Samples"), each with how many of this order's samples it added and updated.
 */
export function SampleManifestsPanel({
  requisitionId,
  patientId,
}: {
  requisitionId: string;
  patientId: string | null;
}) {
  const t = useSamplesT();
  const label = useEnumLabel();
  const api = useSampleMethods();
  const query = useQuery({
    queryKey: ['sampleManifests', requisitionId, patientId],
    queryFn: () => api.getSampleManifests({ requisitionId, patientId }).then((x) => x.data),
  });
  const mine = (m: SampleManifestListRow) => {
    const r = m.requisitions.find((x) => x.testOrderFormId === requisitionId);
    return { created: r?.created ?? 0, updated: r?.updated ?? 0 };
  };
  const columns: Column<SampleManifestListRow>[] = [
    { source: 'name', label: t('samples.manifests.file'), truncate: 40 },
    {
      source: 'status',
      label: t('samples.manifests.status'),
      render: (m) => (
        <Chip size="small" variant="outlined" color={STATUS_TONE[m.status]} label={label(m.status)} />
      ),
    },
    {
      source: 'uploadedOn',
      label: t('samples.manifests.uploadedOn'),
      render: (m) => formatDateTime(m.uploadedOn),
    },
    {
      source: 'uploadedBy',
      label: t('samples.manifests.uploadedBy'),
      render: (m) => m.uploadedBy?.name ?? '',
    },
    {
      source: 'requisitions',
      label: t('samples.manifests.samples'),
      render: (m) => (
        <span data-testid={`sample-manifest-counts-${m.id}`}>{t('samples.manifests.counts', mine(m))}</span>
      ),
    },
  ];
  return (
    <Box data-testid="samples-manifests" sx={{ mt: 3 }}>
      <Typography variant="subtitle2" sx={{ mb: 1 }}>
        {t('samples.manifests.title')}
      </Typography>
      {query.error ? (
        <Alert severity="error" sx={{ mb: 1.5 }}>
          {t('samples.manifests.loadFailed')}
        </Alert>
      ) : null}
      <DataTable<SampleManifestListRow>
        columns={columns}
        rows={query.data ?? []}
        loading={query.isPending && !query.error}
        fetching={query.isFetching}
        emptyText={t('samples.manifests.empty')}
      />
    </Box>
  );
}
