import { Alert, Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { manifestErrorText } from '@onco/domain';
import { useMessagesT } from '../../components';
import { useEnumLabel } from '../orders/list/useOrdersT';
import type { ManifestCheck } from './api';
import { preSx } from './dialogShared';
import { boxEn } from './i18n';
import { checkOutcome, manifestErrorsText } from './logic';

/** The dry run's answer: the counts, then the row errors or the samples the file would create and update. */
export function CheckResult({ result }: { result: ManifestCheck }) {
  const t = useMessagesT(boxEn);
  const label = useEnumLabel();
  const outcome = checkOutcome(result);
  const shown = result.samples.slice(0, 50);
  return (
    <Box data-testid="box-check-result" sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      <Typography variant="body2" sx={{ fontWeight: 600 }} data-testid="box-check-counts">
        {t('box.checkCounts', {
          rows: result.rows,
          create: result.create,
          update: result.update,
          refused: result.refused,
        })}
      </Typography>
      {outcome === 'errors' ? (
        <>
          <Alert severity="error">{t('box.checkErrors')}</Alert>
          <Box component="pre" data-testid="box-check-errors" sx={preSx}>
            {manifestErrorsText(
              manifestErrorText(result.errors, result.errorCount ?? result.errors.length),
              t,
              label,
            )}
          </Box>
        </>
      ) : outcome === 'empty' ? (
        <Alert severity="warning">{t('box.checkEmpty')}</Alert>
      ) : (
        <Alert severity="success" data-testid="box-check-ok">
          {t('box.checkOk')}
        </Alert>
      )}
      {outcome !== 'errors' && shown.length ? (
        <Box sx={{ maxHeight: 220, overflow: 'auto' }}>
          <Table size="small" stickyHeader data-testid="box-check-samples">
            <TableHead>
              <TableRow>
                <TableCell>{t('box.sample.row')}</TableCell>
                <TableCell>{t('box.sample.action')}</TableCell>
                <TableCell>{t('box.sample.trf')}</TableCell>
                <TableCell>{t('box.sample.type')}</TableCell>
                <TableCell>{t('box.sample.name')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {shown.map((s) => (
                <TableRow key={`${s.row}`}>
                  <TableCell>{s.row}</TableCell>
                  <TableCell>{t(`box.sample.${s.action}`)}</TableCell>
                  <TableCell>{s.testRequisitionId ?? s.testOrderFormId}</TableCell>
                  <TableCell>{label(s.type)}</TableCell>
                  <TableCell>{s.name}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {result.samples.length > shown.length ? (
            <Typography variant="caption" color="text.secondary">
              {t('box.checkMore', { count: result.samples.length - shown.length })}
            </Typography>
          ) : null}
        </Box>
      ) : null}
    </Box>
  );
}
