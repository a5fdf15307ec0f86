import {
  Autocomplete,
  Box,
  Button,
  Checkbox,
  FormControl,
  FormControlLabel,
  FormHelperText,
  FormLabel,
  Grid,
  MenuItem,
  Radio,
  RadioGroup,
  TextField,
  Typography,
} from '@mui/material';
import type { ReactNode } from 'react';
import { clinicalFieldLocked } from '@onco/domain';
import { useWizard } from './context';
import { getPath } from './model';
import { useWizardT } from './useWizardT';

interface BaseProps {
  path: string;
  /** a `wizard.fields.*` key or literal text */
  label: string;
  required?: boolean;
  disabled?: boolean;
  helperText?: ReactNode;
  /** grid columns out of 12 (default 4) */
  cols?: number;
}

function useLabel() {
  const t = useWizardT();
  return (label: string) => (label.startsWith('wizard.') ? t(label) : label);
}

const idOf = (path: string) => `f-${path.replace(/\./g, '-')}`;

/**
 * A clinical field the user may not set (CAN_ADD_*, CAN_REVIEW_DIAGNOSIS; the server refuses a change of it):
 * its input is disabled, by the same table the server applies (clinicalFieldAt, services/domain).
 */
export function useLocked(path: string): boolean {
  const { rules } = useWizard();
  return clinicalFieldLocked(path, rules.permissions);
}

export function TextF({
  path,
  label,
  required,
  disabled,
  helperText,
  cols = 4,
  type,
  transform,
  multiline,
}: BaseProps & { type?: string; transform?: (v: string) => unknown; multiline?: boolean }) {
  const { form, set, errorFor } = useWizard();
  const l = useLabel();
  const locked = useLocked(path);
  const v = getPath(form, path);
  const error = errorFor(path);
  return (
    <Grid size={{ xs: 12, sm: 6, md: cols }}>
      <TextField
        id={idOf(path)}
        name={path}
        fullWidth
        size="small"
        type={type}
        multiline={multiline}
        label={l(label)}
        required={required}
        disabled={disabled || locked}
        value={v === null || v === undefined ? '' : String(v)}
        onChange={(e) => set(path, transform ? transform(e.target.value) : e.target.value)}
        error={!!error}
        helperText={error ?? helperText}
        slotProps={type === 'date' ? { inputLabel: { shrink: true } } : undefined}
      />
    </Grid>
  );
}

export function DateF(props: BaseProps & { min?: string; max?: string }) {
  const { form, set, errorFor } = useWizard();
  const l = useLabel();
  const locked = useLocked(props.path);
  const v = getPath(form, props.path);
  const error = errorFor(props.path);
  return (
    <Grid size={{ xs: 12, sm: 6, md: props.cols ?? 4 }}>
      <TextField
        id={idOf(props.path)}
        name={props.path}
        fullWidth
        size="small"
        type="date"
        label={l(props.label)}
        required={props.required}
        disabled={props.disabled || locked}
        value={typeof v === 'string' ? v : ''}
        onChange={(e) => set(props.path, e.target.value || null)}
        error={!!error}
        helperText={error ?? props.helperText}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: props.min, max: props.max } }}
      />
    </Grid>
  );
}

export function SelectF({
  path,
  label,
  required,
  disabled,
  helperText,
  cols = 4,
  options,
  allowEmpty = true,
  onChangeExtra,
}: BaseProps & {
  options: readonly string[];
  allowEmpty?: boolean;
  onChangeExtra?: (v: string | null) => void;
}) {
  const { form, set, errorFor } = useWizard();
  const t = useWizardT();
  const l = useLabel();
  const locked = useLocked(path);
  const v = getPath(form, path);
  const error = errorFor(path);
  return (
    <Grid size={{ xs: 12, sm: 6, md: cols }}>
      <TextField
        id={idOf(path)}
        name={path}
        select
        fullWidth
        size="small"
        label={l(label)}
        required={required}
        disabled={disabled || locked}
        value={typeof v === 'string' ? v : ''}
        onChange={(e) => {
          const next = e.target.value === '' ? null : e.target.value;
          set(path, next);
          onChangeExtra?.(next);
        }}
        error={!!error}
        helperText={error ?? helperText}
      >
        {allowEmpty && (
          <MenuItem value="">
            <em>—</em>
          </MenuItem>
        )}
        {options.map((o) => (
          <MenuItem key={o} value={o} data-value={o}>
            {t(`wizard.options.${o}`)}
          </MenuItem>
        ))}
      </TextField>
    </Grid>
  );
}

