import {
  Box,
  Breadcrumbs,
  LinearProgress,
  Link,
  Radio,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useEffect, useState } from 'react';
import { API, searchTermApplies } from '@onco/domain';
import { FormDialog, useDebounced, useToast } from '../../../components';
import { useWizardApi } from './api';
import { useWizardT } from './useWizardT';

export const DX_ROOT = 'TISSUE';
/** Spec 1 section 9: diagnosis search page size 30. */
export const DX_SEARCH_SIZE = 30;

export interface DxNode {
  id?: string;
  code: string;
  name: string;
  parentCode?: string | null;
  level?: number;
  tissue?: string | null;
  mainType?: string | null;
  childExists?: boolean;
  path?: string;
  octDxBreadCrumb?: string;
  children?: DxNode[];
}

/** What the requisition stores: JSON text with the code, its parent and its path ('Name (CODE) -> ...'). */
export interface StoredDx {
  code: string;
  name?: string;
  parentCode?: string | null;
  octDxBreadCrumb?: string;
}

export function parseStoredDx(raw: string | null | undefined): StoredDx | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as StoredDx;
    return v && typeof v === 'object' && typeof v.code === 'string' ? v : null;
  } catch {
    return null;
  }
}

/** Tissue-level nodes (the root's children, level 1) cannot be chosen. */
export function dxSelectable(node: DxNode, parentCode: string | null | undefined): boolean {
  if (node.code === DX_ROOT) return false;
  if (typeof node.level === 'number') return node.level >= 2;
  return parentCode !== DX_ROOT;
}

/** Done is disabled without a selection and while the selection equals the stored one. */
export function dxDoneEnabled(selected: string | null, stored: string | null | undefined): boolean {
  return !!selected && selected !== (stored ?? null);
}

const pathOf = (node: DxNode) => node.octDxBreadCrumb ?? node.path ?? '';

