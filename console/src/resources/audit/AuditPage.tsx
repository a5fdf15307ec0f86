import { useMemo, useState } from 'react';
import { Button, TextField } from '@mui/material';
import FileDownloadOutlinedIcon from '@mui/icons-material/FileDownloadOutlined';
import { ListPage, useDebounced, useMessagesT, useToast, type FacetFilterDef } from '../../components';
import { DayRangeFields } from '../../components/DayRangeFields';
import type { DayRange } from '../../components/dayRange';
import { useAuditMethods, type AuditEntryRow } from './api';
import { auditEn } from './i18n';
import { auditFilter, NO_INPUTS, type AuditInputs } from './logic';
import { AuditEntryDialog, auditColumns } from './parts';

/**
 * The Audit screen (/audit, VIEW_AUDIT_TRAIL: portal administrators; docs/audit.md): every read, change, export
 * and download of PHI, newest first; filters by user, patient and record id, a day range, and lists of action,
 * outcome, record and role; a row opens the whole entry (its hashes too); Export CSV exports what the list shows.
 */
export function AuditPage() {
  const t = useMessagesT(auditEn);
  const toast = useToast();
  const api = useAuditMethods();
  const [inputs, setInputs] = useState<AuditInputs>(NO_INPUTS);
  const [open, setOpen] = useState<AuditEntryRow | null>(null);
  const settled = useDebounced(inputs, 400);
  const baseFilter = useMemo(() => auditFilter(settled), [settled]);
  const set = (k: 'userId' | 'patientId' | 'recordId') => (e: React.ChangeEvent<HTMLInputElement>) =>
    setInputs((i) => ({ ...i, [k]: e.target.value }));
  const setRange = (next: DayRange | ((r: DayRange) => DayRange)) =>
    setInputs((i) => ({ ...i, range: typeof next === 'function' ? next(i.range) : next }));

  const facets: FacetFilterDef[] = [
    { name: 'audit_action_facet', field: 'action', label: t('audit.facet.action'), prefix: 'audit.action' },
    {
      name: 'audit_outcome_facet',
      field: 'outcome',
      label: t('audit.facet.outcome'),
      prefix: 'audit.outcome',
    },
    {
      name: 'audit_record_type_facet',
      field: 'recordType',
      label: t('audit.facet.recordType'),
      prefix: 'audit.recordType',
    },
    { name: 'audit_role_facet', field: 'role', label: t('audit.facet.role'), prefix: '' },
  ].map(({ prefix, ...f }) => ({
    ...f,
    itemLabel: (item) => (prefix ? t(`${prefix}.${String(item.value)}`) : String(item.value ?? '')),
  }));

  const idField = (k: 'userId' | 'patientId' | 'recordId', label: string) => (
    <TextField
      size="small"
      label={label}
      value={inputs[k]}
      onChange={set(k)}
      slotProps={{ htmlInput: { 'data-testid': `audit-filter-${k}` } }}
      sx={{ width: 160 }}
    />
  );

  return (
    <ListPage<AuditEntryRow>
      resource="audit"
      title={t('audit.title')}
      subtitle={t('audit.subtitle')}
      facets={facets}
      baseFilter={baseFilter}
      defaultSort={{ field: 'seq', order: 'DESC' }}
      defaultPerPage={20}
      emptyText={t('audit.empty')}
      filteredEmptyText={t('audit.emptyFiltered')}
      searchPlaceholder={t('audit.searchPlaceholder')}
      rememberFilters={false}
      onRowClick={(r) => setOpen(r)}
      actions={(ctx) => (
        <>
          {idField('userId', t('audit.user'))}
          {idField('patientId', t('audit.patient'))}
          {idField('recordId', t('audit.record'))}
          <DayRangeFields
            label={t('audit.when')}
            range={inputs.range}
            setRange={setRange}
            testId="audit-when"
          />
          <Button
            variant="outlined"
            startIcon={<FileDownloadOutlinedIcon />}
            data-testid="audit-export"
            onClick={() =>
              void api
                .exportAudit({ filter: ctx.filter })
                .then(() => toast('success', t('audit.exported')))
                .catch(() => toast('error', t('audit.exportFailed')))
            }
          >
            {t('audit.export')}
          </Button>
        </>
      )}
      columns={auditColumns(t, { patient: true })}
    >
      {() => (open ? <AuditEntryDialog row={open} t={t} onClose={() => setOpen(null)} /> : null)}
    </ListPage>
  );
}

export default AuditPage;
