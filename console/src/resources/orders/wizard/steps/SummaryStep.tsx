import { Box, Chip, Grid, Link, Paper, Typography } from '@mui/material';
import { summaryEditLinks, validateRequisition, type BlockName, type StepKey } from '@onco/domain';
import { formatDate, formatPhone } from '../../../../components';
import { useWizard } from '../context';
import { getPath } from '../model';
import { useWizardT } from '../useWizardT';

type Row = [label: string, path: string, kind?: 'date' | 'phone' | 'option' | 'flag'];

interface SummarySection {
  key: keyof ReturnType<typeof summaryEditLinks> | 'billing';
  title: string;
  blocks: BlockName[];
  rows: Row[];
  step: StepKey;
}

const SECTIONS: SummarySection[] = [
  {
    key: 'testSelection',
    title: 'wizard.sections.testSelection',
    blocks: ['testSelection'],
    step: 'patient',
    rows: [
      ['wizard.tests.NEXT_DX', 'orderInformation.nextDx', 'flag'],
      ['wizard.tests.NEXT_PERSONAL_DX', 'orderInformation.nextPersonalDx', 'flag'],
      ['wizard.tests.orderType', 'orderInformation.orderType', 'option'],
    ],
  },
  {
    key: 'patient',
    title: 'wizard.sections.patient',
    blocks: ['patient'],
    step: 'patient',
    rows: [
      ['wizard.fields.firstName', 'patient.firstName'],
      ['wizard.fields.lastName', 'patient.lastName'],
      ['wizard.fields.dateOfBirth', 'patient.dateOfBirth', 'date'],
      ['wizard.fields.birthSex', 'patient.birthSex', 'option'],
      ['wizard.fields.mrn', 'patient.mrn'],
      ['wizard.fields.street', 'patient.address.street'],
      ['wizard.fields.city', 'patient.address.city'],
      ['wizard.fields.state', 'patient.address.state'],
      ['wizard.fields.postalCode', 'patient.address.postalCode'],
      ['wizard.fields.phone', 'patient.phone', 'phone'],
    ],
  },
  {
    key: 'provider',
    title: 'wizard.sections.orderingProvider',
    blocks: ['provider', 'account', 'location'],
    step: 'provider',
    rows: [
      ['wizard.fields.firstName', 'physician.firstName'],
      ['wizard.fields.lastName', 'physician.lastName'],
      ['wizard.fields.npi', 'physician.userId'],
      ['wizard.fields.email', 'physician.email'],
      ['wizard.fields.deliveryMethod', 'physician.deliveryMethod', 'option'],
      ['wizard.fields.accountName', 'account.name'],
      ['wizard.fields.locationName', 'hospitalLocation.name'],
      ['wizard.fields.street', 'hospitalLocation.address.street'],
      ['wizard.fields.city', 'hospitalLocation.address.city'],
    ],
  },
  {
    key: 'pathologist',
    title: 'wizard.sections.pathologist',
    blocks: ['pathologist'],
    step: 'pathology',
    rows: [
      ['wizard.fields.name', 'pathologist.name'],
      ['wizard.fields.npi', 'pathologist.npi'],
      ['wizard.fields.locationName', 'pathologistLocation.name'],
    ],
  },
  {
    key: 'additionalProvider',
    title: 'wizard.sections.additionalProvider',
    blocks: ['additionalProvider'],
    step: 'additionalProvider',
    rows: [
      ['wizard.fields.firstName', 'additionalPhysician.firstName'],
      ['wizard.fields.lastName', 'additionalPhysician.lastName'],
      ['wizard.fields.locationName', 'additionalPhysicianLocation.name'],
    ],
  },
  {
    key: 'specimen',
    title: 'wizard.sections.tumor',
    blocks: ['tumorSpecimen', 'normalSpecimen', 'icd10'],
    step: 'specimen',
    rows: [
      ['wizard.fields.diagnosis', 'tumorSpecimen.diagnosis', 'option'],
      ['wizard.fields.otherDiagnosis', 'tumorSpecimen.otherDiagnosis'],
      ['wizard.fields.icd10Codes', 'tumorSpecimen.icd10Codes'],
      ['wizard.fields.stage', 'tumorSpecimen.stage', 'option'],
      ['wizard.fields.tumorSpecimenType', 'tumorSpecimen.specimenType', 'option'],
      ['wizard.fields.specimenId', 'tumorSpecimen.specimenId'],
      ['wizard.fields.collectionDate', 'tumorSpecimen.collectionDate', 'date'],
      ['wizard.fields.normalSpecimenType', 'normalSpecimen.specimenType', 'option'],
      ['wizard.fields.collectionDate', 'normalSpecimen.collectionDate', 'date'],
    ],
  },
  {
    key: 'billing',
    title: 'wizard.sections.primaryBilling',
    blocks: ['billing'],
    step: 'billing',
    rows: [
      ['Billing Type', 'billings.0.billingType', 'option'],
      ['Insurance Provider', 'billings.0.insuranceProvider'],
      ['Policy Number', 'billings.0.policyNumber'],
    ],
  },
  {
    key: 'attachments',
    title: 'wizard.sections.attachments',
    blocks: ['attachments'],
    step: 'attachments',
    rows: [],
  },
];

