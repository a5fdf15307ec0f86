import type { ReactNode } from 'react';
import type { SxProps, Theme } from '@mui/material/styles';
import {
  Box,
  Checkbox,
  LinearProgress,
  Radio,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TableSortLabel,
  Typography,
} from '@mui/material';
import type { Identifier, RaRecord } from 'react-admin';
import { Truncate } from './Display';
import type { SortOrder } from './listState';
import { useT } from './useT';

export interface Column<T extends RaRecord = RaRecord> {
  /** the record field shown (and sorted by, unless sortField says otherwise) */
  source: string;
  label: ReactNode;
  sortable?: boolean;
  sortField?: string;
  /** custom cell content; default: the field's text, truncated at `truncate` (30) with a tooltip */
  render?: (row: T) => ReactNode;
  truncate?: number;
  width?: number | string;
  align?: 'left' | 'right' | 'center';
}

export type SelectionMode = 'none' | 'single' | 'multi';

export interface DataTableProps<T extends RaRecord = RaRecord> {
  columns: Column<T>[];
  rows: T[];
  /** first load: the table body says 'Loading....' */
  loading?: boolean;
  /** a refetch with rows shown: a thin progress bar */
  fetching?: boolean;
  emptyText: ReactNode;
  sort?: { field: string; order: SortOrder };
  onSort?: (field: string) => void;
  /** single: a radio per row; multi: checkboxes with select-all for the page */
  selection?: SelectionMode;
  selectedIds?: Identifier[];
  onSelect?: (ids: Identifier[]) => void;
  isRowDisabled?: (row: T) => boolean;
  onRowClick?: (row: T) => void;
  /** right-click: the row is selected first (when selectable), then this is called */
  onRowContextMenu?: (row: T, event: React.MouseEvent) => void;
  /** a row's own look (a sample the workflow ignores), over the table's */
  rowSx?: (row: T) => SxProps<Theme> | undefined;
  /** a row's state, as its `data-state` attribute (for styles and tests) */
  rowState?: (row: T) => string | undefined;
}

function plain(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return String((value as any).name ?? (value as any).label ?? '');
  return String(value);
}

