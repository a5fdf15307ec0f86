import { useState } from 'react';
import { Alert, Box, Paper } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import { DataTable, Paginator, useMessagesT } from '../../components';
import type { AuditEntryRow } from './api';
import { auditEn } from './i18n';
import { AuditEntryDialog, auditColumns } from './parts';

const PAGE_SIZE = 10;

/**
 * A patient's Access History (the patient page's tab, VIEW_AUDIT_TRAIL): the audit entries naming the patient,
 * newest first, 10 a page; a row opens the whole entry.
 */
export function AccessHistoryTab({ patientId }: { patientId: string }) {
  const t = useMessagesT(auditEn);
  const dp = useDataProvider();
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<AuditEntryRow | null>(null);
  const q = useQuery({
    queryKey: ['audit', 'patient', patientId, page],
    queryFn: () =>
      dp.getList<AuditEntryRow>('audit', {
        pagination: { page, perPage: PAGE_SIZE },
        sort: { field: 'seq', order: 'DESC' },
        filter: { patientId },
      }),
    placeholderData: (prev) => prev,
  });
  if (q.error) return <Alert severity="error">{t('audit.loadFailed')}</Alert>;
  return (
    <Paper variant="outlined" sx={{ borderRadius: 2 }} data-testid="patient-access-history">
      <DataTable<AuditEntryRow>
        columns={auditColumns(t, { patient: false })}
        rows={q.data?.data ?? []}
        loading={q.isPending}
        fetching={q.isFetching}
        emptyText={t('audit.accessEmpty')}
        onRowClick={(r) => setOpen(r)}
      />
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', px: 2, py: 1 }}>
        <Paginator page={page} perPage={PAGE_SIZE} total={q.data?.total ?? 0} onChange={setPage} />
      </Box>
      {open ? <AuditEntryDialog row={open} t={t} onClose={() => setOpen(null)} /> : null}
    </Paper>
  );
}
