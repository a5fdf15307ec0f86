import { useState, type ReactNode } from 'react';
import { Alert, Box, Button, Link, Paper, Skeleton, Tab, Tabs, Typography } from '@mui/material';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, usePermissions } from 'react-admin';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { Banner, formatPhone, useMessagesT } from '../../components';
import { useEnumLabel } from '../orders/list/useOrdersT';
import type { PatientRow } from './api';
import { BillingTab } from './BillingTab';
import { addressText, displayDay, patientLabel } from './logic';
import { MergedPatientsPanel } from './MergedPatientsPanel';
import { EditPatientDialog } from './PatientDialogs';
import { TestHistoryTab } from './TestHistoryTab';
import { AccessHistoryTab } from '../audit/AccessHistoryTab';
import { auditEn } from '../audit/i18n';
import { errorMessage, usePatientsT } from './usePatients';

function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="caption" color="text.secondary" sx={{ display: 'block', lineHeight: 1.4 }}>
        {label}
      </Typography>
      <Typography variant="body2" sx={{ fontWeight: 500, wordBreak: 'break-word' }} data-testid={testId}>
        {children === '' || children === null || children === undefined ? '—' : children}
      </Typography>
    </Box>
  );
}

/** "This patient was merged into {name (number)}", linking to the primary (its id when out of reach). */
function MergedIntoNotice({ targetId }: { targetId: string }) {
  const t = usePatientsT();
  const dp = useDataProvider();
  const target = useQuery({
    queryKey: ['patients', 'one', targetId],
    retry: false,
    queryFn: () => dp.getOne<PatientRow>('patients', { id: targetId }).then((r) => r.data),
  });
  return (
    <Alert severity="warning" sx={{ mb: 2 }} data-testid="patient-merged-into">
      {t('patients.merging.mergedInto')}{' '}
      <Link
        component={RouterLink}
        to={`/patient/${encodeURIComponent(targetId)}`}
        sx={{ fontWeight: 600 }}
        data-testid="patient-merged-into-link"
      >
        {target.data ? patientLabel(target.data) : targetId}
      </Link>
      <Typography variant="body2" sx={{ mt: 0.5 }}>
        {t('patients.merging.mergedIntoEnd')}
      </Typography>
    </Alert>
  );
}

/**
 * The patient (/patient/{id}, spec 2 section 2.7): Patient Information, then the Test History and Billing
 * Information tabs. A patient outside the user's scope reads as not found (the server's 404). A duplicate merged
 * away says into whom (and cannot be edited); with CAN_MERGE_PATIENTS, the merges into the patient show with Undo.
 */
export function PatientDetailPage() {
  const { id = '' } = useParams<{ id: string }>();
  const t = usePatientsT();
  const label = useEnumLabel();
  const dp = useDataProvider();
  const { permissions = [] } = usePermissions<string[]>();
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<'tests' | 'billing' | 'access'>('tests');
  const auditT = useMessagesT(auditEn);
  const [editing, setEditing] = useState(false);
  const q = useQuery({
    queryKey: ['patients', 'one', id],
    enabled: Boolean(id),
    retry: false,
    queryFn: () => dp.getOne<PatientRow>('patients', { id }).then((r) => r.data),
  });
  const p = q.data;

  if (!id) return <Alert severity="info">{t('patients.noPatient')}</Alert>;
  if (q.error) {
    return (
      <Box sx={{ p: 3 }}>
        <Alert severity="error" data-testid="patient-load-error">
          {(q.error as { status?: number })?.status === 404
            ? t('patients.noPatient')
            : errorMessage(q.error, t('patients.loadFailed'))}
        </Alert>
      </Box>
    );
  }
  if (!p) {
    return (
      <Box sx={{ p: { xs: 1.5, md: 3 } }}>
        <Skeleton variant="rounded" height={72} sx={{ mb: 2 }} />
        <Skeleton variant="rounded" height={180} />
      </Box>
    );
  }

  return (
    <Box sx={{ p: { xs: 1.5, md: 3 }, maxWidth: 1600, mx: 'auto' }} data-testid="patient-detail">
      <Banner
        title={`${t('patients.detailTitle')} : ${p.name}`}
        subtitle={p.userId}
        right={
          permissions.includes('VIEW_PATIENT_ACTIONS') && p.canEdit && !p.mergedInto ? (
            <Button
              variant="contained"
              color="secondary"
              startIcon={<EditOutlinedIcon />}
              onClick={() => setEditing(true)}
              data-testid="patient-edit"
            >
              {t('patients.edit')}
            </Button>
          ) : null
        }
      />
      {p.mergedInto ? <MergedIntoNotice targetId={p.mergedInto} /> : null}
      <Paper variant="outlined" sx={{ p: 2.5, borderRadius: 2, mb: 2 }} data-testid="patient-info">
        <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 1.5 }}>
          {t('patients.info')}
        </Typography>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(6, 1fr)' } }}>
          <Field label={t('patients.field.name')} testId="patient-info-name">
            {[p.firstName, p.middleName, p.lastName].filter(Boolean).join(' ')}
          </Field>
          <Field label={t('patients.field.number')} testId="patient-info-number">
            {p.userId}
          </Field>
          <Field label={t('patients.field.dob')}>{displayDay(p.dateOfBirth)}</Field>
          <Field label={t('patients.field.birthSex')}>{label(p.birthSex)}</Field>
          <Field label={t('patients.field.mrn')}>{p.mrn}</Field>
          <Field label={t('patients.field.race')}>{label(p.race)}</Field>
          <Field label={t('patients.field.ethnicity')}>{label(p.ethnicity)}</Field>
          <Field label={t('patients.field.trialName')}>{p.trialName}</Field>
          <Field label={t('patients.field.studyPatientId')}>{p.studyPatientId}</Field>
          <Field label={t('patients.field.address')}>{addressText(p.address)}</Field>
          <Field label={t('patients.field.email')}>{p.email}</Field>
          <Field label={t('patients.field.phone')} testId="patient-info-phone">
            {formatPhone(p.phone)}
          </Field>
        </Box>
      </Paper>
      {permissions.includes('CAN_MERGE_PATIENTS') && !p.mergedInto ? (
        <MergedPatientsPanel
          patient={p}
          onChanged={() => {
            void q.refetch();
            void queryClient.invalidateQueries({ queryKey: ['testOrderForms'] });
            void queryClient.invalidateQueries({ queryKey: ['patient-billings'] });
          }}
        />
      ) : null}
      <Paper variant="outlined" sx={{ borderRadius: 2, mb: 2 }}>
        <Tabs value={tab} onChange={(_, v: 'tests' | 'billing' | 'access') => setTab(v)}>
          <Tab value="tests" label={t('patients.tab.tests')} data-testid="patient-tab-tests" />
          <Tab value="billing" label={t('patients.tab.billing')} data-testid="patient-tab-billing" />
          {/* who read or changed this patient's data (docs/audit.md), for those who may read the audit trail */}
          {permissions.includes('VIEW_AUDIT_TRAIL') ? (
            <Tab value="access" label={auditT('audit.accessHistory')} data-testid="patient-tab-access" />
          ) : null}
        </Tabs>
      </Paper>
      {tab === 'tests' ? (
        <TestHistoryTab patientId={p.id} />
      ) : tab === 'billing' ? (
        <BillingTab patientId={p.id} />
      ) : (
        <AccessHistoryTab patientId={p.id} />
      )}
      {editing ? (
        <EditPatientDialog
          patient={p}
          onClose={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            void q.refetch();
          }}
        />
      ) : null}
    </Box>
  );
}

export default PatientDetailPage;
