import type { ReactNode } from 'react';
import {
  Box,
  Chip,
  Link,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import {
  attachmentKindOptions,
  canAttachToRequisition,
  formatDisplayDate,
  icd10List,
  primaryBillingIndex,
  type BillingForm,
} from '@onco/domain';
import { useDataProvider, usePermissions } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { DateText, formatPhone, useToast } from '../../../components';
import type { ConsoleDataProvider } from '../../../providers/dataProvider';
import { enumLabel } from '../list/logic';
import { useEnumLabel, useOrdersT } from '../list/useOrdersT';
import { errorText } from './api';
import { useSeesField } from '../../test-orders/boundFields';
import type { Requisition } from './requisition';
import { AttachmentUpload } from '../AttachmentUpload';

export type Entry = [label: string, value: ReactNode];

const isEmpty = (v: ReactNode) => v === null || v === undefined || v === '' || v === false;

/** A titled block of label/value pairs, two to four columns wide. */
export function FieldGroup({ title, entries }: { title: ReactNode; entries: Entry[] }) {
  return (
    <Paper variant="outlined" sx={{ p: 2, borderRadius: 2 }}>
      <Typography variant="subtitle2" sx={{ fontWeight: 700, mb: 1.5, color: 'primary.dark' }}>
        {title}
      </Typography>
      <Box
        component="dl"
        sx={{
          m: 0,
          display: 'grid',
          gap: 1.5,
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(4, 1fr)' },
        }}
      >
        {entries.map(([label, value]) => (
          <Box key={label} sx={{ minWidth: 0 }}>
            <Typography component="dt" variant="caption" color="text.secondary" sx={{ display: 'block' }}>
              {label}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: 'break-word' }}>
              {isEmpty(value) ? '—' : value}
            </Typography>
          </Box>
        ))}
      </Box>
    </Paper>
  );
}

const calendar = (v: unknown) => (typeof v === 'string' && v ? formatDisplayDate(v) : '');
export const addressText = (a: Record<string, any> | null | undefined) =>
  a ? [a.street, a.city, [a.state, a.postalCode].filter(Boolean).join(' ')].filter(Boolean).join(', ') : '';
export const testSelectionText = (r: Requisition) =>
  [
    r.orderInformation?.nextDx ? enumLabel('NEXT_DX') : null,
    r.orderInformation?.nextPersonalDx
      ? `${enumLabel('NEXT_PERSONAL_DX')}${r.orderInformation.orderType ? ` (${enumLabel(r.orderInformation.orderType)})` : ''}`
      : null,
  ]
    .filter(Boolean)
    .join(', ');

function Stack({ children }: { children: ReactNode }) {
  return <Box sx={{ display: 'grid', gap: 2 }}>{children}</Box>;
}

export function PatientTab({ r }: { r: Requisition }) {
  const t = useOrdersT();
  const label = useEnumLabel();
  const f = (k: string) => t(`orders.summary.field.${k}`);
  const p = r.patient ?? {};
  const tu = r.tumorSpecimen ?? {};
  const n = r.normalSpecimen ?? {};
  return (
    <Stack>
      <FieldGroup
        title={t('orders.summary.section.orderInformation')}
        entries={[
          [t('orders.summary.testSelection'), testSelectionText(r)],
          [f('orderType'), label(r.orderInformation?.orderType)],
        ]}
      />
      <FieldGroup
        title={t('orders.summary.section.patient')}
        entries={[
          [f('firstName'), p.firstName],
          [f('lastName'), p.lastName],
          [t('orders.summary.patientNumber'), p.userId],
          [t('orders.summary.mrn'), p.mrn],
          [t('orders.summary.dateOfBirth'), calendar(p.dateOfBirth)],
          [t('orders.summary.sex'), label(p.birthSex)],
          [f('race'), p.race],
          [f('ethnicity'), p.ethnicity],
          [f('phone'), formatPhone(p.phone)],
          [f('email'), p.email],
          [t('orders.summary.address'), addressText(p.address)],
          [f('trialName'), p.trialName],
          [f('studyPatientId'), p.studyPatientId],
        ]}
      />
      <FieldGroup
        title={t('orders.summary.section.tumor')}
        entries={[
          [t('orders.summary.diagnosis'), tu.diagnosis ? label(tu.diagnosis) : ''],
          [f('otherDiagnosis'), tu.otherDiagnosis],
          [f('primaryTumorSite'), tu.primaryTumorSite],
          [t('orders.summary.icd10'), icd10List(tu.icd10Codes).join(', ')],
          [f('stage'), tu.stage === 'OTHER' ? tu.otherStage : tu.stage],
          [f('dateOfDiagnosis'), calendar(tu.dateOfDiagnosis)],
          [f('diseaseStatus'), label(tu.diseaseStatus)],
          [f('drugName'), tu.drugName],
          [f('currentTherapies'), (tu.currentTherapies ?? []).join(', ')],
          [f('priorTherapies'), (tu.priorTherapies ?? []).join(', ')],
          [
            f('immunotherapy'),
            tu.planOrReceivingImmunotherapy == null
              ? ''
              : t(`orders.summary.${tu.planOrReceivingImmunotherapy ? 'yes' : 'no'}`),
          ],
          [f('specimenType'), label(tu.specimenType)],
          [f('specimenId'), tu.specimenId],
          [f('collectionDate'), calendar(tu.collectionDate)],
          [
            f('biopsySite'),
            tu.specimenBiopsySite === 'OTHER' ? tu.otherBiopsySite : label(tu.specimenBiopsySite),
          ],
          [f('content'), tu.content ?? ''],
        ]}
      />
      <FieldGroup
        title={t('orders.summary.section.normal')}
        entries={[
          [f('specimenType'), label(n.specimenType)],
          [f('collectionMode'), label(n.collectionMode)],
          [f('collectionDate'), calendar(n.collectionDate)],
        ]}
      />
    </Stack>
  );
}

