import { useEffect, useMemo, useState } from 'react';
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  IconButton,
  Menu,
  MenuItem,
  TextField,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import {
  BILLING_PREFERENCES,
  BILLING_TYPES,
  PATIENT_STATUSES,
  RELATIONSHIPS,
  type BillingEntryForm,
} from '@onco/domain';
import { useQuery } from '@tanstack/react-query';
import { usePermissions } from 'react-admin';
import { ConfirmDialog, FormDialog, useDebounced, useSave, useToast } from '../../components';
import { useEnumLabel } from '../orders/list/useOrdersT';
import type { BillingEntry, Payor } from './api';
import {
  billingBody,
  billingCardTitle,
  billingDraft,
  billingDraftErrors,
  billingDraftFields,
  billingLabel,
  displayDay,
  payorTyped,
  type BillingDraft,
} from './logic';
import { errorMessage, fieldErrorsOf, usePatientMethods, usePatientsT } from './usePatients';

/** Who may add an entry from the patient page: the roles that write billing entries (the server checks again). */
const WRITERS = ['CAN_CREATE_TRF', 'CAN_EDIT_TRF', 'VIEW_BILLING_ACTIONS', 'CAN_EDIT_BILLING'];

/**
 * Billing Information (spec 2 section 2.7): the patient's saved billing entries as cards, the default first; each
 * card's menu (Edit, Mark Default, Delete) with VIEW_BILLING_ACTIONS; "Add or Edit Billing Information" with the
 * payor search. Each write answers the updated list.
 */
