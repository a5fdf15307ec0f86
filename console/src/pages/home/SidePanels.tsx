import { Box, Button, ButtonBase, Paper, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import PictureAsPdfOutlinedIcon from '@mui/icons-material/PictureAsPdfOutlined';
import MailOutlineIcon from '@mui/icons-material/MailOutline';
import { useDataProvider } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { useToast } from '../../components';
import type { ConsoleDataProvider } from '../../providers/dataProvider';
import { readSession } from '../../providers/session';
import { rememberActiveMenu } from '../../layout/menu';
import { messagesTarget } from './logic';
import { grid, Panel, ScoreBox } from './Panel';
import type { GoTo } from './useDashboard';
import { useHomeT } from './useHomeT';

/** The Test Requisition Form blurb: Add a new TRF (not for observers) and the blank form's PDF. */
export function TrfPanel({ canCreate }: { canCreate: boolean }) {
  const t = useHomeT();
  const navigate = useNavigate();
  const toast = useToast();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const session = readSession();
  return (
    <Paper
      variant="outlined"
      sx={{
        p: 2.5,
        borderRadius: 2,
        background: 'linear-gradient(135deg, #ffffff 0%, #eef7f1 100%)',
      }}
      data-testid="panel-trf"
    >
      <Typography variant="h6" sx={{ fontSize: 16, fontWeight: 600, mb: 1 }}>
        {t('home.trfTitle')}
      </Typography>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {t('home.trfText')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2, fontStyle: 'italic' }}>
        {t('home.trfNy')}
      </Typography>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          disabled={!canCreate || session?.role === 'ROLE_OBSERVER'}
          onClick={() => {
            rememberActiveMenu('orders');
            navigate('/order/new', { state: { selectedOrder: null, from: 'home' } });
          }}
        >
          {t('home.trfAdd')}
        </Button>
        <Button
          variant="text"
          startIcon={<PictureAsPdfOutlinedIcon />}
          onClick={() =>
            dataProvider
              .download({ path: 'testOrderForms/downloadBlankForm', fileName: 'TRF Document.pdf' })
              .catch((e: Error) => toast('error', e.message))
          }
        >
          {t('home.trfDownload')}
        </Button>
      </Box>
    </Paper>
  );
}

/** TRF Review: the draft requisitions, opening the orders list. */
export function TrfReviewPanel({ drafts }: { drafts: number | undefined }) {
  const t = useHomeT();
  const navigate = useNavigate();
  return (
    <Panel title={t('home.trfReview')} testId="panel-trf-review">
      <Box sx={grid(120)}>
        <ScoreBox
          testId="trf-drafts"
          label={t('home.drafts')}
          count={drafts}
          onClick={() => {
            rememberActiveMenu('orders');
            navigate('/orders', { state: { from: 'home' } });
          }}
        />
      </Box>
    </Panel>
  );
}

/** Communications: the unread messages, opening the New messages when allowed. */
export function CommunicationsPanel(props: { unread: number; canOpen: boolean; go: GoTo }) {
  const { unread, canOpen, go } = props;
  const t = useHomeT();
  return (
    <Panel title={t('home.communications')} testId="panel-communications">
      <ButtonBase
        onClick={() => go(messagesTarget())}
        disabled={!canOpen}
        data-testid="unread-messages"
        sx={{
          width: '100%',
          justifyContent: 'flex-start',
          gap: 2,
          p: 1.5,
          borderRadius: 1.5,
          border: 1,
          borderColor: 'divider',
          '&:hover': { boxShadow: 2 },
        }}
      >
        <MailOutlineIcon color={unread ? 'primary' : 'disabled'} />
        <Box sx={{ textAlign: 'left' }}>
          <Typography sx={{ fontSize: 24, fontWeight: 700, lineHeight: 1.1 }}>{unread}</Typography>
          <Typography variant="body2" color="text.secondary">
            {t('home.unreadMessages')}
          </Typography>
        </Box>
      </ButtonBase>
    </Panel>
  );
}
