import type { ReactNode } from 'react';
import { Box, Button } from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import MailOutlineIcon from '@mui/icons-material/MailOutline';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import SaveOutlinedIcon from '@mui/icons-material/SaveOutlined';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import PrintOutlinedIcon from '@mui/icons-material/PrintOutlined';
import ReplayIcon from '@mui/icons-material/Replay';
import MergeTypeIcon from '@mui/icons-material/MergeType';
import { useNavigate } from 'react-router-dom';
import { useMessagesT } from '../../../components';
import { useOrdersT } from '../list/useOrdersT';
import { mergeEn } from '../merge/i18n';
import type { Requisition } from './requisition';

export type SummaryConfirm = 'copy' | 'delete' | 'edit';

/** What the banner offers: the server's actions, and what the user's permissions and the edit mode allow. */
export interface SummaryAllowed {
  print: boolean;
  copy: boolean;
  edit: boolean;
  save: boolean;
  subsequentOrder: boolean;
  merge: boolean;
  message: boolean;
  delete: boolean;
}

function ActionButton(props: { icon: ReactNode; onClick: () => void; testId?: string; children: ReactNode }) {
  return (
    <Button
      variant="contained"
      color="secondary"
      startIcon={props.icon}
      onClick={props.onClick}
      data-testid={props.testId}
    >
      {props.children}
    </Button>
  );
}

/** The banner's buttons: Print, Copy, Edit (or Cancel and Save), Subsequent Order, Merge TRF, Message, Delete. */
export function SummaryActions(props: {
  r: Requisition;
  allowed: SummaryAllowed;
  onPrint: () => void;
  onConfirm: (kind: SummaryConfirm) => void;
  onEdit: () => void;
  onCancelEdit: () => void;
  onSubsequent: () => void;
  onMerge: () => void;
}) {
  const { r, allowed } = props;
  const t = useOrdersT();
  const mt = useMessagesT(mergeEn);
  const navigate = useNavigate();
  const p = r.patient ?? {};
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', justifyContent: 'flex-end' }}>
      {allowed.print ? (
        <ActionButton icon={<PrintOutlinedIcon />} onClick={props.onPrint}>
          {t('orders.summary.print')}
        </ActionButton>
      ) : null}
      {allowed.copy ? (
        <ActionButton icon={<ContentCopyIcon />} onClick={() => props.onConfirm('copy')}>
          {t('orders.summary.copy')}
        </ActionButton>
      ) : null}
      {allowed.edit ? (
        <ActionButton icon={<EditOutlinedIcon />} onClick={props.onEdit}>
          {t('orders.summary.edit')}
        </ActionButton>
      ) : null}
      {allowed.save ? (
        <>
          <Button variant="outlined" color="inherit" onClick={props.onCancelEdit}>
            {t('orders.summary.cancel')}
          </Button>
          <ActionButton icon={<SaveOutlinedIcon />} onClick={() => props.onConfirm('edit')}>
            {t('orders.summary.save')}
          </ActionButton>
        </>
      ) : null}
      {allowed.subsequentOrder ? (
        <ActionButton icon={<ReplayIcon />} onClick={props.onSubsequent}>
          {t('orders.summary.subsequentOrder')}
        </ActionButton>
      ) : null}
      {allowed.merge ? (
        <ActionButton icon={<MergeTypeIcon />} onClick={props.onMerge} testId="action-merge">
          {mt('merge.action')}
        </ActionButton>
      ) : null}
      {allowed.message ? (
        <Button
          variant="outlined"
          color="inherit"
          startIcon={<MailOutlineIcon />}
          data-testid="action-message"
          // the new-message form on /messages, with this order, its patient and location filled in
          onClick={() =>
            navigate('/messages', {
              state: {
                compose: {
                  testOrderForm: { id: r.id, testRequisitionId: r.testRequisitionId ?? null },
                  patient: p.id
                    ? { id: p.id, name: [p.firstName, p.lastName].filter(Boolean).join(' ') }
                    : null,
                  hospitalLocation: r.hospitalLocation?.id
                    ? { id: r.hospitalLocation.id, name: r.hospitalLocation.name ?? null }
                    : null,
                },
              },
            })
          }
        >
          {t('orders.summary.message')}
        </Button>
      ) : null}
      {allowed.delete ? (
        <Button
          variant="contained"
          color="error"
          startIcon={<DeleteOutlineIcon />}
          onClick={() => props.onConfirm('delete')}
        >
          {t('orders.summary.delete')}
        </Button>
      ) : null}
    </Box>
  );
}
