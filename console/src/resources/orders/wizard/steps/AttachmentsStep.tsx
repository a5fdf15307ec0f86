import { Grid, IconButton, List, ListItem, ListItemText } from '@mui/material';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import { attachmentKindOptions, primaryBillingIndex } from '@onco/domain';
import { formatDateTime } from '../../../../components';
import { useWizardApi } from '../api';
import { useWizard } from '../context';
import { Section } from '../fields';
import { useWizardT } from '../useWizardT';
import { AttachmentUpload } from '../../AttachmentUpload';

export function AttachmentsStep() {
  const { form, set, ensureSaved } = useWizard();
  const api = useWizardApi();
  const t = useWizardT();
  const billings = form.billings ?? [];
  const primary = billings[primaryBillingIndex(billings)];
  const kinds = attachmentKindOptions({
    primaryBillingType: primary?.billingType,
    // the server's verdict on the saved draft's account (FINANCIAL_ASSISTANCE_ACCOUNT)
    financialAssistance: !!(form as { actions?: { financialAssistance?: boolean } }).actions
      ?.financialAssistance,
  });
  const attachments = form.attachments ?? [];

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
      <Grid size={12}>
        <AttachmentUpload
          kinds={kinds}
          accountId={form.account?.id}
          requisitionId={() => ensureSaved()}
          onUploaded={(data, file, kind) =>
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
            ])
          }
        />
      </Grid>
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
