import type { ReactNode } from 'react';
import { Alert, Box, Button, Link, Paper, Typography } from '@mui/material';
import { formatDisplayDate, icd10List } from '@onco/domain';
import { Link as RouterLink } from 'react-router-dom';
import { formatDateTime, useMessagesT } from '../../../components';
import { diagnosisText, patientName, testProgress } from '../list/logic';
import { useEnumLabel, useOrdersT } from '../list/useOrdersT';
import { mergeEn } from '../merge/i18n';
import { ClinicalReviewControl } from './ClinicalReviewControl';
import { addressText, testSelectionText } from './Sections';
import type { Requisition } from './requisition';

function HeaderField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary" sx={{ display: 'block', lineHeight: 1.4 }}>
        {label}
      </Typography>
      <Typography variant="body2" sx={{ fontWeight: 500, wordBreak: 'break-word' }}>
        {children === '' || children === null || children === undefined ? '—' : children}
      </Typography>
    </Box>
  );
}

function ProgressBox({ label, count, color }: { label: string; count: number; color: string }) {
  return (
    <Box
      sx={{
        flex: 1,
        minWidth: 120,
        p: 1.5,
        borderRadius: 1.5,
        border: 1,
        borderColor: 'divider',
        bgcolor: 'grey.50',
      }}
      data-testid={`progress-${label}`}
    >
      <Typography sx={{ fontSize: 26, fontWeight: 700, color, lineHeight: 1.1 }}>{count}</Typography>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
    </Box>
  );
}

/**
 * The summary's header: the patient, test selection, diagnosis, provider, location, clinical review and signature,
 * then the tests' progress.
 */
export function SummaryHeader({ r, onChanged }: { r: Requisition; onChanged: () => void }) {
  const t = useOrdersT();
  const label = useEnumLabel();
  const progress = testProgress(r.testOrders);
  const p = r.patient ?? {};
  const approval = r.approvals?.[r.approvals.length - 1];
  return (
    <Paper variant="outlined" sx={{ p: 2.5, borderRadius: 2, mb: 2 }} data-testid="summary-header">
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(5, 1fr)' },
        }}
      >
        <HeaderField label={t('orders.summary.tab.patient')}>
          {p.id ? (
            <Link component={RouterLink} to={`/patient/${encodeURIComponent(p.id)}`} sx={{ fontWeight: 600 }}>
              {patientName(p)}
            </Link>
          ) : (
            patientName(p)
          )}
        </HeaderField>
        <HeaderField label={t('orders.summary.patientNumber')}>{p.userId}</HeaderField>
        <HeaderField label={t('orders.summary.dateOfBirth')}>
          {p.dateOfBirth ? formatDisplayDate(p.dateOfBirth) : ''}
        </HeaderField>
        <HeaderField label={t('orders.summary.sex')}>{label(p.birthSex)}</HeaderField>
        <HeaderField label={t('orders.summary.mrn')}>{p.mrn}</HeaderField>
        <HeaderField label={t('orders.summary.testSelection')}>{testSelectionText(r)}</HeaderField>
        <HeaderField label={t('orders.summary.diagnosis')}>
          {diagnosisText(r.tumorSpecimen, label)}
        </HeaderField>
        <HeaderField label={t('orders.summary.icd10')}>
          {icd10List(r.tumorSpecimen?.icd10Codes).join(', ')}
        </HeaderField>
        <HeaderField label={t('orders.summary.initialTrf')}>
          {r.parentTestOrderForm?.testRequisitionId}
        </HeaderField>
        <HeaderField label={t('orders.summary.provider')}>{r.physician?.name}</HeaderField>
        <HeaderField label={t('orders.summary.npi')}>{r.physician?.userId}</HeaderField>
        <HeaderField label={t('orders.summary.location')}>{r.hospitalLocation?.name}</HeaderField>
        <HeaderField label={t('orders.summary.address')}>
          {addressText(r.hospitalLocation?.address)}
        </HeaderField>
        <HeaderField label={t('orders.summary.clinicalReview')}>
          {r.status === 'DRAFT' ? '' : <ClinicalReviewControl r={r} onChanged={onChanged} />}
        </HeaderField>
        <HeaderField label={t('orders.summary.authorization')}>
          {approval
            ? t('orders.summary.signedBy', {
                name: approval.approvedBy?.name ?? '',
                date: formatDateTime(approval.createdOn),
              })
            : t('orders.summary.notSigned')}
        </HeaderField>
      </Box>
      <Box sx={{ display: 'flex', gap: 1.5, mt: 2.5, flexWrap: 'wrap' }} data-testid="summary-progress">
        <ProgressBox
          label={t('orders.summary.progress.ordered')}
          count={progress.ordered}
          color="info.main"
        />
        <ProgressBox
          label={t('orders.summary.progress.inProgress')}
          count={progress.inProgress}
          color="warning.dark"
        />
        <ProgressBox
          label={t('orders.summary.progress.complete')}
          count={progress.complete}
          color="success.main"
        />
      </Box>
    </Paper>
  );
}

/** The notices above the summary: deleted, or merged into another requisition (with a link to it). */
export function SummaryNotices({ r }: { r: Requisition }) {
  const t = useOrdersT();
  const mt = useMessagesT(mergeEn);
  return (
    <>
      {r.deleted ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t('orders.summary.deletedNotice')}
        </Alert>
      ) : null}
      {r.mergedInto?.id ? (
        <Alert
          severity="info"
          sx={{ mb: 2 }}
          data-testid="merged-into"
          action={
            <Button
              color="inherit"
              size="small"
              component={RouterLink}
              to={`/order/${encodeURIComponent(r.mergedInto.id)}`}
            >
              {mt('merge.openPrimary')}
            </Button>
          }
        >
          {mt('merge.mergedInto', { trf: r.mergedInto.testRequisitionId ?? r.mergedInto.id })}
        </Alert>
      ) : null}
    </>
  );
}
