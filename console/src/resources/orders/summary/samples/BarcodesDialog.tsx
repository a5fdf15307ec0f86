import { useState } from 'react';
import { Alert, Box, Chip, TextField, Typography } from '@mui/material';
import PrintIcon from '@mui/icons-material/Print';
import { HttpError, useGetIdentity } from 'react-admin';
import {
  BARCODE_DEFAULT_COUNT,
  BARCODE_DEFAULT_PREFIX,
  BARCODE_MAX_COUNT,
  BARCODE_PREFIX_MAX,
  BARCODE_REQUESTOR_MAX,
  normalizeBarcodePrefix,
} from '@onco/domain';
import { FormDialog, PdfViewerDialog, useSave } from '../../../../components';
import { errorText } from '../api';
import type { BarcodeRow } from './api';
import { useSampleMethods } from './useSampleMethods';
import { useSamplesT } from './useSamplesT';

/** A client error (the server's reason: an unknown code, a container that exists) is shown as the server said it. */
const clientError = (e: unknown) => e instanceof HttpError && e.status >= 400 && e.status < 500;

/**
 * Print barcodes (spec 3 sections 7.4, 8 "Barcode", 9.1): Count (default 1) and Prefix (default PS) → Generate
 * hands out new codes (GET barcodes, with the signed-in user as the requestor) → Print renders their labels (POST
 * barcodes/print) and shows the PDF, from which the browser prints. A second Print of the same codes is a reprint
 * (the server refuses it otherwise: 'Container already created for barcode …'). Toasts: 'Barcode printed
 * successfully.' / 'Error printing barcode!' (or the server's reason for a refused code).
 */
export function BarcodesDialog(props: { open: boolean; onClose: () => void }) {
  const { open, onClose } = props;
  const t = useSamplesT();
  const api = useSampleMethods();
  const { data: identity } = useGetIdentity();
  const { busy, save } = useSave();
  const [count, setCount] = useState(String(BARCODE_DEFAULT_COUNT));
  const [prefix, setPrefix] = useState(BARCODE_DEFAULT_PREFIX);
  const [requestor, setRequestor] = useState<string | null>(null);
  const [codes, setCodes] = useState<BarcodeRow[]>([]);
  const [printed, setPrinted] = useState(false);
  const [pdf, setPdf] = useState<Blob | null>(null);

  const who = (requestor ?? identity?.fullName ?? '').trim();
  const n = Number(count);
  const countOk = /^\d+$/.test(count.trim()) && n >= 1 && n <= BARCODE_MAX_COUNT;
  const prefixOk = normalizeBarcodePrefix(prefix) !== null;
  const whoOk = who.length > 0 && who.length <= BARCODE_REQUESTOR_MAX;
  const generated = codes.length > 0;

  const generate = () =>
    save(() => api.issueBarcodes({ requestor: who, count: n, prefix: normalizeBarcodePrefix(prefix)! }), {
      failure: (e) => errorText(e, t('samples.barcodes.toast.issueFailed')),
      onDone: (res) => setCodes(res.data.content),
    });
  const print = () =>
    save(() => api.printBarcodes({ barcodes: codes.map((c) => c.barcode), reprint: printed }), {
      success: t('samples.barcodes.toast.printed'),
      failure: (e) =>
        clientError(e)
          ? errorText(e, t('samples.barcodes.toast.printFailed'))
          : t('samples.barcodes.toast.printFailed'),
      onDone: (res) => {
        setPrinted(true);
        setPdf(res.data);
      },
    });

  return (
    <FormDialog
      open={open}
      title={t('samples.barcodes.title')}
      onClose={onClose}
      testId="barcodes-dialog"
      busy={busy}
      cancelLabel={t('samples.barcodes.close')}
      submitLabel={
        generated
          ? t(printed ? 'samples.barcodes.reprint' : 'samples.barcodes.print')
          : t('samples.barcodes.generate')
      }
      submitIcon={generated ? <PrintIcon /> : undefined}
      onSubmit={generated ? print : generate}
      submitDisabled={!generated && !(countOk && prefixOk && whoOk)}
      submitTestId={generated ? 'barcodes-print' : 'barcodes-generate'}
    >
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('samples.barcodes.intro')}
      </Typography>
      <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap' }}>
        <TextField
          size="small"
          type="number"
          label={t('samples.barcodes.count')}
          value={count}
          onChange={(e) => setCount(e.target.value)}
          disabled={generated}
          error={!countOk}
          helperText={
            countOk
              ? t('samples.barcodes.countHelp', { max: BARCODE_MAX_COUNT })
              : t('samples.barcodes.countInvalid', { max: BARCODE_MAX_COUNT })
          }
          slotProps={{ htmlInput: { min: 1, max: BARCODE_MAX_COUNT, 'data-testid': 'barcodes-count' } }}
          sx={{ width: 140 }}
        />
        <TextField
          size="small"
          label={t('samples.barcodes.prefix')}
          value={prefix}
          onChange={(e) => setPrefix(e.target.value.toUpperCase())}
          disabled={generated}
          error={!prefixOk}
          helperText={
            prefixOk
              ? t('samples.barcodes.prefixHelp')
              : t('samples.barcodes.prefixInvalid', { max: BARCODE_PREFIX_MAX })
          }
          slotProps={{ htmlInput: { maxLength: BARCODE_PREFIX_MAX, 'data-testid': 'barcodes-prefix' } }}
          sx={{ width: 290 }}
        />
        <TextField
          size="small"
          label={t('samples.barcodes.requestor')}
          value={requestor ?? identity?.fullName ?? ''}
          onChange={(e) => setRequestor(e.target.value)}
          disabled={generated}
          error={!whoOk}
          helperText={whoOk ? ' ' : t('samples.barcodes.requestorInvalid', { max: BARCODE_REQUESTOR_MAX })}
          slotProps={{ htmlInput: { maxLength: BARCODE_REQUESTOR_MAX, 'data-testid': 'barcodes-requestor' } }}
          sx={{ flex: 1, minWidth: 180 }}
        />
      </Box>
      {generated ? (
        <Box sx={{ mt: 1 }} data-testid="barcodes-list">
          <Typography variant="subtitle2" sx={{ mb: 1 }}>
            {t('samples.barcodes.issued', { count: codes.length })}
          </Typography>
          <Box sx={{ display: 'flex', gap: 0.75, flexWrap: 'wrap', maxHeight: 200, overflowY: 'auto' }}>
            {codes.map((c) => (
              <Chip
                key={c.barcode}
                size="small"
                variant="outlined"
                label={c.barcode}
                sx={{ fontFamily: 'monospace' }}
              />
            ))}
          </Box>
          {printed ? (
            <Alert severity="info" sx={{ mt: 1.5 }}>
              {t('samples.barcodes.printedHint')}
            </Alert>
          ) : null}
        </Box>
      ) : null}
      {pdf ? (
        <PdfViewerDialog
          open
          title={t('samples.barcodes.pdfTitle')}
          load={() => Promise.resolve(pdf)}
          onClose={() => setPdf(null)}
        />
      ) : null}
    </FormDialog>
  );
}
