import { Alert, Box, Button, LinearProgress, MenuItem, TextField } from '@mui/material';
import { useRef, useState } from 'react';
import { ATTACHMENT_MAX_BYTES } from '@onco/domain';
import { useWizardApi } from './wizard/api';
import { useWizardT } from './wizard/useWizardT';

/** What the server answers an upload. */
export interface UploadedAttachment {
  id: string;
  name?: string;
  type?: string;
  size?: number;
  contentType?: string;
}

/**
 * Attach a file to a requisition (spec 1 section 5): a kind from `kinds`, a file of at most 50MB, its progress,
 * and a clear error. One control for the wizard's Attachments step and the order summary's Attachments tab
 * (files added after submission); the server applies the same rules to both.
 */
export function AttachmentUpload(props: {
  kinds: readonly string[];
  accountId?: string | null;
  /** the requisition to attach to (the wizard saves its draft first); null: stop with the upload error */
  requisitionId: () => Promise<string | null>;
  onUploaded: (uploaded: UploadedAttachment, file: File, kind: string) => void;
}) {
  const api = useWizardApi();
  const t = useWizardT();
  const [kind, setKind] = useState(props.kinds[0]);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);

  const upload = async (file: File) => {
    setError(null);
    if (file.size > ATTACHMENT_MAX_BYTES) {
      setError(t('wizard.messages.fileTooLarge'));
      return;
    }
    const id = await props.requisitionId();
    if (!id) {
      setError(t('wizard.messages.uploadFailed'));
      return;
    }
    const fd = new FormData();
    fd.append('type', kind);
    if (props.accountId) fd.append('accountId', props.accountId);
    fd.append('testOrderFormId', id);
    fd.append('file', file, file.name);
    setProgress(0);
    try {
      const { data } = await api.upload(fd, setProgress);
      props.onUploaded(data, file, kind);
    } catch (e) {
      const status = (e as { status?: number }).status;
      setError(status === 413 ? t('wizard.messages.fileTooLarge') : t('wizard.messages.uploadFailed'));
    } finally {
      setProgress(null);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <Box sx={{ display: 'grid', gap: 1.5 }}>
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center' }}>
        <TextField
          select
          size="small"
          id="attachment-kind"
          sx={{ flex: '0 1 360px', minWidth: 240 }}
          label={t('wizard.fields.attachmentKind')}
          value={kind}
          onChange={(e) => setKind(e.target.value)}
        >
          {props.kinds.map((k) => (
            <MenuItem key={k} value={k} data-value={k}>
              {t(`wizard.options.${k}`)}
            </MenuItem>
          ))}
        </TextField>
        <Button variant="outlined" component="label" disabled={progress !== null}>
          {t('wizard.fields.chooseFile')}
          <input
            ref={input}
            hidden
            type="file"
            name="attachment-file"
            onChange={(e) => {
              const f = e.target.files?.[0];
              if (f) void upload(f);
            }}
          />
        </Button>
      </Box>
      {progress !== null && (
        <LinearProgress variant="determinate" value={progress} aria-label="upload progress" />
      )}
      {error && <Alert severity="error">{error}</Alert>}
    </Box>
  );
}