export function SummaryStep() {
  const { form, rules, goTo } = useWizard();
  const t = useWizardT();
  const l = (s: string) => (s.startsWith('wizard.') ? t(s) : s);
  const errors = validateRequisition(form, rules);
  const links = summaryEditLinks(form.status ?? 'DRAFT', rules.permissions);
  const show = (path: string, kind?: Row[2]): string => {
    const v = getPath(form, path);
    if (v === null || v === undefined || v === '') return '';
    if (kind === 'date') return formatDate(String(v));
    if (kind === 'phone') return formatPhone(String(v));
    if (kind === 'option')
      return t(`wizard.options.${String(v)}`).replace(/^wizard\.options\./, '') || String(v);
    if (kind === 'flag') return v === true ? '✓' : '';
    return String(v);
  };
  return (
    <Box>
      {SECTIONS.map((s) => {
        const problems = s.blocks.flatMap((b) => Object.entries(errors[b] ?? {}));
        const link =
          s.key === 'billing' ? (form.status === 'DRAFT' || !form.status ? 'billing' : null) : links[s.key];
        return (
          <Paper key={s.key} variant="outlined" sx={{ p: 2, mb: 2 }} data-summary={s.key}>
            <Box sx={{ display: 'flex', alignItems: 'center', mb: 1 }}>
              <Typography component="h2" sx={{ fontWeight: 600, flex: 1 }}>
                {l(s.title)}
                {problems.length > 0 && (
                  <Chip
                    size="small"
                    color="error"
                    variant="outlined"
                    label={t('wizard.summary.required')}
                    sx={{ ml: 1 }}
                  />
                )}
              </Typography>
              {link && (
                <Link component="button" type="button" onClick={() => goTo(link as StepKey)}>
                  {t('wizard.buttons.edit')}
                </Link>
              )}
            </Box>
            <Grid container spacing={1}>
              {s.rows.map(([label, path, kind]) => {
                const missing = problems.some(([p]) => p === path);
                return (
                  <Grid key={path} size={{ xs: 12, sm: 6, md: 4 }}>
                    <Typography variant="caption" color="text.secondary">
                      {l(label)}
                      {missing && (
                        <Typography component="span" color="error">
                          {' *'}
                        </Typography>
                      )}
                    </Typography>
                    <Typography variant="body2">{show(path, kind) || '—'}</Typography>
                  </Grid>
                );
              })}
              {s.key === 'attachments' &&
                (form.attachments ?? []).map((a) => (
                  <Grid key={a.id} size={{ xs: 12, sm: 6 }}>
                    <Typography variant="body2">
                      {a.name} {a.type ? `(${t(`wizard.options.${a.type}`)})` : ''}
                    </Typography>
                  </Grid>
                ))}
              {problems
                .filter(([p]) => !s.rows.some(([, rp]) => rp === p))
                .map(([p, m]) => (
                  <Grid key={p} size={12}>
                    <Typography variant="caption" color="error">
                      {p}: {m}
                    </Typography>
                  </Grid>
                ))}
            </Grid>
          </Paper>
        );
      })}
    </Box>
  );
}
