import { useMemo, useState } from 'react';
import { Box } from '@mui/material';
import { useDataProvider } from 'react-admin';
import { useLocation } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { Banner, useMessagesT } from '../../components';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { CNS, type MessageRow } from './api';
import { ContactPanel } from './ContactPanel';
import { messagesEn } from './i18n';
import { composeFromState, type ComposeContext } from './logic';
import { MessageListPanel } from './MessageListPanel';
import { useMessageList } from './useMessageList';

/**
 * Messages (/messages, spec 2 section 2.11): the thread list on the left (All/New/Read, search, sort; bold subject
 * when new), and on the right the Contact panel (the plus opens the new-message form, pre-filled when opened from an
 * order) and the selected thread with its replies. Opening an unread thread marks it read (PATCH); the server
 * decides who may read it.
 */
export function MessagesPage() {
  const t = useMessagesT(messagesEn);
  const location = useLocation();
  const dp = useDataProvider<ConsoleDataProvider>();
  const queryClient = useQueryClient();
  const l = useMessageList(location.state);
  const [selected, setSelected] = useState<string | null>(null);
  const compose0 = useMemo(() => composeFromState(location.state), [location.state]);
  const [composing, setComposing] = useState<ComposeContext | null>(compose0);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['messages'] });

  const open = async (row: MessageRow) => {
    setComposing(null);
    setSelected(row.id);
    if (!row.read) {
      await dp.call({ path: `${CNS}/${row.id}`, method: 'PATCH' }).catch(() => undefined);
      refresh();
    }
  };

  return (
    <Box sx={{ p: { xs: 1.5, md: 3 }, maxWidth: 1600, mx: 'auto' }} data-testid="messages-page">
      <Banner
        title={<span data-testid="page-title">{t('messages.title')}</span>}
        subtitle={t('messages.subtitle')}
      />
      <Box sx={{ display: 'flex', gap: 2, mt: 2, flexDirection: { xs: 'column', lg: 'row' } }}>
        <MessageListPanel l={l} selected={selected} onOpen={(r) => void open(r)} />
        <ContactPanel
          composing={composing}
          selected={selected}
          onNew={() => {
            setSelected(null);
            setComposing({});
          }}
          onCancel={() => setComposing(null)}
          onSent={(id) => {
            setComposing(null);
            setSelected(id);
            refresh();
          }}
          onReplied={refresh}
        />
      </Box>
    </Box>
  );
}

export default MessagesPage;
