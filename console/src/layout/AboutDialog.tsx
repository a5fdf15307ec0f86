import { Table, TableBody, TableCell, TableRow } from '@mui/material';
import { useTranslate } from 'react-admin';
import { BUILD } from '../buildInfo';
import { FormDialog } from '../components/FormDialog';
import { Logo } from './Logo';
import { formatDateTime } from './format';

/** About: build, version, mode and updated on, from the build itself (vite.config.ts). */
export function AboutDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const translate = useTranslate();
  const rows: Array<[string, string]> = [
    [translate('app.about.build'), BUILD.build],
    [translate('app.about.version'), BUILD.version],
    [translate('app.about.mode'), BUILD.mode],
    [translate('app.about.updatedOn'), formatDateTime(BUILD.updatedOn)],
  ];
  return (
    <FormDialog
      open={open}
      title={translate('app.about.title')}
      onClose={onClose}
      maxWidth="xs"
      closeLabel={translate('ra.action.close')}
    >
      <Logo size={30} />
      <Table size="small" sx={{ mt: 2 }} data-testid="about-table">
        <TableBody>
          {rows.map(([k, v]) => (
            <TableRow key={k}>
              <TableCell sx={{ color: 'text.secondary', width: '40%', pl: 0 }}>{k}</TableCell>
              <TableCell sx={{ fontWeight: 500 }}>{v}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </FormDialog>
  );
}
