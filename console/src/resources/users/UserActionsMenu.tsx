import { Divider, ListItemIcon, ListItemText, Menu, MenuItem, type MenuProps } from '@mui/material';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutline';
import BlockIcon from '@mui/icons-material/Block';
import LockOpenIcon from '@mui/icons-material/LockOpen';
import LockResetIcon from '@mui/icons-material/LockReset';
import RestartAltIcon from '@mui/icons-material/RestartAlt';
import KeyIcon from '@mui/icons-material/Key';
import CloudOutlinedIcon from '@mui/icons-material/CloudOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import type { UserAction } from '@onco/domain';
import { useT } from '../../components/useT';
import type { UserRow } from './api';
import { actionStates, salesforceUrl } from './userActions';

const ICONS: Record<UserAction, React.ReactNode> = {
  activate: <CheckCircleOutlineIcon fontSize="small" />,
  deactivate: <BlockIcon fontSize="small" />,
  unlock: <LockOpenIcon fontSize="small" />,
  resetpassword: <LockResetIcon fontSize="small" />,
  reactivate: <RestartAltIcon fontSize="small" />,
  sendTemporaryPassword: <KeyIcon fontSize="small" />,
};

export interface UserActionsMenuProps extends Pick<
  MenuProps,
  'anchorEl' | 'anchorReference' | 'anchorPosition'
> {
  open: boolean;
  onClose: () => void;
  /** the selected users (the actions need exactly one) */
  selected: UserRow[];
  onAction: (action: UserAction, user: UserRow) => void;
  onUpdate?: (user: UserRow) => void;
}

/** The user actions, enabled by the domain's status rules; used by the Actions button and the right-click menu. */
export function UserActionsMenu({
  open,
  onClose,
  selected,
  onAction,
  onUpdate,
  ...anchor
}: UserActionsMenuProps) {
  const t = useT();
  const user = selected.length === 1 ? selected[0] : null;
  const sfdc = salesforceUrl(selected);
  return (
    <Menu
      open={open}
      onClose={onClose}
      {...anchor}
      slotProps={{ paper: { sx: { minWidth: 250 } } }}
      data-testid="user-actions-menu"
    >
      {actionStates(selected).map(({ action, enabled }) => (
        <MenuItem
          key={action}
          disabled={!enabled}
          data-testid={`action-${action}`}
          onClick={() => {
            onClose();
            if (user) onAction(action, user);
          }}
        >
          <ListItemIcon>{ICONS[action]}</ListItemIcon>
          <ListItemText>{t(`users.actions.${action}`)}</ListItemText>
        </MenuItem>
      ))}
      <Divider />
      <MenuItem
        disabled={!sfdc}
        data-testid="action-salesforce"
        onClick={() => {
          onClose();
          if (sfdc) window.open(sfdc, '_blank', 'noopener');
        }}
      >
        <ListItemIcon>
          <CloudOutlinedIcon fontSize="small" />
        </ListItemIcon>
        <ListItemText>{t('users.actions.viewInSalesforce')}</ListItemText>
      </MenuItem>
      {onUpdate ? (
        <MenuItem
          disabled={!user}
          data-testid="action-update"
          onClick={() => {
            onClose();
            if (user) onUpdate(user);
          }}
        >
          <ListItemIcon>
            <EditOutlinedIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('users.actions.update')}</ListItemText>
        </MenuItem>
      ) : null}
    </Menu>
  );
}
