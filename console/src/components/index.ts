/** The building blocks every screen uses (documented in console/README.md, "Building blocks"). */
export { Banner, type BannerProps } from './Banner';
export { CommentsLayout, type CommentsLayoutProps } from './CommentsLayout';
export { ConfirmDialog, type ConfirmDialogProps, type ConfirmKind } from './ConfirmDialog';
export { DataTable, type Column, type DataTableProps, type SelectionMode } from './DataTable';
export { durationText, useDurationText } from './duration';
export {
  DateText,
  DelayedTooltip,
  PhoneText,
  Truncate,
  TOOLTIP_DELAY_MS,
  type TruncateProps,
} from './Display';
export { FacetFilter, type FacetFilterProps } from './FacetFilter';
export { FormDialog, useSave, type FormDialogProps, type SaveOptions } from './FormDialog';
export * from './format';
export { listMethods, sessionHttpClient, type HttpClient, type ListMethods } from './listApi';
export {
  ActionsMenu,
  enumColumn,
  NavFilterChip,
  Poller,
  RowLink,
  selectionActionDone,
  stopRowClick,
  type MenuAction,
} from './ListParts';
export { ListPage, type FacetFilterDef, type ListContext, type ListPageProps } from './ListPage';
export * from './listState';
export { PageSizeSelect } from './PageSizeSelect';
export * from './pagination';
export { Paginator } from './Paginator';
export { PdfViewerDialog, type PdfViewerDialogProps } from './PdfViewerDialog';
export { SearchBox } from './SearchBox';
export { ToastNotification, TOAST_AUTO_CLOSE_MS, useToast, type ToastKind } from './Toast';
export { useCustomMethods } from './useCustomMethods';
export { useDebounced } from './useDebounced';
export { useListPreference } from './useListPreference';
export { useMessagesT, useT } from './useT';
