import {
  Alert,
  Button,
  Grid,
  IconButton,
  LinearProgress,
  List,
  ListItem,
  ListItemText,
  MenuItem,
  TextField,
} from '@mui/material';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import { useRef, useState } from 'react';
import { attachmentKindOptions, primaryBillingIndex } from '@onco/domain';
import { formatDateTime } from '../../../../components';
import { useWizardApi } from '../api';
import { useWizard } from '../context';
import { Section } from '../fields';
import { useWizardT } from '../useWizardT';

/** Spec 1 section 5: 50MB per file. */
export const MAX_ATTACHMENT_BYTES = 50 * 1024 * 1024;

export function AttachmentsStep() {
  const { form, set, ensureSaved, rules } = useWizard();
  const api = useWizardApi();
  const t = useWizardT();
  const billings = form.billings ?? [];
  const primary = billings[primaryBillingIndex(billings)];
  const kinds = attachmentKindOptions({
    accountId: form.account?.id,
    primaryBillingType: primary?.billingType,
    financialAssistanceAccountId: rules.financialAssistanceAccountId,
  });
  const [kind, setKind] = useState(kinds[0]);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const attachments = form.attachments ?? [];

  const upload = async (file: File) => {
    setError(null);
    if (file.size > MAX_ATTACHMENT_BYTES) {
      setError(t('wizard.messages.fileTooLarge'));
      return;
    }
    const id = await ensureSaved();
    if (!id) {
      setError(t('wizard.messages.uploadFailed'));
      return;
    }
    const fd = new FormData();
    fd.append('type', kind);
    if (form.account?.id) fd.append('accountId', form.account.id);
    fd.append('testOrderFormId', id);
    fd.append('file', file, file.name);
    setProgress(0);
    try {
      const { data } = await api.upload(fd, setProgress);
      set('attachments', [
        ...attachments,
        {
          id: data.id,
          name: data.name ?? file.name,
          type: (data.type ?? kind) as never,
          size: data.size ?? file.size,
          contentType: data.contentType ?? file.type,
          createdOn: new Date().toISOString(),
        },
      ]);
    } catch (e) {
      const status = (e as { status?: number }).status;
      setError(status === 413 ? t('wizard.messages.fileTooLarge') : t('wizard.messages.uploadFailed'));
    } finally {
      setProgress(null);
      if (input.current) input.current.value = '';
    }
  };

  const remove = async (id: string) => {
    try {
      await api.removeAttachment(id);
    } catch {
      /* already gone on the server: drop it from the form all the same */
    }
    set(
      'attachments',
      attachments.filter((a) => a.id !== id),
    );
  };

  return (
    <Section title="wizard.sections.attachments">
      <Grid size={{ xs: 12, md: 5 }}>
        <TextField
          select
          fullWidth
          size="small"
          id="attachment-kind"
          label={t('wizard.fields.attachmentKind')}
          value={kind}
          onChange={(e) => setKind(e.target.value)}
        >
          {kinds.map((k) => (
            <MenuItem key={k} value={k}>
              {t(`wizard.options.${k}`)}
            </MenuItem>
          ))}
        </TextField>
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
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
      </Grid>
      {progress !== null && (
        <Grid size={12}>
          <LinearProgress variant="determinate" value={progress} aria-label="upload progress" />
        </Grid>
      )}
      {error && (
        <Grid size={12}>
          <Alert severity="error">{error}</Alert>
        </Grid>
      )}
      <Grid size={12}>
        <List dense>
          {attachments.map((a) => (
            <ListItem
              key={a.id}
              secondaryAction={
                <IconButton
                  edge="end"
                  aria-label={t('wizard.buttons.remove')}
                  onClick={() => void remove(a.id)}
                >
                  <DeleteOutline />
                </IconButton>
              }
            >
              <ListItemText
                primary={a.name}
                secondary={[
                  a.type ? t(`wizard.options.${a.type}`) : null,
                  formatDateTime(a.createdOn as string),
                ]
                  .filter(Boolean)
                  .join(' · ')}
              />
            </ListItem>
          ))}
        </List>
      </Grid>
    </Section>
  );
}
