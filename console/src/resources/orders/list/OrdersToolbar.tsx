import {
  Box,
  Button,
  FormControlLabel,
  Switch,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import FileDownloadOutlinedIcon from '@mui/icons-material/FileDownloadOutlined';
import PictureAsPdfOutlinedIcon from '@mui/icons-material/PictureAsPdfOutlined';
import { useNavigate } from 'react-router-dom';
import { NavFilterChip } from '../../../components';
import { rememberActiveMenu } from '../../../layout/menu';
import type { OrdersTab } from './logic';
import { useEnumLabel, useOrdersT } from './useOrdersT';

/** The banner's buttons: the blank TRF's PDF and Start a New Order (not for every role). */
export function OrdersBannerActions({
  downloading,
  onDownload,
  canStart,
}: {
  downloading: boolean;
  onDownload: () => void;
  canStart: boolean;
}) {
  const t = useOrdersT();
  const navigate = useNavigate();
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', justifyContent: 'flex-end' }}>
      <Button
        variant="outlined"
        color="inherit"
        startIcon={<PictureAsPdfOutlinedIcon />}
        onClick={onDownload}
        disabled={downloading}
        sx={{ borderColor: 'rgba(255,255,255,0.6)' }}
      >
        {t('orders.downloadBlank')}
      </Button>
      <Button
        variant="contained"
        color="secondary"
        startIcon={<AddIcon />}
        disabled={!canStart}
        onClick={() => {
          rememberActiveMenu('orders');
          navigate('/order/new', { state: { selectedOrder: null, from: 'orders' } });
        }}
      >
        {t('orders.startNew')}
      </Button>
    </Box>
  );
}

/**
 * Above the table: Draft / Submitted, the dashboard's review status (a chip that can be removed), 'Deleted
 * included' where the Delete column shows, and the CSV download where allowed.
 */
export function OrdersToolbar(props: {
  tab: OrdersTab;
  onTab: (tab: OrdersTab) => void;
  reviewStatus: string | null;
  onClearReview: () => void;
  showDelete: boolean;
  includeDeleted: boolean;
  onIncludeDeleted: (include: boolean) => void;
  csv: boolean;
  downloadingCsv: boolean;
  onCsv: () => void;
}) {
  const { tab, reviewStatus } = props;
  const t = useOrdersT();
  const label = useEnumLabel();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
      <ToggleButtonGroup
        size="small"
        exclusive
        color="primary"
        value={tab}
        onChange={(_, v: OrdersTab | null) => {
          if (v) props.onTab(v);
        }}
        aria-label={t('orders.title')}
      >
        <ToggleButton value="DRAFT" data-testid="tab-draft" sx={{ px: 2 }}>
          {t('orders.draft')}
        </ToggleButton>
        <ToggleButton value="SUBMITTED" data-testid="tab-submitted" sx={{ px: 2 }}>
          {t('orders.submitted')}
        </ToggleButton>
      </ToggleButtonGroup>
      {reviewStatus && tab === 'SUBMITTED' ? (
        <NavFilterChip
          label={t('orders.reviewFilter', { status: label(reviewStatus) })}
          onDelete={props.onClearReview}
        />
      ) : null}
      {props.showDelete ? (
        <FormControlLabel
          control={
            <Switch
              size="small"
              checked={props.includeDeleted}
              onChange={(e) => props.onIncludeDeleted(e.target.checked)}
            />
          }
          label={<Typography variant="body2">{t('orders.deletedIncluded')}</Typography>}
        />
      ) : null}
      {props.csv ? (
        <Button
          size="small"
          variant="outlined"
          startIcon={<FileDownloadOutlinedIcon />}
          disabled={props.downloadingCsv}
          onClick={props.onCsv}
        >
          {t('orders.downloadCsv')}
        </Button>
      ) : null}
    </Box>
  );
}
