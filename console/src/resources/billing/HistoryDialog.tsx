import { useState } from 'react';
import { Box, Button, Chip, Collapse, IconButton, List, ListItem, Typography } from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { useQuery } from '@tanstack/react-query';
import { DateText, FormDialog, useToast } from '../../components';
import { useEnumLabel } from '../orders/list/useOrdersT';
import { useBillingMethods } from './useBillingMethods';
import type { BillingCaseRow } from './api';
import { useBillingT } from './billingText';
import { ERROR_STATUSES, historyNewestFirst } from './logic';

/** 'Billing Case History': entries newest first, status chips red for errors else green, expandable details. */
export function HistoryDialog({ row, onClose }: { row: BillingCaseRow; onClose: () => void }) {
  const t = useBillingT();
  const label = useEnumLabel();
  const billing = useBillingMethods();
  const [open, setOpen] = useState<string | null>(null);
  const q = useQuery({
    queryKey: ['billingCase', row.id],
    queryFn: () => billing.getBillingCase({ id: row.id }).then((r) => r.data),
  });
  const entries = historyNewestFirst(q.data?.caseHistory);
  return (
    <FormDialog title={t('billing.historyTitle')} onClose={onClose} cancelLabel={t('billing.close')}>
      {q.isPending ? (
        <Typography color="text.secondary">{t('billing.loading')}</Typography>
      ) : entries.length === 0 ? (
        <Typography color="text.secondary">{t('billing.historyEmpty')}</Typography>
      ) : (
        <List dense data-testid="billing-history">
          {entries.map((h) => (
            <ListItem key={h.id} sx={{ display: 'block', borderBottom: 1, borderColor: 'divider' }}>
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
                <Chip
                  size="small"
                  label={label(h.status)}
                  sx={{
                    bgcolor: ERROR_STATUSES.includes(h.status) ? '#fdecea' : '#e8f5e9',
                    color: ERROR_STATUSES.includes(h.status) ? '#b71c1c' : '#1b5e20',
                  }}
                />
                <Typography variant="body2">
                  {t('billing.testIdTrf', { test: row.testId ?? '', trf: row.testRequisitionId ?? '' })}
                </Typography>
                <Typography variant="caption" color="text.secondary" sx={{ ml: 'auto' }}>
                  <DateText value={h.createdOn} withTime />
                </Typography>
                {h.errorDetails ? (
                  <IconButton
                    size="small"
                    onClick={() => setOpen(open === h.id ? null : h.id)}
                    aria-label="details"
                  >
                    <ExpandMoreIcon fontSize="small" />
                  </IconButton>
                ) : null}
              </Box>
              {h.changes?.length || h.by ? (
                <Typography
                  variant="caption"
                  color="text.secondary"
                  component="div"
                  sx={{ mt: 0.5 }}
                  data-testid="billing-history-change"
                >
                  {(h.changes ?? [])
                    .map((c) => `${t(`billing.col.${c.field}`)}: ${c.from ?? '—'} → ${c.to ?? '—'}`)
                    .concat(
                      h.by
                        ? [
                            t('billing.historyBy', {
                              name: h.byId === 'system' ? t('billing.historySystem') : h.by,
                            }),
                          ]
                        : [],
                    )
                    .join(' · ')}
                </Typography>
              ) : null}
              {h.reason ? (
                <Typography
                  variant="body2"
                  component="div"
                  sx={{ mt: 0.5 }}
                  data-testid="billing-history-reason"
                >
                  {t('billing.historyReason', { reason: h.reason })}
                </Typography>
              ) : null}
              <Collapse in={open === h.id}>
                <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', mt: 1 }}>
                  {h.errorDetails}
                </Typography>
              </Collapse>
            </ListItem>
          ))}
        </List>
      )}
    </FormDialog>
  );
}

/** 'Billing Case Error Details': the error text with a copy button. */
export function ErrorDetailsDialog({ row, onClose }: { row: BillingCaseRow; onClose: () => void }) {
  const t = useBillingT();
  const toast = useToast();
  const text = row.errorDetails ?? '';
  return (
    <FormDialog
      title={t('billing.errorTitle')}
      onClose={onClose}
      cancelLabel={t('billing.close')}
      extraActions={
        <Button
          onClick={async () => {
            await navigator.clipboard?.writeText(text).catch(() => undefined);
            toast('info', t('billing.copied'));
          }}
        >
          {t('billing.copy')}
        </Button>
      }
    >
      <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }} data-testid="billing-error-details">
        {text || '—'}
      </Typography>
    </FormDialog>
  );
}
