import { useMemo, useState } from 'react';
import { Box, Link } from '@mui/material';
import { patientListActions, PATIENTS_PAGE_SIZE, PATIENTS_PAGE_SIZES } from '@onco/domain';
import { usePermissions } from 'react-admin';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import {
  ActionsMenu,
  DateText,
  ListPage,
  PhoneText,
  Truncate,
  type Column,
  type FacetFilterDef,
  type ListContext,
} from '../../components';
import { rememberActiveMenu } from '../../layout/menu';
import { useEnumLabel } from '../orders/list/useOrdersT';
import { DayRangeFields } from '../../components/DayRangeFields';
import type { PatientRow } from './api';
import {
  addressText,
  displayDay,
  mergeSelectionProblem,
  patientsBaseFilter,
  type CreatedRange,
} from './logic';
import { MergePatientsDialog } from './MergePatientsDialog';
import { EditPatientDialog, UpdatePatientNumberDialog } from './PatientDialogs';
import { usePatientsT } from './usePatients';

const stop = (e: React.MouseEvent) => e.stopPropagation();

/**
 * The patients list (/patients, spec 2 section 2.6): Account, Provider and Hospital filters from the server's
 * facets (labelled with names) and the Created range; the search box only with CAN_SEARCH_PATIENT; 15 a page,
 * newest update first; multi-select; Patient # opens the patient; the Actions menu with VIEW_PATIENT_ACTIONS
 * (Edit Patient, Update Patient #, Merge Patients: the selected rows are the duplicates). The server scopes the rows
 * to the user's accounts and physicians.
 */
