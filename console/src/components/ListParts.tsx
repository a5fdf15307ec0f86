import { useEffect, useState, type MouseEvent, type ReactNode } from 'react';
import {
  Button,
  Chip,
  Divider,
  Link,
  ListItemText,
  Menu,
  MenuItem,
  type SxProps,
  type Theme,
} from '@mui/material';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import type { RaRecord } from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import type { Column } from './DataTable';
import type { ListContext } from './ListPage';

/** Stop a click inside a row (a link, a button) from also opening the row. */
export const stopRowClick = (e: MouseEvent) => e.stopPropagation();

/** A link inside a list row to another screen of the console: it opens its target, not the row. */
export function RowLink(props: { to: string; children: ReactNode; sx?: SxProps<Theme> }) {
  return (
    <Link component={RouterLink} to={props.to} onClick={stopRowClick} sx={props.sx}>
      {props.children}
    </Link>
  );
}

/** A sortable column showing an enum value by its label (`label`, e.g. useEnumLabel()). */
export function enumColumn<R extends RaRecord>(
  source: keyof R & string,
  title: ReactNode,
  label: (value: string) => string,
): Column<R> {
  return { source, label: title, sortable: true, render: (r) => label(String(r[source] ?? '')) };
}

export interface MenuAction {
  key: string;
  label: ReactNode;
  /** a second line under the label (e.g. why the action is disabled) */
  secondary?: ReactNode;
  disabled?: boolean;
  testId?: string;
  /** a divider above this action */
  divider?: boolean;
  /** after the menu closes */
  onClick: () => void;
}

/** A list's 'Actions' button (outlined, small, a ⋮ icon) and its menu; choosing an action closes the menu. */
export function ActionsMenu(props: { label: ReactNode; testId: string; actions: Array<MenuAction | null> }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Button
        size="small"
        variant="outlined"
        endIcon={<MoreVertIcon />}
        onClick={(e) => setAnchor(e.currentTarget)}
        data-testid={props.testId}
      >
        {props.label}
      </Button>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {props.actions.flatMap((a) =>
          a
            ? [
                a.divider ? <Divider key={`${a.key}-divider`} /> : null,
                <MenuItem
                  key={a.key}
                  disabled={a.disabled}
                  onClick={() => {
                    setAnchor(null);
                    a.onClick();
                  }}
                  data-testid={a.testId}
                >
                  <ListItemText secondary={a.secondary}>{a.label}</ListItemText>
                </MenuItem>,
              ]
            : [],
        )}
      </Menu>
    </>
  );
}

/** After an action on the selected rows succeeded: `close` its dialog, clear the selection, refresh the list. */
export const selectionActionDone =
  (ctx: Pick<ListContext, 'setSelectedIds' | 'refresh'>, close: () => void) => () => {
    close();
    ctx.setSelectedIds([]);
    ctx.refresh();
  };

/** The filter a list was opened with (e.g. from a dashboard counter), removable. */
export function NavFilterChip(props: { label: ReactNode; onDelete: () => void; testId?: string }) {
  return (
    <Chip
      size="small"
      color="primary"
      variant="outlined"
      label={props.label}
      onDelete={props.onDelete}
      data-testid={props.testId}
    />
  );
}

/** While `active`, call `refresh` every `everyMs` (rows still on their way somewhere). Renders nothing. */
export function Poller({
  active,
  refresh,
  everyMs,
}: {
  active: boolean;
  refresh: () => void;
  everyMs: number;
}) {
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(refresh, everyMs);
    return () => clearInterval(timer);
  }, [active, refresh, everyMs]);
  return null;
}