/** The list table: sortable headers, radio or checkbox selection, disabled rows, loading and empty texts. */
export function DataTable<T extends RaRecord = RaRecord>({
  columns,
  rows,
  loading = false,
  fetching = false,
  emptyText,
  sort,
  onSort,
  selection = 'none',
  selectedIds = [],
  onSelect,
  isRowDisabled,
  onRowClick,
  onRowContextMenu,
  rowSx,
  rowState,
}: DataTableProps<T>) {
  const t = useT();
  const selectable = selection !== 'none';
  const enabledRows = rows.filter((r) => !isRowDisabled?.(r));
  const pageIds = enabledRows.map((r) => r.id);
  const allChecked = pageIds.length > 0 && pageIds.every((id) => selectedIds.includes(id));
  const someChecked = pageIds.some((id) => selectedIds.includes(id));

  const choose = (row: T) => {
    if (!selectable || isRowDisabled?.(row)) return;
    if (selection === 'single') onSelect?.([row.id]);
    else
      onSelect?.(
        selectedIds.includes(row.id) ? selectedIds.filter((id) => id !== row.id) : [...selectedIds, row.id],
      );
  };
  const colSpan = columns.length + (selectable ? 1 : 0);

  return (
    <TableContainer sx={{ position: 'relative' }}>
      {fetching && !loading ? (
        <LinearProgress sx={{ position: 'absolute', top: 0, left: 0, right: 0, height: 2, zIndex: 3 }} />
      ) : null}
      <Table
        size="small"
        stickyHeader
        aria-busy={loading || fetching}
        sx={{ '& th, & td': { px: 1.5 }, '& th:first-of-type, & td:first-of-type': { pl: 2 } }}
      >
        <TableHead>
          <TableRow>
            {selectable ? (
              <TableCell padding="checkbox" sx={{ bgcolor: 'grey.50' }}>
                {selection === 'multi' ? (
                  <Checkbox
                    size="small"
                    checked={allChecked}
                    indeterminate={someChecked && !allChecked}
                    disabled={pageIds.length === 0}
                    onChange={() =>
                      onSelect?.(
                        allChecked
                          ? selectedIds.filter((id) => !pageIds.includes(id))
                          : [...new Set([...selectedIds, ...pageIds])],
                      )
                    }
                    inputProps={{ 'aria-label': t('lists.selectAll') }}
                  />
                ) : null}
              </TableCell>
            ) : null}
            {columns.map((c) => {
              const field = c.sortField ?? c.source;
              const active = sort?.field === field;
              return (
                <TableCell
                  key={c.source}
                  align={c.align}
                  sx={{
                    width: c.width,
                    bgcolor: 'grey.50',
                    fontWeight: 600,
                    color: 'text.secondary',
                    fontSize: 12.5,
                    textTransform: 'uppercase',
                    letterSpacing: 0.4,
                    whiteSpace: 'nowrap',
                  }}
                  sortDirection={active ? (sort!.order === 'ASC' ? 'asc' : 'desc') : false}
                >
                  {c.sortable && onSort ? (
                    <TableSortLabel
                      active={active}
                      direction={active && sort!.order === 'DESC' ? 'desc' : 'asc'}
                      onClick={() => onSort(field)}
                    >
                      {c.label}
                    </TableSortLabel>
                  ) : (
                    c.label
                  )}
                </TableCell>
              );
            })}
          </TableRow>
        </TableHead>
        <TableBody>
          {loading || rows.length === 0 ? (
            <TableRow>
              <TableCell colSpan={colSpan} sx={{ py: 6, borderBottom: 0 }}>
                <Typography
                  align="center"
                  color="text.secondary"
                  data-testid={loading ? 'list-loading' : 'list-empty'}
                >
                  {loading ? t('lists.loading') : emptyText}
                </Typography>
              </TableCell>
            </TableRow>
          ) : (
            rows.map((row) => {
              const disabled = Boolean(isRowDisabled?.(row));
              const selected = selectedIds.includes(row.id);
              const own = rowSx?.(row);
              return (
                <TableRow
                  key={row.id}
                  hover={!disabled}
                  selected={selected}
                  aria-disabled={disabled || undefined}
                  data-testid={`row-${row.id}`}
                  data-state={rowState?.(row)}
                  onClick={() => {
                    if (onRowClick) onRowClick(row);
                    else choose(row);
                  }}
                  onContextMenu={
                    onRowContextMenu
                      ? (e) => {
                          e.preventDefault();
                          if (selectable && !disabled && selection === 'single') onSelect?.([row.id]);
                          else if (selectable && !disabled && !selected) onSelect?.([...selectedIds, row.id]);
                          onRowContextMenu(row, e);
                        }
                      : undefined
                  }
                  sx={[
                    {
                      cursor: selectable || onRowClick ? 'pointer' : 'default',
                      opacity: disabled ? 0.5 : 1,
                      '&:last-child td': { borderBottom: 0 },
                    },
                    ...(own === undefined ? [] : Array.isArray(own) ? own : [own]),
                  ]}
                >
                  {selectable ? (
                    <TableCell padding="checkbox" onClick={(e) => e.stopPropagation()}>
                      {selection === 'single' ? (
                        <Radio
                          size="small"
                          checked={selected}
                          disabled={disabled}
                          onChange={() => choose(row)}
                          inputProps={{ 'aria-label': t('lists.selectRow') }}
                        />
                      ) : (
                        <Checkbox
                          size="small"
                          checked={selected}
                          disabled={disabled}
                          onChange={() => choose(row)}
                          inputProps={{ 'aria-label': t('lists.selectRow') }}
                        />
                      )}
                    </TableCell>
                  ) : null}
                  {columns.map((c) => (
                    <TableCell key={c.source} align={c.align} sx={{ whiteSpace: 'nowrap', fontSize: 13.5 }}>
                      {c.render ? (
                        c.render(row)
                      ) : (
                        <Truncate text={plain((row as any)[c.source])} max={c.truncate ?? 30} />
                      )}
                    </TableCell>
                  ))}
                </TableRow>
              );
            })
          )}
        </TableBody>
      </Table>
      {rows.length === 0 && !loading ? <Box sx={{ height: 4 }} /> : null}
    </TableContainer>
  );
}
