import type { ReactNode } from 'react';
import {
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Typography,
} from '@mui/material';
import { DateText, type Column } from '../../components';
import type { AuditEntryRow } from './api';
import { patientsText, whoText } from './logic';

type T = (key: string, values?: Record<string, unknown>) => string;

/** The outcome as a chip: allowed plain, refused in red. */
export function OutcomeChip({ row, t }: { row: AuditEntryRow; t: T }) {
  return (
    <Chip
      size="small"
      variant="outlined"
      color={row.outcome === 'refused' ? 'error' : 'default'}
      label={t(`audit.outcome.${row.outcome}`)}
      data-testid={`audit-outcome-${row.seq}`}
    />
  );
}

/** The columns the Audit screen and the Access History tab share (the tab leaves the patient out). */
export function auditColumns(t: T, opts: { patient: boolean }): Column<AuditEntryRow>[] {
  return [
    { source: 'seq', label: t('audit.col.seq'), sortable: true, width: 64 },
    {
      source: 'when',
      label: t('audit.col.when'),
      sortable: true,
      render: (r) => <DateText value={r.when} withTime />,
    },
    {
      source: 'who',
      label: t('audit.col.who'),
      render: (r) => (
        <Box>
          <Typography variant="body2">{whoText(r)}</Typography>
          <Typography variant="caption" color="text.secondary">
            {r.who.role}
          </Typography>
        </Box>
      ),
    },
    {
      source: 'what',
      label: t('audit.col.record'),
      render: (r) => (
        <Box>
          <Typography variant="body2">{t(`audit.recordType.${r.what.type}`)}</Typography>
          <Typography variant="caption" color="text.secondary">
            {r.what.id ?? ''}
          </Typography>
        </Box>
      ),
    },
    ...(opts.patient
      ? [
          {
            source: 'patientId',
            label: t('audit.col.patient'),
            render: (r: AuditEntryRow) => patientsText(r, (n) => t('audit.morePatients', { n })),
          },
        ]
      : []),
    {
      source: 'action',
      label: t('audit.col.action'),
      render: (r) => <span data-testid={`audit-action-${r.seq}`}>{t(`audit.action.${r.action}`)}</span>,
    },
    { source: 'outcome', label: t('audit.col.outcome'), render: (r) => <OutcomeChip row={r} t={t} /> },
    { source: 'from', label: t('audit.col.from'), render: (r) => r.from.ip ?? '' },
  ];
}

function Line({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: '160px 1fr', gap: 1, py: 0.5 }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>
        {children === null || children === undefined || children === '' ? '—' : children}
      </Typography>
    </Box>
  );
}

/** One entry, every field (opened from a row). */
export function AuditEntryDialog({ row, t, onClose }: { row: AuditEntryRow; t: T; onClose: () => void }) {
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth data-testid="audit-entry">
      <DialogTitle>{t('audit.entry.title', { seq: row.seq })}</DialogTitle>
      <DialogContent dividers>
        <Line label={t('audit.col.when')}>
          <DateText value={row.when} withTime />
        </Line>
        <Line label={t('audit.col.who')}>{`${whoText(row)} (${row.who.userId}, ${row.who.role})`}</Line>
        <Line label={t('audit.entry.onBehalfOf')}>{row.onBehalfOf.join(', ')}</Line>
        <Line
          label={t('audit.col.record')}
        >{`${t(`audit.recordType.${row.what.type}`)} ${row.what.id ?? ''}`}</Line>
        <Line label={t('audit.col.patient')}>
          {row.what.patientId ?? (row.what.patientIds ?? []).join(', ')}
        </Line>
        <Line label={t('audit.col.action')}>{t(`audit.action.${row.action}`)}</Line>
        <Line label={t('audit.col.outcome')}>{t(`audit.outcome.${row.outcome}`)}</Line>
        <Line label={t('audit.entry.changes')}>{(row.changes ?? []).join(', ')}</Line>
        <Line label={t('audit.entry.rows')}>{row.count}</Line>
        <Line label={t('audit.entry.status')}>{row.status}</Line>
        <Line label={t('audit.entry.route')}>{row.route}</Line>
        <Line label={t('audit.entry.ip')}>{row.from.ip}</Line>
        <Line label={t('audit.entry.userAgent')}>{row.from.userAgent}</Line>
        <Line label={t('audit.entry.requestId')}>{row.from.requestId}</Line>
        <Line label={t('audit.entry.id')}>{row.id}</Line>
        <Line label={t('audit.entry.prevHash')}>
          <span title={row.prevHash}>{row.prevHash}</span>
        </Line>
        <Line label={t('audit.entry.hash')}>
          <span title={row.hash} data-testid="audit-entry-hash">
            {row.hash}
          </span>
        </Line>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} data-testid="audit-entry-close">
          {t('audit.entry.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
