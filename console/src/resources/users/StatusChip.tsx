import { Chip } from '@mui/material';
import { useT } from '../../components/useT';

const COLORS: Record<string, 'success' | 'error' | 'warning' | 'info' | 'default'> = {
  ACTIVE: 'success',
  LOCKED_OUT: 'error',
  SUSPENDED: 'error',
  PASSWORD_EXPIRED: 'warning',
  RECOVERY: 'warning',
  PROVISIONED: 'info',
  INACTIVE: 'default',
};

/** A user's status as a small coloured chip. */
export function StatusChip({ status }: { status: string }) {
  const t = useT();
  return (
    <Chip
      size="small"
      variant="outlined"
      color={COLORS[status] ?? 'default'}
      label={t(`users.statuses.${status}`)}
      data-testid="user-status"
      sx={{ fontWeight: 600, fontSize: 12, height: 22, bgcolor: 'background.paper' }}
    />
  );
}
