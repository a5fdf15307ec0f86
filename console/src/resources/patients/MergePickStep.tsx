import {
  Alert,
  Box,
  Chip,
  CircularProgress,
  InputAdornment,
  List,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Paper,
  Radio,
  Skeleton,
  TextField,
  Typography,
} from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { useEnumLabel } from '../orders/list/useOrdersT';
import type { PatientRow } from './api';
import { displayDay, patientLabel, primaryProblem } from './logic';
import type { MergePatientsState } from './useMergePatients';
import { errorMessage, usePatientsT } from './usePatients';

/** The duplicates being merged, as chips. */
function MergeDuplicates({ duplicates }: { duplicates: PatientRow[] }) {
  const t = usePatientsT();
  return (
    <Box sx={{ mb: 2 }}>
      <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mb: 0.75 }}>
        {t('patients.merging.duplicates', { n: duplicates.length })}
      </Typography>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.75 }} data-testid="merge-duplicates">
        {duplicates.map((d) => (
          <Chip key={d.id} size="small" variant="outlined" label={patientLabel(d)} />
        ))}
      </Box>
    </Box>
  );
}

/** A search result: the radio, the name, and its details or why it cannot be the primary. */
function PrimaryOption(props: { p: PatientRow; dupIds: string[]; chosen: boolean; onChoose: () => void }) {
  const { p, chosen } = props;
  const t = usePatientsT();
  const label = useEnumLabel();
  const why = primaryProblem(p, props.dupIds);
  return (
    <ListItemButton
      selected={chosen}
      disabled={why !== null}
      onClick={props.onChoose}
      data-testid={`merge-primary-${p.id}`}
      divider
    >
      <ListItemIcon sx={{ minWidth: 36 }}>
        <Radio size="small" checked={chosen} tabIndex={-1} disableRipple />
      </ListItemIcon>
      <ListItemText
        primary={[p.firstName, p.middleName, p.lastName].filter(Boolean).join(' ') || p.name}
        secondary={
          why === 'canEdit'
            ? t('patients.merging.notEditable')
            : why === 'dul'
              ? t('patients.merging.dulNumber')
              : [
                  p.userId,
                  displayDay(p.dateOfBirth),
                  p.birthSex ? label(p.birthSex) : '',
                  p.mrn ? `${t('patients.field.mrn')} ${p.mrn}` : '',
                ]
                  .filter(Boolean)
                  .join(' · ')
        }
        slotProps={{ primary: { sx: { fontWeight: chosen ? 600 : 500 } } }}
      />
    </ListItemButton>
  );
}

/** Step 1: the duplicates, then search and pick the primary. */
export function MergePickStep({ duplicates, m }: { duplicates: PatientRow[]; m: MergePatientsState }) {
  const { search, primary } = m;
  const t = usePatientsT();
  return (
    <>
      <MergeDuplicates duplicates={duplicates} />
      <Typography variant="body2" sx={{ mb: 1.5 }}>
        {t('patients.merging.pickPrimary')}
      </Typography>
      <TextField
        size="small"
        fullWidth
        autoFocus
        label={t('patients.merging.search')}
        helperText={t('patients.merging.searchHint')}
        value={m.text}
        onChange={(e) => m.setText(e.target.value)}
        slotProps={{
          htmlInput: { 'data-testid': 'merge-primary-search' },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchIcon fontSize="small" />
              </InputAdornment>
            ),
            endAdornment: search.isFetching ? (
              <InputAdornment position="end">
                <CircularProgress size={16} />
              </InputAdornment>
            ) : null,
          },
        }}
      />
      <Paper variant="outlined" sx={{ mt: 1.5, maxHeight: 320, overflow: 'auto', borderRadius: 1.5 }}>
        {search.error ? (
          <Alert severity="error" sx={{ m: 1 }}>
            {errorMessage(search.error, t('patients.merging.searchFailed'))}
          </Alert>
        ) : !search.data ? (
          <Box sx={{ p: 1.5 }}>
            <Skeleton height={36} />
            <Skeleton height={36} />
          </Box>
        ) : search.data.length === 0 ? (
          <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
            {t('patients.merging.noResults')}
          </Typography>
        ) : (
          <List dense disablePadding data-testid="merge-primary-results">
            {search.data.map((p) => (
              <PrimaryOption
                key={p.id}
                p={p}
                dupIds={m.dupIds}
                chosen={primary?.id === p.id}
                onChoose={() => m.setPrimary(p)}
              />
            ))}
          </List>
        )}
      </Paper>
      {primary ? (
        <Typography variant="body2" sx={{ mt: 1.5 }} data-testid="merge-primary-chosen">
          {t('patients.merging.primary')}: <strong>{patientLabel(primary)}</strong>
        </Typography>
      ) : null}
    </>
  );
}
