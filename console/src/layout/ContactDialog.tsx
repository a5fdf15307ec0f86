import { Box, Link, Stack, Typography } from '@mui/material';
import MailOutlineIcon from '@mui/icons-material/MailOutline';
import PhoneOutlinedIcon from '@mui/icons-material/PhoneOutlined';
import PlaceOutlinedIcon from '@mui/icons-material/PlaceOutlined';
import ScheduleIcon from '@mui/icons-material/Schedule';
import { useTranslate } from 'react-admin';
import { CLIENT_SERVICES } from '../buildInfo';
import { FormDialog } from '../components/FormDialog';

/** The help icon's Contact dialog: client-services details and hours (spec 3 section 2.2). */
export function ContactDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const translate = useTranslate();
  const row = (icon: React.ReactNode, label: string, value: React.ReactNode) => (
    <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start' }}>
      <Box sx={{ color: 'primary.main', mt: 0.25 }}>{icon}</Box>
      <Box>
        <Typography variant="caption" color="text.secondary">
          {label}
        </Typography>
        <Typography variant="body2">{value}</Typography>
      </Box>
    </Box>
  );
  return (
    <FormDialog
      open={open}
      title={translate('app.contact.title')}
      onClose={onClose}
      maxWidth="xs"
      dialogProps={{ 'aria-labelledby': 'contact-title' }}
      closeLabel={translate('app.contact.close')}
    >
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate('app.contact.text')}
      </Typography>
      <Stack spacing={1.5}>
        {row(
          <MailOutlineIcon fontSize="small" />,
          translate('app.contact.email'),
          <Link href={`mailto:${CLIENT_SERVICES.email}`}>{CLIENT_SERVICES.email}</Link>,
        )}
        {row(<PhoneOutlinedIcon fontSize="small" />, translate('app.contact.phone'), CLIENT_SERVICES.phone)}
        {row(
          <PlaceOutlinedIcon fontSize="small" />,
          translate('app.contact.address'),
          CLIENT_SERVICES.address,
        )}
        {row(
          <ScheduleIcon fontSize="small" />,
          translate('app.contact.hoursLabel'),
          translate('app.contact.hours'),
        )}
      </Stack>
    </FormDialog>
  );
}