export function BillingTab({ patientId }: { patientId: string }) {
  const t = usePatientsT();
  const label = useEnumLabel();
  const toast = useToast();
  const api = usePatientMethods();
  const { permissions = [] } = usePermissions<string[]>();
  const menuAllowed = permissions.includes('VIEW_BILLING_ACTIONS');
  const [menu, setMenu] = useState<{ el: HTMLElement; entry: BillingEntry } | null>(null);
  const [editing, setEditing] = useState<BillingEntry | 'new' | null>(null);
  const [toDelete, setToDelete] = useState<BillingEntry | null>(null);
  const q = useQuery({
    queryKey: ['patient-billings', patientId],
    // a failed load is an empty list, silently (spec 2 section 8)
    queryFn: () =>
      api
        .getPatientBillings({ patientId })
        .then((r) => r.data.content)
        .catch(() => [] as BillingEntry[]),
  });
  const entries = q.data ?? [];

  const write = async (entry: Parameters<typeof api.savePatientBilling>[0]['entry']) => {
    try {
      await api.savePatientBilling({ patientId, entry });
      toast('success', t('patients.billingSaved'));
      await q.refetch();
    } catch (e) {
      toast('error', errorMessage(e, t('patients.billingFailed')));
    }
  };

  return (
    <Box data-testid="patient-billing">
      <Box sx={{ display: 'flex', mb: 1.5 }}>
        <Box sx={{ flex: 1 }} />
        {WRITERS.some((p) => permissions.includes(p)) ? (
          <Button
            variant="contained"
            color="secondary"
            startIcon={<AddIcon />}
            onClick={() => setEditing('new')}
            data-testid="billing-add"
          >
            {t('patients.addBilling')}
          </Button>
        ) : null}
      </Box>
      {entries.length === 0 ? (
        <Alert severity="info" variant="outlined">
          {q.isPending ? 'Loading....' : t('patients.noBilling')}
        </Alert>
      ) : (
        <Box
          sx={{
            display: 'grid',
            gap: 2,
            gridTemplateColumns: { xs: '1fr', md: '1fr 1fr', lg: '1fr 1fr 1fr' },
          }}
        >
          {entries.map((e) => (
            <Card key={e.id} variant="outlined" data-testid={`billing-card-${e.id}`}>
              <CardContent sx={{ pb: '12px !important' }}>
                <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
                  <Typography sx={{ fontWeight: 600, flex: 1 }} noWrap>
                    {billingCardTitle(e, label)}
                  </Typography>
                  {e.isDefault ? <Chip size="small" color="success" label={t('patients.default')} /> : null}
                  {menuAllowed ? (
                    <IconButton
                      size="small"
                      onClick={(ev) => setMenu({ el: ev.currentTarget, entry: e })}
                      data-testid={`billing-menu-${e.id}`}
                    >
                      <MoreVertIcon fontSize="small" />
                    </IconButton>
                  ) : null}
                </Box>
                <CardLine name={billingLabel('billingType')} value={label(e.billingType)} />
                {e.preference ? (
                  <CardLine name={billingLabel('preference')} value={label(e.preference)} />
                ) : null}
                {e.payorId ? <CardLine name={billingLabel('payorId')} value={e.payorId} /> : null}
                {e.insuredName ? <CardLine name={billingLabel('insuredName')} value={e.insuredName} /> : null}
                {e.insuredDob ? (
                  <CardLine name={billingLabel('insuredDob')} value={displayDay(e.insuredDob)} />
                ) : null}
                {e.policyNumber ? (
                  <CardLine name={billingLabel('policyNumber')} value={e.policyNumber} />
                ) : null}
                {e.groupNumber ? <CardLine name={billingLabel('groupNumber')} value={e.groupNumber} /> : null}
                {e.relationshipToPatient ? (
                  <CardLine
                    name={billingLabel('relationshipToPatient')}
                    value={label(e.relationshipToPatient)}
                  />
                ) : null}
                {e.facilityTypeName ? (
                  <CardLine name={billingLabel('facilityTypeName')} value={e.facilityTypeName} />
                ) : null}
                {e.otherTypeName ? (
                  <CardLine name={billingLabel('otherTypeName')} value={e.otherTypeName} />
                ) : null}
              </CardContent>
            </Card>
          ))}
        </Box>
      )}
      <Menu anchorEl={menu?.el ?? null} open={Boolean(menu)} onClose={() => setMenu(null)}>
        <MenuItem
          onClick={() => {
            setEditing(menu!.entry);
            setMenu(null);
          }}
          data-testid="billing-edit"
        >
          {t('patients.editBilling')}
        </MenuItem>
        <MenuItem
          disabled={menu?.entry.isDefault}
          onClick={() => {
            const e = menu!.entry;
            setMenu(null);
            void write({ id: e.id, isDefault: true, version: e.version });
          }}
          data-testid="billing-default"
        >
          {t('patients.markDefault')}
        </MenuItem>
        <MenuItem
          onClick={() => {
            setToDelete(menu!.entry);
            setMenu(null);
          }}
          data-testid="billing-delete"
        >
          {t('patients.deleteBilling')}
        </MenuItem>
      </Menu>
      <ConfirmDialog
        open={toDelete !== null}
        kind="warning"
        message={t('patients.deleteBillingConfirm', {
          name: toDelete ? billingCardTitle(toDelete, label) : '',
        })}
        onClose={() => setToDelete(null)}
        onConfirm={async () => {
          if (toDelete) await write({ id: toDelete.id, deleted: true, version: toDelete.version });
          setToDelete(null);
        }}
      />
      {editing ? (
        <BillingEntryDialog
          entry={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSave={async (body) => {
            await api.savePatientBilling({
              patientId,
              entry: editing === 'new' ? body : { ...body, id: editing.id, version: editing.version },
            });
            toast('success', t('patients.billingSaved'));
            setEditing(null);
            await q.refetch();
          }}
        />
      ) : null}
    </Box>
  );
}

function CardLine({ name, value }: { name: string; value: string }) {
  return (
    <Box sx={{ display: 'flex', gap: 1, fontSize: 14, lineHeight: 1.7 }}>
      <Box component="span" sx={{ color: 'text.secondary', minWidth: 150 }}>
        {name}
      </Box>
      <Box component="span" sx={{ wordBreak: 'break-word' }}>
        {value}
      </Box>
    </Box>
  );
}

const OPTIONS: Partial<Record<keyof BillingEntryForm, readonly string[]>> = {
  billingType: BILLING_TYPES,
  preference: BILLING_PREFERENCES,
  relationshipToPatient: RELATIONSHIPS,
  patientStatus: PATIENT_STATUSES,
};

/**
 * "Add or Edit Billing Information" (spec 2 section 5 "Billing form"): the fields of the chosen payment type,
 * validated live with the domain's rule (the server applies the same one); the payor search (3+ characters,
 * debounced 400 ms, 15 results) fills the payor id, free text clears it. A server refusal shows under its field.
 */
export function BillingEntryDialog(props: {
  entry: BillingEntry | null;
  onClose: () => void;
  onSave: (body: BillingEntryForm) => Promise<void>;
}) {
  const { entry, onClose, onSave } = props;
  const t = usePatientsT();
  const label = useEnumLabel();
  const api = usePatientMethods();
  const [d, setD] = useState<BillingDraft>(() => billingDraft(entry));
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [server, setServer] = useState<Record<string, string>>({});
  const { busy, save } = useSave();
  const errors = useMemo(() => billingDraftErrors(d, new Date()), [d]);
  const fields = billingDraftFields(d);
  const payorText = useDebounced(d.insuranceProvider, 400);
  const payors = useQuery({
    queryKey: ['payors', payorText],
    enabled: payorText.trim().length > 2,
    queryFn: () => api.searchPayors({ q: payorText.trim() }).then((r) => r.data),
  });
  useEffect(() => setServer({}), [d]);

  const set = (f: keyof BillingEntryForm, v: string) => {
    setD((x) => ({ ...x, [f]: v }));
    setTouched((x) => ({ ...x, [f]: true }));
  };
  const shown = (f: string) => server[f] ?? (touched[f] ? errors[f] : undefined);
  const submit = () =>
    save(() => onSave(billingBody(d)), {
      onError: (e) => setServer(fieldErrorsOf(e)),
      failure: (e) => errorMessage(e, t('patients.billingFailed')),
    });

  return (
    <FormDialog
      title={t('patients.billingTitle')}
      onClose={onClose}
      maxWidth="md"
      testId="billing-dialog"
      busy={busy}
      cancelLabel={t('patients.cancel')}
      submitLabel={t('patients.save')}
      onSubmit={submit}
      submitDisabled={Object.keys(errors).length > 0}
      submitTestId="billing-save"
    >
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2, pt: 1 }}>
        {fields.map((f) =>
          f === 'insuranceProvider' ? (
            <Autocomplete<Payor, false, false, true>
              key={f}
              freeSolo
              options={payors.data ?? []}
              filterOptions={(x) => x}
              getOptionLabel={(o) => (typeof o === 'string' ? o : o.name)}
              renderOption={(p, o) => (
                <li {...p} key={o.id}>
                  {o.name} · {o.payorId}
                  {o.state ? ` · ${o.state}` : ''}
                </li>
              )}
              inputValue={d.insuranceProvider}
              onInputChange={(_, text, reason) => {
                if (reason === 'input' || reason === 'clear') {
                  setD((x) => payorTyped(x, text));
                  setTouched((x) => ({ ...x, insuranceProvider: true, payorId: true }));
                }
              }}
              onChange={(_, v) => {
                if (v && typeof v !== 'string') setD((x) => payorTyped(x, v.name, v));
              }}
              renderInput={(params) => (
                <TextField
                  {...params}
                  size="small"
                  required
                  label={`${billingLabel(f)} (${t('patients.searchPayor')})`}
                  error={Boolean(shown(f))}
                  helperText={shown(f) ?? t('patients.payorHint')}
                  slotProps={{
                    htmlInput: { ...params.inputProps, 'data-testid': 'billing-payor-search' },
                  }}
                />
              )}
            />
          ) : (
            <TextField
              key={f}
              size="small"
              select={Boolean(OPTIONS[f])}
              required={
                ![
                  'preference',
                  'groupNumber',
                  'priorAuthorizationNumber',
                  'patientStatus',
                  'otherTypeName',
                ].includes(f)
              }
              label={billingLabel(f)}
              placeholder={f === 'insuredDob' || f === 'dischargeDate' ? 'MM/DD/YYYY' : undefined}
              value={d[f]}
              onChange={(e) => set(f, e.target.value)}
              error={Boolean(shown(f))}
              helperText={shown(f) ?? ' '}
              disabled={f === 'payorId'}
              slotProps={{ htmlInput: { 'data-testid': `billing-field-${f}` } }}
            >
              {(OPTIONS[f] ?? []).map((o) => (
                <MenuItem key={o} value={o}>
                  {label(o)}
                </MenuItem>
              ))}
            </TextField>
          ),
        )}
      </Box>
    </FormDialog>
  );
}
