import { useCallback, useState } from 'react';
import { Box, Button, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/PersonAddAlt1Outlined';
import BadgeIcon from '@mui/icons-material/BadgeOutlined';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import { usePermissions } from 'react-admin';
import { creatableRoles, type Role, type UserAction } from '@onco/domain';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import type { Column } from '../../components/DataTable';
import { DateText, Truncate } from '../../components/Display';
import { ListPage, type FacetFilterDef, type ListContext } from '../../components/ListPage';
import { useToast } from '../../components/Toast';
import { useT } from '../../components/useT';
import { readSession } from '../../providers/session';
import { AddUserDialog } from './AddUserDialog';
import type { UserRow } from './api';
import { DirectoryUserDialog } from './DirectoryUserDialog';
import { StatusChip } from './StatusChip';
import { UpdateUserDialog } from './UpdateUserDialog';
import { COMPANY_NAME } from './userActions';
import { UserActionsMenu } from './UserActionsMenu';
import { serverError, useUserMethods } from './useUserMethods';

/** Page sizes of the administration list (spec 3 section 9.1); default 15. */
const PAGE_SIZES = [15, 20, 30, 40, 50] as const;

/**
 * The Users screen (/users, banner Users; spec 3 sections 2.7, 4.1, 5, 7.1, 8): filters from the server's
 * facets, search, page sizes, sortable columns, one selected row, a right-click menu, the user actions (each
 * confirmed, then a toast and a refresh), the add-user, add-directory-user and update-user forms.
 */
export function UsersPage() {
  const t = useT();
  const toast = useToast();
  const methods = useUserMethods();
  const { permissions } = usePermissions<string[]>();
  const session = readSession();
  const creatorRole = (session?.role ?? 'ROLE_NPI') as Role;
  const canAdd = (permissions ?? []).includes('CAN_ADD_USERS') && creatableRoles(creatorRole).length > 0;
  const canAddDirectory = canAdd && creatableRoles(creatorRole).includes('ROLE_PORTAL_ADMIN');

  const [menu, setMenu] = useState<{
    anchor?: HTMLElement;
    position?: { top: number; left: number };
    rows: UserRow[];
  } | null>(null);
  const [pending, setPending] = useState<{ action: UserAction; user: UserRow; refresh: () => void } | null>(
    null,
  );
  const [running, setRunning] = useState(false);
  const [adding, setAdding] = useState(false);
  const [addingDirectory, setAddingDirectory] = useState(false);
  const [updating, setUpdating] = useState<UserRow | null>(null);

  const fullName = (u: UserRow) => `${u.firstName} ${u.lastName}`.trim();
  /** a role's label in the current language, else the server's label */
  const roleLabel = (role: string, fallback?: string) => {
    const key = `users.roles.${role}`;
    const text = t(key);
    return text === key ? (fallback ?? role) : text;
  };

  const run = useCallback(async () => {
    if (!pending) return;
    const { action, user, refresh } = pending;
    const name = fullName(user);
    setRunning(true);
    try {
      await methods.userAction({ id: user.id, action });
      toast('success', t(`users.done.${action}`, { name }));
      setPending(null);
      refresh();
    } catch (err) {
      const reason = serverError(err).message;
      toast('error', [t(`users.failed.${action}`, { name }), reason].filter(Boolean).join(' '));
      setPending(null);
      refresh();
    } finally {
      setRunning(false);
    }
  }, [pending, methods, toast, t]);

  const twoLines = (main: React.ReactNode, sub: string | null | undefined, max: number) => (
    <Box sx={{ lineHeight: 1.3 }}>
      <Box component="span" sx={{ display: 'block' }}>
        {main}
      </Box>
      <Typography component="span" variant="caption" color="text.secondary" sx={{ display: 'block' }}>
        {sub ? <Truncate text={sub} max={max} /> : '\u00a0'}
      </Typography>
    </Box>
  );

  const columns: Column<UserRow>[] = [
    {
      source: 'lastName',
      label: t('users.columns.name'),
      sortable: true,
      render: (u) =>
        twoLines(
          <Typography component="span" variant="body2" sx={{ fontWeight: 600 }}>
            <Truncate text={fullName(u)} max={32} />
          </Typography>,
          u.email,
          32,
        ),
    },
    { source: 'loginId', label: t('users.columns.loginId'), sortable: true, truncate: 24 },
    {
      source: 'role',
      label: t('users.columns.role'),
      sortable: true,
      render: (u) => roleLabel(u.role.name, u.role.label),
    },
    {
      source: 'status',
      label: t('users.columns.status'),
      sortable: true,
      render: (u) => <StatusChip status={u.status} />,
    },
    {
      source: 'account',
      label: t('users.columns.accountLocation'),
      sortable: true,
      render: (u) => twoLines(<Truncate text={u.account?.name ?? '—'} max={30} />, u.location?.name, 30),
    },
    {
      source: 'authenticationProvider',
      label: t('users.columns.authenticationProvider'),
      sortable: true,
      render: (u) => t(`users.providers.${u.authenticationProvider}`),
    },
    {
      source: 'lastLogin',
      label: t('users.columns.lastLogin'),
      sortable: true,
      render: (u) => <DateText value={u.lastLogin} withTime />,
    },
    {
      source: 'updatedOn',
      label: t('users.columns.updatedOn'),
      sortable: true,
      render: (u) => <DateText value={u.updatedOn} />,
    },
  ];

  const facets: FacetFilterDef[] = [
    { name: 'account_facet', field: 'account', label: t('users.facets.account') },
    { name: 'location_facet', field: 'location', label: t('users.facets.location') },
    {
      name: 'status_facet',
      field: 'status',
      label: t('users.facets.status'),
      itemLabel: (i) => t(`users.statuses.${String(i.value)}`),
    },
    {
      name: 'role_label_facet',
      field: 'role',
      label: t('users.facets.role'),
      itemLabel: (i) => roleLabel(String(i.value), i.label),
    },
  ];

  const actions = (ctx: ListContext<UserRow>) => (
    <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
      <Button
        variant="outlined"
        size="small"
        endIcon={<ArrowDropDownIcon />}
        onClick={(e) => setMenu({ anchor: e.currentTarget, rows: ctx.selected })}
        title={ctx.selected.length === 1 ? undefined : t('users.actions.selectOne')}
        data-testid="users-actions"
        sx={{ bgcolor: 'background.paper' }}
      >
        {t('users.actions.menu')}
      </Button>
      {canAddDirectory ? (
        <Button
          variant="outlined"
          size="small"
          startIcon={<BadgeIcon />}
          onClick={() => setAddingDirectory(true)}
          sx={{ bgcolor: 'background.paper' }}
        >
          {t('users.actions.addDirectoryUser', { company: COMPANY_NAME })}
        </Button>
      ) : null}
      {canAdd ? (
        <Button
          variant="contained"
          size="small"
          startIcon={<AddIcon />}
          onClick={() => setAdding(true)}
          data-testid="add-user"
        >
          {t('users.actions.addUser')}
        </Button>
      ) : null}
    </Box>
  );

  return (
    <ListPage<UserRow>
      resource="users"
      title={t('users.title')}
      subtitle={t('users.subtitle')}
      columns={columns}
      facets={facets}
      perPageOptions={PAGE_SIZES}
      defaultPerPage={15}
      defaultSort={{ field: 'updatedOn', order: 'DESC' }}
      selection="single"
      emptyText={t('users.empty')}
      actions={actions}
      onRowContextMenu={(row, event) =>
        setMenu({ position: { top: event.clientY, left: event.clientX }, rows: [row] })
      }
    >
      {(ctx) => (
        <>
          <UserActionsMenu
            open={Boolean(menu)}
            onClose={() => setMenu(null)}
            anchorEl={menu?.anchor}
            anchorReference={menu?.position ? 'anchorPosition' : 'anchorEl'}
            anchorPosition={menu?.position}
            selected={menu?.rows ?? []}
            onAction={(action, user) => setPending({ action, user, refresh: ctx.refresh })}
            onUpdate={(user) => setUpdating(user)}
          />
          <ConfirmDialog
            open={Boolean(pending)}
            message={pending ? t(`users.confirm.${pending.action}`, { name: fullName(pending.user) }) : ''}
            onConfirm={run}
            onClose={() => setPending(null)}
            loading={running}
          />
          {canAdd ? (
            <AddUserDialog
              open={adding}
              creatorRole={creatorRole}
              onClose={() => setAdding(false)}
              onAdded={ctx.refresh}
            />
          ) : null}
          {canAddDirectory ? (
            <DirectoryUserDialog
              open={addingDirectory}
              onClose={() => setAddingDirectory(false)}
              onAdded={ctx.refresh}
            />
          ) : null}
          <UpdateUserDialog user={updating} onClose={() => setUpdating(null)} onUpdated={ctx.refresh} />
        </>
      )}
    </ListPage>
  );
}
