import { readManifestErrorLine, readManifestMessage, SAMPLE_STATUSES, SPECIMEN_TYPES } from '@onco/domain';
import { createdOnBetween, type DayRange } from '../../components/dayRange';
import { sampleRuleText } from '../orders/summary/samples/logic';
/** Pure rules of the Attachment Box screen (spec 3 sections 2.8 and 4.2). */

export type BoxRange = DayRange;

/** The Created range as the list's filter (`between(start, end)` on createdOn, epoch milliseconds). */
export function boxBaseFilter(range: BoxRange): Record<string, unknown> {
  return createdOnBetween(range);
}

/** Delete only while UPLOADED (spec 3 section 4.2); the red Error link only for ERROR. */
export const canDelete = (status: string | null | undefined) => status === 'UPLOADED';
export const hasErrors = (status: string | null | undefined) => status === 'ERROR';

/** Which empty text: nothing at all vs nothing for the filters (decision, docs/decisions.md "Attachment Box"). */
export const boxEmptyKey = (filtered: boolean) => (filtered ? 'box.emptyFiltered' : 'box.emptyAll');

/** How often the list refreshes itself while a manifest is being processed. */
export const BOX_POLL_MS = 3_000;

/** While a row is still UPLOADED (a manifest being processed), the list refreshes itself. */
export const needsPolling = (rows: readonly { status?: string | null; type?: string | null }[]) =>
  rows.some((r) => r.status === 'UPLOADED' && r.type === 'SAMPLE_MANIFEST');

/** An account uploads may go to (GET /portal/api/v1/accounts). */
export interface BoxAccount {
  id: string;
  name: string | null;
}

/**
 * The upload's account (spec 3 section 7.2, "first result's id"): the first account found under the configured
 * name; without one (no setting, or that account is not the user's), the user's first account; else none.
 */
export const pickBoxAccount = (configured: readonly BoxAccount[], first: readonly BoxAccount[]) =>
  configured[0] ?? first[0] ?? null;

/**
 * The file name a download is saved under: the Content-Disposition's `filename*` (UTF-8, percent-encoded), else
 * its `filename`, else the fallback. Path separators are dropped.
 */
export function fileNameOf(disposition: string | null | undefined, fallback: string): string {
  const clean = (s: string) => s.replace(/[/\\]/g, '_').trim();
  if (disposition) {
    const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
    if (star) {
      try {
        const v = clean(decodeURIComponent(star[1].trim().replace(/^"|"$/g, '')));
        if (v) return v;
      } catch {
        /* a malformed encoding: try the plain filename */
      }
    }
    const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/.exec(disposition);
    const v = clean(plain?.[1] ?? plain?.[2] ?? '');
    if (v) return v;
  }
  return fallback;
}

const isManifest = (type: string | null | undefined) => type === 'SAMPLE_MANIFEST';

/** A processed sample manifest has a summary (counts and the missing samples) to open from its status. */
export const hasSummary = (row: { status?: string | null; type?: string | null }) =>
  isManifest(row.type) && row.status === 'PROCESSED';

/** A sample manifest in ERROR has an error file (its rows with an Error column). */
export const hasErrorFile = (row: { status?: string | null; type?: string | null }) =>
  isManifest(row.type) && row.status === 'ERROR';

/**
 * "Check file" (the dry run) is offered for a SAMPLE_MANIFEST with a file chosen, to a user who may change
 * samples (VIEW_SAMPLE_ACTIONS, the permission the server's dry run and the worker ask for).
 */
export const canCheckManifest = (type: string, file: unknown, permissions: readonly string[]) =>
  isManifest(type) && !!file && permissions.includes('VIEW_SAMPLE_ACTIONS');

/** What a dry run says as a whole: nothing to read, every row fine, or some refused. */
export function checkOutcome(r: { rows: number; errors: readonly unknown[]; errorCount?: number }) {
  if ((r.errorCount ?? r.errors.length) > 0) return 'errors' as const;
  return r.rows > 0 ? ('ok' as const) : ('empty' as const);
}

/** The sample kinds a requisition still lacks (reconciliation): expected and not found. */
export const missingKinds = (m: { expected: readonly string[]; found: readonly string[] }) =>
  m.expected.filter((k) => !m.found.includes(k));

/** How often a manifest being processed asks for its progress. */
export const PROGRESS_POLL_MS = 1_500;

/**
 * What the Status column says under UPLOADED while a manifest's job runs: a text (key and values) and, when
 * the work is counted (samples being added), the percent done; otherwise the bar is indeterminate.
 */
export function progressView(p: {
  state: 'QUEUED' | 'PROCESSING' | 'RETRYING';
  phase: 'READING' | 'PARSING' | 'CHECKING' | 'APPLYING' | null;
  done: number;
  total: number;
}): { key: string; values?: Record<string, string | number>; percent: number | null } {
  if (p.state === 'QUEUED') return { key: 'box.progress.queued', percent: null };
  if (p.state === 'RETRYING') return { key: 'box.progress.retrying', percent: null };
  switch (p.phase) {
    case 'READING':
    case 'PARSING':
      return { key: 'box.progress.reading', percent: null };
    case 'CHECKING':
      return { key: 'box.progress.checking', values: { rows: p.total.toLocaleString() }, percent: null };
    case 'APPLYING':
      return p.total > 0
        ? {
            key: 'box.progress.applying',
            values: { done: p.done.toLocaleString(), total: p.total.toLocaleString() },
            percent: Math.min(100, Math.floor((p.done * 100) / p.total)),
          }
        : { key: 'box.progress.saving', percent: null };
    default:
      return { key: 'box.progress.processing', percent: null };
  }
}

type Translate = (key: string, values?: Record<string, unknown>) => string;

/** values the Chinese texts name that the English ones spell out (the allowed types and statuses) */
const MANIFEST_FIXED: Record<string, Record<string, string>> = {
  invalidType: { options: SPECIMEN_TYPES.join(', ') },
  invalidStatus: { options: SAMPLE_STATUSES.join(', ') },
};

/**
 * One manifest message in the user's language: a MANIFEST_MSG message (read back by @onco/domain
 * readManifestMessage) under `box.manifestMsg.*` with its values, else a sample rule's as the Samples tab says it.
 */
export function manifestMessageText(message: string, t: Translate, label: (v: string) => string = (v) => v) {
  const read = readManifestMessage(message);
  if (!read) return sampleRuleText(message, t, label);
  return t(`box.manifestMsg.${read.key}`, { ...MANIFEST_FIXED[read.key], ...read.values });
}

/**
 * A manifest's error details (@onco/domain manifestErrorText: "Row N, Column: message" a line, "File: …", and
 * "... and N more errors (download the error file).") in the user's language. A line it cannot read is kept as
 * it came; the error file and the stored details stay English.
 */
export function manifestErrorsText(text: string, t: Translate, label?: (v: string) => string): string {
  return text
    .split('\n')
    .map((line) => {
      const read = readManifestErrorLine(line);
      if (!read) return line;
      if (read.kind === 'more') return t('box.manifestErrors.more', { count: read.count });
      const where = read.row ? t('box.manifestErrors.row', { row: read.row }) : t('box.manifestErrors.file');
      const message = manifestMessageText(read.message, t, label);
      return read.column
        ? t('box.manifestErrors.lineColumn', { where, column: read.column, message })
        : t('box.manifestErrors.line', { where, message });
    })
    .join('\n');
}
