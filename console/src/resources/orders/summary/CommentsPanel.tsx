import { useState } from 'react';
import {
  Avatar,
  Box,
  Button,
  Divider,
  IconButton,
  Paper,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import ReplyIcon from '@mui/icons-material/Reply';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import { ConfirmDialog, formatDateTime, useToast } from '../../../components';
import type { ConsoleDataProvider } from '../../../providers/dataProvider';
import { readSession } from '../../../providers/session';
import { useOrdersT } from '../list/useOrdersT';
import { COMMENTS_PATH, errorText, messagePath } from './api';

interface CommentRow {
  id: string;
  messageBody: string;
  owner?: { id?: string | null; firstName?: string | null; lastName?: string | null } | null;
  createdBy?: string | null;
  createdOn?: string | null;
  actionType?: string | null;
  isParent?: boolean;
  messageThreads?: CommentRow[];
}

const initials = (o: CommentRow['owner']) =>
  `${o?.firstName?.charAt(0) ?? ''}${o?.lastName?.charAt(0) ?? ''}`.toUpperCase() || '?';

/**
 * The comment panel of an order (spec 2 section 2.12): comments and replies, add, reply, and delete one's own
 * comment after 'Are you sure you want to delete this comment?'. Empty: 'No comment added'.
 */
export function CommentsPanel({ requisitionId }: { requisitionId: string }) {
  const t = useOrdersT();
  const toast = useToast();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const me = readSession()?.id;
  const [text, setText] = useState('');
  const [replyTo, setReplyTo] = useState<CommentRow | null>(null);
  const [replyText, setReplyText] = useState('');
  const [toDelete, setToDelete] = useState<CommentRow | null>(null);
  const [saving, setSaving] = useState(false);

  const list = useQuery({
    queryKey: ['comments', requisitionId],
    queryFn: () =>
      dataProvider
        .call<{ content: CommentRow[] }>({
          path: COMMENTS_PATH,
          query: {
            filter: { testOrderFormId: requisitionId, isParent: true },
            page: 0,
            perPage: 200,
            sort: 'createdOn',
            sortOrder: 'desc',
          },
        })
        .then((r) => r.data.content)
        .catch((e: { status?: number }) => {
          // comments open once the submitted requisition reaches the messages service: until then, none
          if (e?.status === 404) return [] as CommentRow[];
          throw e;
        }),
  });

  // the order timeline beside it lists the comments too: it learns of the change at once
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all([
      list.refetch(),
      queryClient.invalidateQueries({ queryKey: ['timeline-comments', requisitionId] }),
    ]);

  const add = async (body: string, parentId?: string) => {
    if (!body.trim()) return;
    setSaving(true);
    try {
      await dataProvider.call({
        path: COMMENTS_PATH,
        method: 'POST',
        body: {
          messageBody: body,
          testOrderForm: { id: requisitionId },
          ...(parentId ? { parent: { id: parentId } } : {}),
        },
      });
      if (parentId) {
        setReplyText('');
        setReplyTo(null);
      } else setText('');
      await refresh();
    } catch (e) {
      toast('error', errorText(e, t('orders.comments.failed')));
    } finally {
      setSaving(false);
    }
  };

  const canDelete = (c: CommentRow) => !c.actionType && (c.owner?.id ?? c.createdBy) === me;

  const renderComment = (c: CommentRow, reply = false) => (
    <Box
      key={c.id}
      sx={{ display: 'flex', gap: 1, py: 1, pl: reply ? 4 : 0 }}
      data-testid={`comment-${c.id}`}
    >
      <Avatar sx={{ width: 28, height: 28, fontSize: 12, bgcolor: reply ? 'grey.400' : 'primary.main' }}>
        {initials(c.owner)}
      </Avatar>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 1 }}>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {[c.owner?.firstName, c.owner?.lastName].filter(Boolean).join(' ')}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {formatDateTime(c.createdOn)}
          </Typography>
        </Box>
        <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
          {c.messageBody}
        </Typography>
        <Box sx={{ display: 'flex', gap: 0.5 }}>
          {!reply ? (
            <Tooltip title={t('orders.comments.reply')}>
              <IconButton size="small" aria-label={t('orders.comments.reply')} onClick={() => setReplyTo(c)}>
                <ReplyIcon fontSize="inherit" />
              </IconButton>
            </Tooltip>
          ) : null}
          {canDelete(c) ? (
            <Tooltip title={t('orders.comments.delete')}>
              <IconButton
                size="small"
                aria-label={t('orders.comments.delete')}
                onClick={() => setToDelete(c)}
                data-testid={`comment-delete-${c.id}`}
              >
                <DeleteOutlineIcon fontSize="inherit" />
              </IconButton>
            </Tooltip>
          ) : null}
        </Box>
        {replyTo?.id === c.id ? (
          <Box sx={{ display: 'flex', gap: 1, mt: 0.5 }}>
            <TextField
              size="small"
              fullWidth
              multiline
              autoFocus
              value={replyText}
              onChange={(e) => setReplyText(e.target.value)}
              placeholder={t('orders.comments.placeholder')}
            />
            <Button size="small" disabled={saving || !replyText.trim()} onClick={() => add(replyText, c.id)}>
              {t('orders.comments.reply')}
            </Button>
          </Box>
        ) : null}
      </Box>
    </Box>
  );

  const rows = list.data ?? [];
  return (
    <Paper variant="outlined" sx={{ p: 2, borderRadius: 2, height: '100%' }} data-testid="comments-panel">
      <Typography variant="h6" sx={{ fontSize: 16, fontWeight: 600, mb: 1 }}>
        {t('orders.comments.title')}
      </Typography>
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
        <TextField
          size="small"
          multiline
          minRows={2}
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={t('orders.comments.placeholder')}
          slotProps={{ htmlInput: { 'data-testid': 'comment-input', maxLength: 10000 } }}
        />
        <Button
          variant="contained"
          size="small"
          sx={{ alignSelf: 'flex-end' }}
          disabled={saving || !text.trim()}
          onClick={() => add(text)}
        >
          {t('orders.comments.add')}
        </Button>
      </Box>
      <Divider sx={{ my: 1.5 }} />
      {list.isPending ? (
        <Typography variant="body2" color="text.secondary">
          {t('lists.loading', { _: 'Loading....' })}
        </Typography>
      ) : list.error ? (
        <Typography variant="body2" color="error">
          {errorText(list.error, t('orders.comments.loadFailed'))}
        </Typography>
      ) : rows.length === 0 ? (
        <Typography variant="body2" color="text.secondary" data-testid="comments-empty">
          {t('orders.comments.empty')}
        </Typography>
      ) : (
        <Box sx={{ maxHeight: 640, overflowY: 'auto' }}>
          {rows.map((c) => (
            <Box key={c.id}>
              {renderComment(c)}
              {(c.messageThreads ?? []).map((r) => renderComment(r, true))}
            </Box>
          ))}
        </Box>
      )}
      <ConfirmDialog
        open={Boolean(toDelete)}
        message={t('orders.comments.confirmDelete')}
        onClose={() => setToDelete(null)}
        onConfirm={async () => {
          if (!toDelete) return;
          try {
            await dataProvider.call({
              path: messagePath(toDelete.id),
              method: 'PUT',
              body: { deleted: true },
            });
            await refresh();
          } catch (e) {
            toast('error', errorText(e, t('orders.comments.deleteFailed')));
          } finally {
            setToDelete(null);
          }
        }}
      />
    </Paper>
  );
}
