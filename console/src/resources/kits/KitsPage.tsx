import { useMemo, useState } from 'react';
import { Autocomplete, Box, Button, MenuItem, Paper, TextField, Typography } from '@mui/material';
import { useCreate, useGetList } from 'react-admin';
import {
  KIT_TYPE_DESCRIPTIONS,
  KIT_TYPES,
  KITS_PER_PAGE,
  SHIPPING_REQUESTS,
  US_STATES,
  kitFormComplete,
  validateKitForm,
  type KitForm,
} from '@onco/domain';
import {
  Banner,
  DataTable,
  DateText,
  Paginator,
  useMessagesT,
  useToast,
  type Column,
} from '../../components';
import { readSession } from '../../providers/session';
import { kitMessageKey, kitsEn } from './i18n';

interface KitRow {
  id: string;
  testKitType: string;
  numberOfKits: number;
  recipient: string | null;
  shippingRequest: string | null;
  createdOn: string;
}
interface AccountRow {
  id: string;
  name: string;
}

const EMPTY: KitForm = {
  testKitType: '',
  numberOfKits: '',
  recipient: '',
  institute: '',
  street: '',
  suite: '',
  city: '',
  state: '',
  postalCode: '',
  shippingRequest: '',
};

/**
 * Test Kits (spec 2 section 2.10): the caller's kit requests (two thirds; GET /portal/api/v1/kits filtered by
 * createdBy, 15 a page, newest first) and the request form (one third, only with VIEW_KITS_ACTIONS). The form's
 * rules are @onco/domain's validateKitForm, which the server enforces too; Submit is enabled once every required
 * field has a value.
 */
export function KitsPage() {
  const t = useMessagesT(kitsEn);
  const toast = useToast();
  const session = readSession();
  const canRequest = (session?.grantedAuthorities ?? []).includes('VIEW_KITS_ACTIONS');
  const [page, setPage] = useState(1);
  const list = useGetList<KitRow>('kits', {
    pagination: { page, perPage: KITS_PER_PAGE },
    sort: { field: 'createdOn', order: 'DESC' },
    filter: session ? { createdBy: session.id } : {},
  });

  const columns: Column<KitRow>[] = [
    {
      source: 'testKitType',
      label: t('kits.col.testKitType'),
      render: (r) =>
        KIT_TYPE_DESCRIPTIONS[r.testKitType as keyof typeof KIT_TYPE_DESCRIPTIONS] ?? r.testKitType,
    },
    { source: 'numberOfKits', label: t('kits.col.numberOfKits'), align: 'right' },
    { source: 'recipient', label: t('kits.col.recipient') },
    {
      source: 'shippingRequest',
      label: t('kits.col.shippingRequest'),
      render: (r) => (r.shippingRequest ? t(`kits.shipping.${r.shippingRequest}`) : ''),
    },
    { source: 'createdOn', label: t('kits.col.createdOn'), render: (r) => <DateText value={r.createdOn} /> },
  ];

  return (
    <Box sx={{ p: { xs: 1.5, md: 3 }, maxWidth: 1600, mx: 'auto' }} data-testid="kits-page">
      <Banner title={<span data-testid="page-title">{t('kits.title')}</span>} subtitle={t('kits.subtitle')} />
      <Box sx={{ display: 'flex', gap: 2, mt: 2, flexDirection: { xs: 'column', md: 'row' } }}>
        <Paper variant="outlined" sx={{ flex: canRequest ? 2 : 1, minWidth: 0 }} data-testid="kits-table">
          <DataTable<KitRow>
            columns={columns}
            rows={list.data ?? []}
            loading={list.isPending}
            fetching={list.isFetching}
            emptyText={t('kits.empty')}
          />
          <Box sx={{ display: 'flex', justifyContent: 'flex-end', p: 1 }}>
            <Paginator page={page} perPage={KITS_PER_PAGE} total={list.total ?? 0} onChange={setPage} />
          </Box>
        </Paper>
        {canRequest ? (
          <Paper variant="outlined" sx={{ flex: 1, p: 2, minWidth: 280 }} data-testid="kit-form">
            <KitRequestForm
              onDone={() => {
                setPage(1);
                void list.refetch();
              }}
              notify={toast}
            />
          </Paper>
        ) : null}
      </Box>
    </Box>
  );
}

