import { Button } from '@mui/material';
import { useState } from 'react';
import {
  DELIVERY_METHODS,
  deliversByFax,
  type LocationForm,
  type OrderingProviderForm,
  type ProviderForm,
} from '@onco/domain';
import { NpiLookupDialog, type NpiResult } from '../NpiLookupDialog';
import { useWizardT } from '../useWizardT';
import { useWizard } from '../context';
import { AddressFields, RadioF, Section, TextF } from '../fields';
import { getPath } from '../model';
import { Picker } from '../Picker';

type Row = Record<string, unknown> & { id?: string };

const pick = <T,>(row: Row, keys: string[]): T => {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (row[k] !== undefined) out[k] = row[k];
  return out as T;
};
export const pickProvider = (row: Row) =>
  pick<ProviderForm>(row, [
    'id',
    'userId',
    'firstName',
    'middleName',
    'lastName',
    'name',
    'phone',
    'email',
    'fax',
  ]);
export const pickLocation = (row: Row) =>
  pick<LocationForm>(row, ['id', 'name', 'hospitalLocationId', 'address']);
/**
 * The ordering provider block after a pick (directory or NPI registry): the picked person's fields, and the
 * order's own choice kept (the report delivery method belongs to the order, not to the person picked).
 */
export const withOrderChoices = (
  picked: ProviderForm,
  current: OrderingProviderForm | null | undefined,
): OrderingProviderForm => ({ ...picked, deliveryMethod: current?.deliveryMethod ?? null });
const personLabel = (r: Row) =>
  [r.name ?? `${r.firstName ?? ''} ${r.lastName ?? ''}`.trim(), r.userId ?? r.npi]
    .filter(Boolean)
    .join(' · ');

/** Provider fields of a block ('physician' or 'additionalPhysician'). */
export function ProviderFields({
  prefix,
  required,
  faxRequired,
}: {
  prefix: string;
  required?: boolean;
  /** the fax is needed (the report is delivered by fax) */
  faxRequired?: boolean;
}) {
  const { can } = useWizard();
  return (
    <>
      <TextF path={`${prefix}.firstName`} label="wizard.fields.firstName" required={required} />
      <TextF path={`${prefix}.lastName`} label="wizard.fields.lastName" required={required} />
      <TextF path={`${prefix}.userId`} label="wizard.fields.npi" disabled />
      <TextF
        path={`${prefix}.email`}
        label="wizard.fields.email"
        required={required}
        disabled={!can('CAN_EDIT_PHYSICIAN_EMAIL')}
      />
      <TextF path={`${prefix}.phone`} label="wizard.fields.phone" />
      <TextF path={`${prefix}.fax`} label="wizard.fields.fax" required={faxRequired} />
    </>
  );
}

/** A location block ('hospitalLocation', 'pathologistLocation', ...) with its picker (100 ms debounce). */
export function LocationBlock({
  prefix,
  title,
  required,
}: {
  prefix: string;
  title: string;
  required?: boolean;
}) {
  const { form, can, patch } = useWizard();
  const accountId = form.account?.id;
  const chosen = !!getPath(form, `${prefix}.id`);
  const editable = can('CAN_CREATE_HOSPITALLOCATION') || !chosen;
  return (
    <Section title={title}>
      <Picker<Row>
        id={`${prefix}-search`}
        label="wizard.fields.searchLocation"
        resource="hospitalLocations"
        filter={accountId ? { accountId } : {}}
        debounceMs={100}
        needsTerm={false}
        optionLabel={(r) => String(r.name ?? '')}
        onPick={(row) => patch({ [prefix]: pickLocation(row) })}
        cols={12}
      />
      <TextF
        path={`${prefix}.name`}
        label="wizard.fields.locationName"
        required={required}
        disabled={!editable}
        cols={12}
      />
      <AddressFields prefix={`${prefix}.address`} required={required} disabled={!editable} telephone />
    </Section>
  );
}

/** A registry result as the ordering provider (not a directory record: no id); its first location if none chosen. */
export function providerFromNpi(r: NpiResult): ProviderForm {
  return {
    id: null,
    userId: r.userId,
    firstName: r.firstName ?? null,
    middleName: r.middleName ?? null,
    lastName: r.lastName ?? null,
    name: r.name ?? null,
  };
}