function providerEntries(
  t: (k: string) => string,
  p: Record<string, any> | null | undefined,
  loc: Record<string, any> | null | undefined,
  npiKey = 'userId',
): Entry[] {
  const f = (k: string) => t(`orders.summary.field.${k}`);
  return [
    [f('name'), p?.name ?? [p?.firstName, p?.lastName].filter(Boolean).join(' ')],
    [t('orders.summary.npi'), p?.[npiKey]],
    [f('email'), p?.email],
    [f('phone'), formatPhone(p?.phone)],
    [f('fax'), formatPhone(p?.fax)],
    [t('orders.summary.location'), loc?.name],
    [t('orders.summary.address'), addressText(loc?.address)],
  ];
}

export function ProviderTab({ r }: { r: Requisition }) {
  const t = useOrdersT();
  const label = useEnumLabel();
  return (
    <Stack>
      <FieldGroup
        title={t('orders.summary.section.provider')}
        entries={[
          ...providerEntries(t, r.physician, r.hospitalLocation),
          [t('orders.summary.field.deliveryMethod'), label(r.physician?.deliveryMethod)],
        ]}
      />
      <FieldGroup
        title={t('orders.summary.section.account')}
        entries={[[t('orders.summary.field.name'), r.account?.name]]}
      />
      <FieldGroup
        title={t('orders.summary.section.pathologist')}
        entries={providerEntries(t, r.pathologist, r.pathologistLocation, 'npi')}
      />
      <FieldGroup
        title={t('orders.summary.section.additionalProvider')}
        entries={providerEntries(t, r.additionalPhysician, r.additionalPhysicianLocation)}
      />
    </Stack>
  );
}

export function BillingTab({ r }: { r: Requisition }) {
  const t = useOrdersT();
  const label = useEnumLabel();
  const f = (k: string) => t(`orders.summary.field.${k}`);
  const billings = (r.billings ?? []).filter((b) => !b.archived);
  if (!billings.length)
    return <Typography color="text.secondary">{t('orders.summary.noBilling')}</Typography>;
  return (
    <Stack>
      {billings.map((b, i) => (
        <FieldGroup
          key={b.id ?? i}
          title={
            b.preference === 'SECONDARY'
              ? t('orders.summary.section.secondaryBilling')
              : t('orders.summary.section.primaryBilling')
          }
          entries={[
            [f('billingType'), label(b.billingType)],
            [f('insuranceProvider'), b.insuranceProvider ?? b.facilityTypeName ?? b.otherTypeName],
            [f('policyNumber'), b.policyNumber],
            [f('groupNumber'), b.groupNumber],
            [f('insuredName'), b.insuredName],
            [f('relationship'), label(b.relationshipToPatient)],
            [f('patientStatus'), label(b.patientStatus)],
            [f('dischargeDate'), calendar(b.dischargeDate)],
          ]}
        />
      ))}
    </Stack>
  );
}