export function RadioF({
  path,
  label,
  required,
  disabled,
  options,
  cols = 12,
}: BaseProps & { options: readonly string[] }) {
  const { form, set, errorFor } = useWizard();
  const t = useWizardT();
  const l = useLabel();
  const v = getPath(form, path);
  const error = errorFor(path);
  return (
    <Grid size={{ xs: 12, md: cols }}>
      <FormControl error={!!error} required={required} disabled={disabled}>
        <FormLabel id={`${idOf(path)}-label`}>{l(label)}</FormLabel>
        <RadioGroup
          row
          name={path}
          aria-labelledby={`${idOf(path)}-label`}
          value={typeof v === 'string' ? v : ''}
          onChange={(e) => set(path, e.target.value)}
        >
          {options.map((o) => (
            <FormControlLabel
              key={o}
              value={o}
              control={<Radio size="small" />}
              label={t(`wizard.options.${o}`)}
            />
          ))}
        </RadioGroup>
        {error && <FormHelperText>{error}</FormHelperText>}
      </FormControl>
    </Grid>
  );
}

export function CheckF({ path, label, disabled, cols = 12 }: BaseProps) {
  const { form, set } = useWizard();
  const l = useLabel();
  const locked = useLocked(path);
  const v = getPath(form, path);
  return (
    <Grid size={{ xs: 12, md: cols }}>
      <FormControlLabel
        control={
          <Checkbox
            name={path}
            checked={v === true}
            disabled={disabled || locked}
            onChange={(e) => set(path, e.target.checked)}
          />
        }
        label={l(label)}
      />
    </Grid>
  );
}

/**
 * A list of short texts (therapies): each entry a chip, added with Enter or when the field loses focus; an empty
 * list is saved as none.
 */
export function ListF({ path, label, disabled, helperText, cols = 6 }: BaseProps) {
  const { form, set, errorFor } = useWizard();
  const t = useWizardT();
  const l = useLabel();
  const locked = useLocked(path);
  const v = getPath(form, path);
  const values = Array.isArray(v) ? v.map(String) : [];
  const error = errorFor(path);
  return (
    <Grid size={{ xs: 12, md: cols }}>
      <Autocomplete
        multiple
        freeSolo
        autoSelect
        options={[] as string[]}
        value={values}
        disabled={disabled || locked}
        onChange={(_, next) => {
          const list = [...new Set(next.map((x) => String(x).trim()).filter(Boolean))];
          set(path, list.length ? list : null);
        }}
        renderInput={(params) => (
          <TextField
            {...params}
            id={idOf(path)}
            name={path}
            size="small"
            label={l(label)}
            error={!!error}
            helperText={error ?? helperText ?? t('wizard.fields.listHelp')}
          />
        )}
      />
    </Grid>
  );
}

export function Section({
  title,
  children,
  right,
}: {
  title: string;
  children: ReactNode;
  right?: ReactNode;
}) {
  const l = useLabel();
  return (
    <Box component="section" sx={{ mb: 3 }} data-section={title}>
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          mb: 1.5,
          borderBottom: 1,
          borderColor: 'divider',
          pb: 0.5,
        }}
      >
        <Typography variant="h6" component="h2" sx={{ flex: 1, fontSize: '1.05rem', fontWeight: 600 }}>
          {l(title)}
        </Typography>
        {right}
      </Box>
      <Grid container spacing={2}>
        {children}
      </Grid>
    </Box>
  );
}

/** Address fields of a block ('patient.address', 'hospitalLocation.address'). */
export function AddressFields({
  prefix,
  required,
  disabled,
  telephone,
}: {
  prefix: string;
  required?: boolean;
  disabled?: boolean;
  telephone?: boolean;
}) {
  return (
    <>
      {(
        [
          ['street', 6],
          ['city', 3],
          ['state', 3],
          ['postalCode', 3],
        ] as const
      ).map(([field, cols]) => (
        <TextF
          key={field}
          path={`${prefix}.${field}`}
          label={`wizard.fields.${field}`}
          required={required}
          disabled={disabled}
          cols={cols}
        />
      ))}
      {telephone && (
        <>
          <TextF path={`${prefix}.telephone`} label="wizard.fields.telephone" disabled={disabled} cols={3} />
          <TextF path={`${prefix}.fax`} label="wizard.fields.fax" disabled={disabled} cols={3} />
        </>
      )}
    </>
  );
}

/** A read-only field filled by a modal (ICD-10 codes, primary diagnosis): click or the button opens it. */
export function PickerField({
  path,
  label,
  required,
  display,
  onOpen,
  cols = 6,
}: BaseProps & { display: string; onOpen: () => void }) {
  const { errorFor } = useWizard();
  const t = useWizardT();
  const l = useLabel();
  const error = errorFor(path);
  return (
    <Grid size={{ xs: 12, md: cols }}>
      <TextField
        id={idOf(path)}
        name={path}
        fullWidth
        size="small"
        label={l(label)}
        required={required}
        value={display}
        onClick={onOpen}
        error={!!error}
        helperText={error}
        slotProps={{
          input: {
            readOnly: true,
            endAdornment: (
              <Button size="small" onClick={onOpen} data-open={path}>
                {t('wizard.buttons.choose')}
              </Button>
            ),
          },
        }}
      />
    </Grid>
  );
}
