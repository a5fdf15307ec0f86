import { Box, Divider, IconButton, Paper, Tooltip, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { useMessagesT } from '../../components';
import { messagesEn } from './i18n';
import type { ComposeContext } from './logic';
import { NewMessageForm } from './NewMessageForm';
import { ThreadView } from './ThreadView';

/**
 * The Contact panel: the plus opens the new-message form; below it the form, the selected thread or a hint; then
 * the contact details.
 */
export function ContactPanel(props: {
  composing: ComposeContext | null;
  selected: string | null;
  onNew: () => void;
  onCancel: () => void;
  onSent: (id: string) => void;
  onReplied: () => void;
}) {
  const { composing, selected } = props;
  const t = useMessagesT(messagesEn);
  return (
    <Paper variant="outlined" sx={{ flex: 2, minWidth: 300, display: 'flex', flexDirection: 'column' }}>
      <Box sx={{ display: 'flex', alignItems: 'center', px: 2, py: 1.25 }}>
        <Typography variant="subtitle1" sx={{ fontWeight: 600, flex: 1 }}>
          {t('messages.contact')}
        </Typography>
        <Tooltip title={t('messages.newMessage')}>
          <IconButton color="primary" onClick={props.onNew} data-testid="messages-new">
            <AddIcon />
          </IconButton>
        </Tooltip>
      </Box>
      <Divider />
      <Box sx={{ p: 2, flex: 1 }} data-testid="messages-thread-panel">
        {composing ? (
          <NewMessageForm context={composing} onCancel={props.onCancel} onSent={props.onSent} />
        ) : selected ? (
          <ThreadView id={selected} onReplied={props.onReplied} />
        ) : (
          <Typography color="text.secondary" data-testid="messages-select-one">
            {t('messages.selectOne')}
          </Typography>
        )}
      </Box>
      <Divider />
      <Box sx={{ p: 2, bgcolor: 'grey.50' }} data-testid="messages-contact-info">
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {t('messages.needHelp')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('messages.hours')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('messages.replyPromise')}
        </Typography>
      </Box>
    </Paper>
  );
}