function SimpleTable({
  head,
  rows,
  empty,
  onRowClick,
}: {
  head: string[];
  rows: Array<{ key: string; cells: ReactNode[] }>;
  empty: string;
  onRowClick?: (key: string) => void;
}) {
  return (
    <Paper variant="outlined" sx={{ borderRadius: 2, overflow: 'hidden' }}>
      <Table size="small">
        <TableHead>
          <TableRow>
            {head.map((h) => (
              <TableCell key={h} sx={{ fontWeight: 600, color: 'text.secondary', bgcolor: 'grey.50' }}>
                {h}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.length ? (
            rows.map((row) => (
              <TableRow
                key={row.key}
                hover={Boolean(onRowClick)}
                sx={{ cursor: onRowClick ? 'pointer' : 'default' }}
                onClick={() => onRowClick?.(row.key)}
              >
                {row.cells.map((c, i) => (
                  <TableCell key={i}>{c}</TableCell>
                ))}
              </TableRow>
            ))
          ) : (
            <TableRow>
              <TableCell colSpan={head.length} sx={{ py: 4 }}>
                <Typography align="center" color="text.secondary">
                  {empty}
                </Typography>
              </TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </Paper>
  );
}

export function AttachmentsTab({ r, onChanged }: { r: Requisition; onChanged: () => void }) {
  const t = useOrdersT();
  const label = useEnumLabel();
  const toast = useToast();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { permissions = [] } = usePermissions<string[]>();
  const f = (k: string) => t(`orders.summary.field.${k}`);
  // files can be added after submission too (spec 1 section 4: the Attachments link always shows), by who may
  // create or edit requisitions; the kinds and the 50MB limit are the wizard's (the server checks them again)
  const canAdd = !r.deleted && canAttachToRequisition(permissions);
  const billings = (r.billings ?? []) as BillingForm[];
  const kinds = attachmentKindOptions({
    primaryBillingType: billings[primaryBillingIndex(billings)]?.billingType,
    financialAssistance: !!r.actions?.financialAssistance,
  });
  return (
    <>
      {canAdd ? (
        <Paper variant="outlined" sx={{ p: 2, mb: 2, borderRadius: 2 }} data-testid="attachments-add">
          <AttachmentUpload
            kinds={kinds}
            accountId={r.account?.id}
            requisitionId={async () => r.id}
            onUploaded={(data, file) => {
              toast('success', t('orders.summary.attachmentAdded', { name: data.name ?? file.name }));
              onChanged();
            }}
          />
        </Paper>
      ) : null}
      <SimpleTable
        head={[f('fileName'), f('type'), f('uploaded')]}
        empty={t('orders.summary.noAttachments')}
        rows={(r.attachments ?? []).map((a) => ({
          key: a.id,
          cells: [
            <Link
              key="n"
              component="button"
              variant="body2"
              onClick={() =>
                dataProvider
                  .download({
                    path: `attachments/${encodeURIComponent(a.id)}/download`,
                    fileName: a.name ?? a.id,
                  })
                  .catch((e) => toast('error', errorText(e, t('orders.downloadFailed'))))
              }
            >
              {a.name ?? a.id}
            </Link>,
            label(a.type),
            <DateText key="d" value={a.createdOn} withTime />,
          ],
        }))}
      />
    </>
  );
}

/** The Samples tab: the lab's samples with Add / Edit / Copy (samples/SamplesTab.tsx). */

export function TestsTab({ r, canOpen }: { r: Requisition; canOpen: boolean }) {
  const t = useOrdersT();
  const label = useEnumLabel();
  const navigate = useNavigate();
  const f = (k: string) => t(`orders.summary.field.${k}`);
  // the due date only with VIEW_TESTORDER_DUEDATE (the server sends it to no one else)
  const due = useSeesField()('dueOn');
  return (
    <SimpleTable
      head={[f('testOrderId'), f('testType'), f('orderType'), f('status'), ...(due ? [f('dueOn')] : [])]}
      empty={t('orders.summary.noTests')}
      onRowClick={
        canOpen
          ? (id) => navigate(`/test/${encodeURIComponent(id)}`, { state: { from: 'orders' } })
          : undefined
      }
      rows={(r.testOrders ?? [])
        .filter((x) => x.status !== 'TEST_SELECTED')
        .map((x) => ({
          key: x.id,
          cells: [
            x.testOrderId ?? '',
            label(x.testType),
            label(x.orderType),
            <Chip key="s" size="small" variant="outlined" label={label(x.status)} />,
            ...(due ? [calendar(x.dueOn)] : []),
          ],
        }))}
    />
  );
}
