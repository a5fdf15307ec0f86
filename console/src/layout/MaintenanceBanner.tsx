import { Alert } from '@mui/material';
import { useLocaleState, useTranslate } from 'react-admin';
import { formatDay, formatTime, timeZoneName } from './format';
import { useMaintenance } from './MaintenanceContext';

/** The banner before a window begins: the scheduled day, start and end (spec 3 sections 2.5 and 4.4). */
export function MaintenanceBanner({ square = true }: { square?: boolean }) {
  const { upcoming } = useMaintenance();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  if (!upcoming) return null;
  const tz = timeZoneName(upcoming.startTime, locale);
  return (
    <Alert
      severity="warning"
      variant="filled"
      square={square}
      data-testid="maintenance-banner"
      sx={{ borderRadius: square ? 0 : 1, py: 0.25, justifyContent: 'center', fontWeight: 500 }}
    >
      {translate('app.maintenance.banner', {
        day: formatDay(upcoming.startTime, locale),
        start: formatTime(upcoming.startTime),
        end: `${formatTime(upcoming.endTime)}${tz ? ` ${tz}` : ''}`,
      })}
    </Alert>
  );
}