export function DiagnosisDialog({
  open,
  stored,
  onClose,
  onDone,
  allowFreeText = false,
  onFreeText,
}: {
  open: boolean;
  stored: string | null | undefined;
  onClose: () => void;
  onDone: (value: StoredDx) => void;
  /** CAN_ADD_DIAGNOSIS: a diagnosis not in the tree may be typed */
  allowFreeText?: boolean;
  onFreeText?: (text: string) => void;
}) {
  const t = useWizardT();
  const api = useWizardApi();
  const toast = useToast();
  const storedDx = parseStoredDx(stored);
  const [node, setNode] = useState<DxNode | null>(null);
  const [code, setCode] = useState(DX_ROOT);
  const [q, setQ] = useState('');
  const term = useDebounced(q, 400);
  const [results, setResults] = useState<DxNode[] | null>(null);
  const [selected, setSelected] = useState<DxNode | null>(null);
  const [loading, setLoading] = useState(false);
  const [freeText, setFreeText] = useState('');
  const useFree = allowFreeText && freeText.trim() !== '';

  useEffect(() => {
    if (!open) return;
    setQ('');
    setResults(null);
    setSelected(null);
    setFreeText('');
    setCode(storedDx?.parentCode ?? DX_ROOT);
  }, [open]);

  useEffect(() => {
    if (!open) return;
    let live = true;
    setLoading(true);
    api
      .get<DxNode>(`${API.dxs}/diagnosisTypes/code/${encodeURIComponent(code)}`)
      .then((n) => live && setNode(n))
      .catch(() => {
        if (!live) return;
        toast('error', t('wizard.dx.failed'));
        if (code !== DX_ROOT) setCode(DX_ROOT);
      })
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [open, code, api, toast, t]);

  useEffect(() => {
    if (!open || !searchTermApplies(term)) return setResults(null);
    let live = true;
    setLoading(true);
    api
      .list<DxNode>(`${API.dxs}/diagnosisTypes`, { q: term.trim() }, DX_SEARCH_SIZE)
      .then((p) => live && setResults(p.content ?? []))
      .catch(() => {
        if (!live) return;
        toast('error', t('wizard.dx.failed'));
        setResults([]);
      })
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [open, term, api, toast, t]);

  const rows = results ?? node?.children ?? [];
  const parentOfRows = results ? null : (node?.code ?? DX_ROOT);
  const crumbs = node && node.code !== DX_ROOT ? pathOf(node).split(' -> ') : [];

  const done = () => {
    if (useFree) return onFreeText?.(freeText.trim());
    if (!selected) return;
    const base = node && !results ? pathOf(node) : '';
    const path =
      pathOf(selected) || [base, `${selected.name} (${selected.code})`].filter(Boolean).join(' -> ');
    onDone({
      code: selected.code,
      name: selected.name,
      parentCode: selected.parentCode ?? null,
      octDxBreadCrumb: path,
    });
  };

  return (
    <FormDialog
      open={open}
      title={t('wizard.dx.title')}
      onClose={onClose}
      maxWidth="md"
      cancelLabel={t('wizard.buttons.cancel')}
      submitLabel={t('wizard.buttons.done')}
      onSubmit={done}
      submitDisabled={!useFree && !dxDoneEnabled(selected?.code ?? null, storedDx?.code)}
    >
      <TextField
        autoFocus
        fullWidth
        size="small"
        name="dx-search"
        placeholder={t('wizard.dx.search')}
        value={q}
        onChange={(e) => setQ(e.target.value)}
        sx={{ mt: 1, mb: 1 }}
      />
      {!results && (
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', mb: 1 }}>
          <Typography variant="body2" color="text.secondary">
            {t('wizard.dx.path')}:
          </Typography>
          <Breadcrumbs>
            <Link component="button" type="button" onClick={() => setCode(DX_ROOT)}>
              {DX_ROOT}
            </Link>
            {crumbs.map((c, i) => {
              const m = /\(([^()]+)\)\s*$/.exec(c);
              return (
                <Link key={i} component="button" type="button" onClick={() => m && setCode(m[1])}>
                  {c}
                </Link>
              );
            })}
          </Breadcrumbs>
        </Box>
      )}
      {loading && <LinearProgress />}
      <Box sx={{ maxHeight: 380, overflowY: 'auto' }}>
        <Table size="small" stickyHeader>
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox" />
              <TableCell>{t('wizard.dx.name')}</TableCell>
              <TableCell>{t('wizard.dx.code')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.length === 0 && !loading && (
              <TableRow>
                <TableCell colSpan={3}>{t('wizard.dx.noResults')}</TableCell>
              </TableRow>
            )}
            {rows.map((r) => {
              const selectable = dxSelectable(r, parentOfRows);
              return (
                <TableRow key={r.code} hover data-dx={r.code}>
                  <TableCell padding="checkbox">
                    {selectable && (
                      <Radio
                        size="small"
                        checked={selected?.code === r.code}
                        onChange={() => setSelected({ ...r, parentCode: r.parentCode ?? parentOfRows })}
                        inputProps={{ 'aria-label': r.name }}
                      />
                    )}
                  </TableCell>
                  <TableCell>
                    {r.childExists && !results ? (
                      <Link component="button" type="button" onClick={() => setCode(r.code)}>
                        {r.name}
                      </Link>
                    ) : (
                      <>
                        {r.name}
                        {results && (
                          <Typography variant="caption" display="block" color="text.secondary">
                            {pathOf(r)}
                          </Typography>
                        )}
                      </>
                    )}
                  </TableCell>
                  <TableCell>{r.code}</TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </Box>
      {allowFreeText && (
        <TextField
          fullWidth
          size="small"
          name="dx-free-text"
          label={t('wizard.dx.freeText')}
          value={freeText}
          onChange={(e) => setFreeText(e.target.value)}
          sx={{ mt: 2 }}
        />
      )}
    </FormDialog>
  );
}