export function ProviderStep() {
  const { form, can, patch, rules } = useWizard();
  const t = useWizardT();
  const [npiOpen, setNpiOpen] = useState(false);
  const required = !rules.permissions.includes('IS_PROVIDER_INFO_OPTIONAL');
  const npi = can('VIEW_NPI_REGISTRY');
  return (
    <>
      <Section
        title="wizard.sections.orderingProvider"
        right={
          npi && (
            <Button size="small" variant="outlined" onClick={() => setNpiOpen(true)}>
              {t('wizard.npi.open')}
            </Button>
          )
        }
      >
        <Picker<Row>
          id="physician-search"
          label="wizard.fields.searchPhysician"
          resource="physicians"
          debounceMs={400}
          optionLabel={personLabel}
          onPick={(row) => patch({ physician: withOrderChoices(pickProvider(row), form.physician) })}
          cols={12}
        />
        {npi && (
          <NpiLookupDialog
            open={npiOpen}
            onClose={() => setNpiOpen(false)}
            onPick={(r) => {
              const loc = r.locations?.[0];
              patch({
                physician: withOrderChoices(
                  { ...providerFromNpi(r), email: form.physician?.email ?? null },
                  form.physician,
                ),
                ...(loc && !form.hospitalLocation?.name
                  ? { hospitalLocation: { name: loc.name ?? null, address: loc.address ?? null } }
                  : {}),
              });
              setNpiOpen(false);
            }}
          />
        )}
        <ProviderFields
          prefix="physician"
          required={required}
          faxRequired={deliversByFax(form.physician?.deliveryMethod)}
        />
        <RadioF
          path="physician.deliveryMethod"
          label="wizard.fields.deliveryMethod"
          options={DELIVERY_METHODS}
        />
      </Section>
      <Section title="wizard.sections.account">
        <Picker<Row>
          id="account-search"
          label="wizard.fields.searchAccount"
          resource="accounts"
          debounceMs={100}
          needsTerm={false}
          optionLabel={(r) => [r.name, r.accountId].filter(Boolean).join(' · ')}
          onPick={(row) => patch({ account: pick(row, ['id', 'accountId', 'name']), hospitalLocation: null })}
          cols={6}
        />
        <TextF
          path="account.name"
          label="wizard.fields.accountName"
          required={required}
          disabled={!can('CAN_CREATE_ACCOUNT')}
          cols={6}
        />
      </Section>
      <LocationBlock prefix="hospitalLocation" title="wizard.sections.location" required={required} />
    </>
  );
}

export function PathologyStep() {
  const { form, patch } = useWizard();
  const accountId = form.account?.id;
  return (
    <>
      <Section title="wizard.sections.pathologist">
        <Picker<Row>
          id="pathologist-search"
          label="wizard.fields.searchPathologist"
          resource="pathologists"
          filter={accountId ? { accountIds: `in(${accountId})` } : {}}
          debounceMs={400}
          optionLabel={personLabel}
          onPick={(row) => patch({ pathologist: pick(row, ['id', 'name', 'npi', 'phone', 'email', 'fax']) })}
          cols={12}
        />
        <TextF path="pathologist.name" label="wizard.fields.name" />
        <TextF path="pathologist.npi" label="wizard.fields.npi" />
        <TextF path="pathologist.email" label="wizard.fields.email" />
        <TextF path="pathologist.phone" label="wizard.fields.phone" />
        <TextF path="pathologist.fax" label="wizard.fields.fax" />
      </Section>
      <LocationBlock prefix="pathologistLocation" title="wizard.sections.pathologistLocation" />
    </>
  );
}

export function AdditionalProviderStep() {
  const { patch } = useWizard();
  return (
    <>
      <Section title="wizard.sections.additionalProvider">
        <Picker<Row>
          id="additional-physician-search"
          label="wizard.fields.searchPhysician"
          resource="physicians"
          debounceMs={400}
          optionLabel={personLabel}
          onPick={(row) => patch({ additionalPhysician: pickProvider(row) })}
          cols={12}
        />
        <ProviderFields prefix="additionalPhysician" />
      </Section>
      <LocationBlock
        prefix="additionalPhysicianLocation"
        title="wizard.sections.additionalProviderLocation"
      />
    </>
  );
}