export function PatientsListPage() {
  const t = usePatientsT();
  const label = useEnumLabel();
  const navigate = useNavigate();
  const { permissions = [] } = usePermissions<string[]>();
  const [range, setRange] = useState<CreatedRange>({ start: null, end: null });
  const [dialog, setDialog] = useState<
    { kind: 'edit' | 'number'; patient: PatientRow } | { kind: 'merge'; duplicates: PatientRow[] } | null
  >(null);
  const baseFilter = useMemo(() => patientsBaseFilter(range), [range]);

  const facets: FacetFilterDef[] = [
    { name: 'account_facet', field: 'accountIds', label: t('patients.facet.account') },
    { name: 'physician_facet', field: 'physicianIds', label: t('patients.facet.provider') },
    { name: 'hospital_location_facet', field: 'hospitalLocationIds', label: t('patients.facet.hospital') },
  ];

  const open = (id: string) => {
    rememberActiveMenu('patients');
    navigate(`/patient/${encodeURIComponent(id)}`);
  };

  const columns: Column<PatientRow>[] = [
    {
      source: 'userId',
      label: t('patients.col.number'),
      sortable: true,
      render: (r) => (
        <Link
          component={RouterLink}
          to={`/patient/${encodeURIComponent(r.id)}`}
          onClick={stop}
          sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}
          data-testid={`patient-link-${r.id}`}
        >
          {r.userId}
        </Link>
      ),
    },
    { source: 'firstName', label: t('patients.col.firstName'), sortable: true },
    { source: 'lastName', label: t('patients.col.lastName'), sortable: true },
    { source: 'middleName', label: t('patients.col.middleName'), sortable: true },
    {
      source: 'birthSex',
      label: t('patients.col.birthSex'),
      sortable: true,
      render: (r) => label(r.birthSex),
    },
    {
      source: 'dateOfBirth',
      label: t('patients.col.dob'),
      sortable: true,
      render: (r) => displayDay(r.dateOfBirth),
    },
    { source: 'mrn', label: t('patients.col.mrn'), sortable: true },
    {
      source: 'address',
      label: t('patients.col.address'),
      render: (r) => <Truncate text={addressText(r.address)} />,
    },
    {
      source: 'phone',
      label: t('patients.col.phone'),
      render: (r) => (
        <Box component="span" sx={{ whiteSpace: 'nowrap' }} data-testid={`patient-phone-${r.id}`}>
          <PhoneText value={r.phone} />
        </Box>
      ),
    },
    { source: 'email', label: t('patients.col.email'), render: (r) => <Truncate text={r.email} /> },
    {
      source: 'diagnosis',
      label: t('patients.col.diagnosis'),
      sortable: true,
      render: (r) => label(r.diagnosis),
    },
    {
      source: 'createdOn',
      label: t('patients.col.created'),
      sortable: true,
      render: (r) => <DateText value={r.createdOn} />,
    },
    {
      source: 'updatedOn',
      label: t('patients.col.updated'),
      sortable: true,
      render: (r) => <DateText value={r.updatedOn} />,
    },
  ];

  const actionsMenu = (ctx: ListContext<PatientRow>) => {
    const allowed = patientListActions(ctx.selected, permissions);
    if (!allowed.menu) return null;
    const mergeProblem = mergeSelectionProblem(ctx.selected);
    const pick = (kind: 'edit' | 'number') => {
      if (ctx.selected[0]) setDialog({ kind, patient: ctx.selected[0] });
    };
    return (
      <ActionsMenu
        label={t('patients.actions')}
        testId="patients-actions"
        actions={[
          {
            key: 'edit',
            label: t('patients.edit'),
            secondary: allowed.edit ? null : t('patients.selectOne'),
            disabled: !allowed.edit,
            testId: 'patients-action-edit',
            onClick: () => pick('edit'),
          },
          permissions.includes('CAN_UPDATE_PATIENTID')
            ? {
                key: 'number',
                label: t('patients.updateNumber'),
                disabled: !allowed.updateNumber,
                testId: 'patients-action-number',
                onClick: () => pick('number'),
              }
            : null,
          permissions.includes('CAN_MERGE_PATIENTS')
            ? {
                key: 'merge',
                label: t('patients.merge'),
                secondary: mergeProblem ? t(`patients.merging.selectProblem.${mergeProblem}`) : null,
                disabled: !allowed.merge,
                testId: 'patients-action-merge',
                onClick: () => setDialog({ kind: 'merge', duplicates: [...ctx.selected] }),
              }
            : null,
        ]}
      />
    );
  };

  return (
    <ListPage<PatientRow>
      resource="patients"
      title={t('patients.title')}
      subtitle={t('patients.subtitle')}
      facets={facets}
      baseFilter={baseFilter}
      defaultPerPage={PATIENTS_PAGE_SIZE}
      perPageOptions={PATIENTS_PAGE_SIZES}
      defaultSort={{ field: 'updatedOn', order: 'DESC' }}
      selection="multi"
      emptyText={t('patients.empty')}
      filteredEmptyText={t('patients.empty')}
      search={permissions.includes('CAN_SEARCH_PATIENT')}
      searchPlaceholder={t('patients.searchPlaceholder')}
      onRowClick={(r) => open(r.id)}
      actions={(ctx) => (
        <>
          <DayRangeFields
            label={t('patients.created')}
            range={range}
            setRange={setRange}
            testId="patients-created"
          />
          {actionsMenu(ctx)}
        </>
      )}
      columns={columns}
    >
      {(ctx) =>
        dialog?.kind === 'edit' ? (
          <EditPatientDialog
            patient={dialog.patient}
            onClose={() => setDialog(null)}
            onSaved={() => {
              setDialog(null);
              ctx.refresh();
            }}
          />
        ) : dialog?.kind === 'merge' ? (
          <MergePatientsDialog
            duplicates={dialog.duplicates}
            onClose={() => setDialog(null)}
            onMerged={() => {
              ctx.setSelectedIds([]);
              ctx.refresh();
            }}
          />
        ) : dialog?.kind === 'number' ? (
          <UpdatePatientNumberDialog
            patient={dialog.patient}
            onClose={() => setDialog(null)}
            onDone={() => {
              setDialog(null);
              ctx.setSelectedIds([]);
              ctx.refresh();
            }}
          />
        ) : null
      }
    </ListPage>
  );
}

export default PatientsListPage;
