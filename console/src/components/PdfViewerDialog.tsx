import { useEffect, useState, type ReactNode } from 'react';
import { Box, CircularProgress, IconButton, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import { FormDialog } from './FormDialog';
import { useT } from './useT';

export interface PdfViewerDialogProps {
  open: boolean;
  /** e.g. "Test Report" or "Test Requisition Form" */
  title: ReactNode;
  /** fetches the PDF when the dialog opens: a Blob, or null when there is none */
  load: () => Promise<Blob | null>;
  onClose: () => void;
}

type State =
  | { kind: 'loading' }
  | { kind: 'none' }
  | { kind: 'error'; message: string }
  | { kind: 'ready'; url: string };

/** A PDF in a dialog: 'Loading PDF ...' while it loads, 'No PDF File Available.' when there is none, or the error. */
export function PdfViewerDialog({ open, title, load, onClose }: PdfViewerDialogProps) {
  const t = useT();
  const [state, setState] = useState<State>({ kind: 'loading' });

  useEffect(() => {
    if (!open) return;
    let cancelled = false;
    let url: string | undefined;
    setState({ kind: 'loading' });
    load()
      .then((blob) => {
        if (cancelled) return;
        if (!blob || blob.size === 0) return setState({ kind: 'none' });
        url = URL.createObjectURL(blob.type ? blob : new Blob([blob], { type: 'application/pdf' }));
        setState({ kind: 'ready', url });
      })
      .catch((err: any) => {
        if (!cancelled)
          setState({ kind: 'error', message: err?.body?.message ?? err?.message ?? t('dialogs.generic') });
      });
    return () => {
      cancelled = true;
      if (url) URL.revokeObjectURL(url);
    };
    // load is called once per opening
  }, [open]);

  return (
    <FormDialog
      open={open}
      title={
        <>
          <Box sx={{ flex: 1 }}>{title}</Box>
          {state.kind === 'ready' ? (
            <IconButton
              href={state.url}
              target="_blank"
              rel="noopener"
              aria-label={t('dialogs.openInNewTab')}
            >
              <OpenInNewIcon />
            </IconButton>
          ) : null}
          <IconButton onClick={onClose} aria-label={t('dialogs.close')}>
            <CloseIcon />
          </IconButton>
        </>
      }
      titleSx={{ display: 'flex', alignItems: 'center', pr: 1 }}
      onClose={onClose}
      maxWidth="lg"
      testId="pdf-viewer"
      dividers
      contentSx={{ p: 0, height: '75vh', display: 'flex' }}
      cancelLabel={t('dialogs.close')}
    >
      {state.kind === 'ready' ? (
        <Box
          component="iframe"
          title="pdf"
          src={state.url}
          sx={{ border: 0, width: '100%', height: '100%' }}
        />
      ) : (
        <Box sx={{ m: 'auto', textAlign: 'center', color: 'text.secondary' }}>
          {state.kind === 'loading' ? <CircularProgress size={28} sx={{ mb: 1.5 }} /> : null}
          <Typography color={state.kind === 'error' ? 'error' : 'text.secondary'}>
            {state.kind === 'loading'
              ? t('dialogs.loadingPdf')
              : state.kind === 'none'
                ? t('dialogs.noPdf')
                : state.message}
          </Typography>
        </Box>
      )}
    </FormDialog>
  );
}