function KitRequestForm(props: { onDone: () => void; notify: ReturnType<typeof useToast> }) {
  const t = useMessagesT(kitsEn);
  const [form, setForm] = useState<KitForm>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const accounts = useGetList<AccountRow>('accounts', {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'name', order: 'ASC' },
  });
  const [accountId, setAccountId] = useState<string>('');
  const account = accountId || accounts.data?.[0]?.id || '';
  const [create, { isPending }] = useCreate();
  const complete = useMemo(() => kitFormComplete(form) && !!account, [form, account]);
  const set = (k: keyof KitForm) => (e: React.ChangeEvent<HTMLInputElement>) => {
    setForm((f) => ({ ...f, [k]: e.target.value }));
    setErrors((x) => ({ ...x, [k]: undefined }));
  };
  // a field's message in the screen's language (the domain's and the server's are English)
  const say = (text: string | undefined) => {
    if (!text) return ' ';
    const m = kitMessageKey(text);
    return m ? t(m.key, m.values) : text;
  };
  const field = (k: keyof KitForm, required = true) => ({
    label: t(`kits.field.${k}`),
    value: form[k] ?? '',
    onChange: set(k),
    required,
    size: 'small' as const,
    fullWidth: true,
    error: !!errors[k],
    helperText: say(errors[k]),
    slotProps: { htmlInput: { 'data-testid': `kit-${k}` } },
  });
  const submit = async () => {
    const problems = validateKitForm(form);
    if (Object.keys(problems).length) return setErrors(problems);
    try {
      await create('kits', { data: { ...form, account: { id: account } } }, { returnPromise: true });
      props.notify('success', t('kits.received'));
      setForm(EMPTY);
      props.onDone();
    } catch (e) {
      const body = (e as { body?: { details?: { fields?: Record<string, string> } } })?.body;
      if (body?.details?.fields) setErrors(body.details.fields);
      props.notify('error', t('kits.failed'));
    }
  };
  return (
    <Box component="form" onSubmit={(e) => (e.preventDefault(), void submit())} noValidate>
      <Typography variant="h6" sx={{ mb: 1.5 }}>
        {t('kits.requestTitle')}
      </Typography>
      {(accounts.data?.length ?? 0) > 1 ? (
        <TextField
          select
          size="small"
          fullWidth
          label={t('kits.field.account')}
          value={account}
          onChange={(e) => setAccountId(e.target.value)}
          helperText=" "
        >
          {accounts.data!.map((a) => (
            <MenuItem key={a.id} value={a.id}>
              {a.name}
            </MenuItem>
          ))}
        </TextField>
      ) : null}
      <TextField select {...field('testKitType')}>
        {KIT_TYPES.map((k) => (
          <MenuItem key={k} value={k}>
            {KIT_TYPE_DESCRIPTIONS[k]}
          </MenuItem>
        ))}
      </TextField>
      <TextField {...field('numberOfKits')} type="number" />
      <TextField {...field('recipient')} />
      <TextField {...field('institute', false)} />
      <TextField {...field('street')} />
      <TextField {...field('suite', false)} />
      <TextField {...field('city')} />
      <Box sx={{ display: 'flex', gap: 1 }}>
        <Autocomplete
          sx={{ flex: 1 }}
          options={[...US_STATES]}
          value={form.state || null}
          onChange={(_e, v) => {
            setForm((f) => ({ ...f, state: v ?? '' }));
            setErrors((x) => ({ ...x, state: undefined }));
          }}
          renderInput={(params) => (
            <TextField
              {...params}
              label={t('kits.field.state')}
              required
              size="small"
              error={!!errors.state}
              helperText={say(errors.state)}
              slotProps={{ htmlInput: { ...params.inputProps, 'data-testid': 'kit-state' } }}
            />
          )}
        />
        <TextField {...field('postalCode')} sx={{ flex: 1 }} />
      </Box>
      <TextField select {...field('shippingRequest')}>
        {SHIPPING_REQUESTS.map((s) => (
          <MenuItem key={s} value={s}>
            {t(`kits.shipping.${s}`)}
          </MenuItem>
        ))}
      </TextField>
      <Button
        type="submit"
        variant="contained"
        fullWidth
        disabled={!complete || isPending}
        data-testid="kit-submit"
      >
        {t('kits.submit')}
      </Button>
    </Box>
  );
}

export default KitsPage;
