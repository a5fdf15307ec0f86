import { MANIFEST_MSG, type ManifestMessageKey } from './manifest';

/**
 * Reading back what manifestErrorText and MANIFEST_MSG wrote (the stored errorDetails are English), so a screen
 * can show each message in its own language with its values. The wording lives once, in MANIFEST_MSG: each
 * template is turned into a pattern by calling it with markers.
 */

/** The values of each MANIFEST_MSG template, by name, in the order the template takes them. */
const ARGS: Partial<Record<ManifestMessageKey, string[]>> = {
  missingColumn: ['column'],
  duplicateColumn: ['column'],
  tooManyRows: ['max'],
  tooManyColumns: ['max'],
  cellTooLong: ['max'],
  required: ['column'],
  invalidType: ['value'],
  invalidStatus: ['value'],
  invalidDate: ['value'],
  invalidBoolean: ['value'],
  duplicateSpecimen: ['id', 'row'],
  unknownRequisition: ['ref'],
  referenceMismatch: ['trf', 'test'],
  limsIdMismatch: ['given', 'stored'],
  alreadyApplied: ['name', 'on'],
  fix: ['name'],
  csvNotText: ['what'],
  delimiter: ['shown'],
  wrongKind: ['format', 'actual'],
  unpacksTooLarge: ['mb'],
  unreadable: ['format', 'reason'],
  sheetTooWide: ['width', 'max'],
  timeout: ['seconds'],
  readerStopped: ['code'],
  tooLarge: ['mb'],
};

/** values that may hold the words that follow them in their template: matched greedily (a file named "a on b") */
const GREEDY: Partial<Record<ManifestMessageKey, number[]>> = { alreadyApplied: [0] };

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const MARK = /\u0001(\d+)\u0001/g;

/**
 * Each template as a pattern, with each value a capture group. Tried in order of the fixed text they start with,
 * longest first: a template that starts with a value ("X is required.") comes last, so it cannot take a message
 * of another template that ends the same way. `s`: a value may hold any character (a line break of a cell,
 * U+2028) without making the match backtrack.
 */
const PATTERNS = (Object.entries(MANIFEST_MSG) as [ManifestMessageKey, unknown][])
  .map(([key, msg]) => {
    if (typeof msg === 'string') return { key, text: msg, re: null, names: [] as string[], lead: Infinity };
    const names = ARGS[key] ?? [];
    const marked = (msg as (...a: string[]) => string)(...names.map((_, i) => `\u0001${i}\u0001`));
    const greedy = GREEDY[key] ?? [];
    const source = escapeRe(marked).replace(MARK, (_, i: string) =>
      greedy.includes(Number(i)) ? '(.+)' : '(.+?)',
    );
    return {
      key,
      text: null,
      re: new RegExp(`^${source}$`, 's'),
      names: [...marked.matchAll(MARK)].map((m) => names[Number(m[1])]!),
      lead: marked.indexOf('\u0001'),
    };
  })
  .sort((a, b) => b.lead - a.lead);

/** Which MANIFEST_MSG message this is, and its values by name; null for any other text. */
export function readManifestMessage(
  message: string,
): { key: ManifestMessageKey; values: Record<string, string> } | null {
  for (const p of PATTERNS) if (p.text === message) return { key: p.key, values: {} };
  for (const p of PATTERNS) {
    const m = p.re?.exec(message);
    if (!m) continue;
    const values: Record<string, string> = {};
    p.names.forEach((n, i) => (values[n] = m[i + 1]!));
    return { key: p.key, values };
  }
  return null;
}

/** Lines longer than this are not read (a line of ours is far shorter; no pattern runs on them). */
export const MAX_READ_ERROR_LINE = 4_000;

/**
 * One line of manifestErrorText: a row's error ("Row N, Column: message"; `row` 0 for "File: …"), or the
 * remainder line ("... and N more errors …"); null for a line it does not know or one past MAX_READ_ERROR_LINE.
 */
export function readManifestErrorLine(
  line: string,
):
  | { kind: 'error'; row: number; column: string | null; message: string }
  | { kind: 'more'; count: number }
  | null {
  if (line.length > MAX_READ_ERROR_LINE) return null;
  const more = /^\.\.\. and (\d+) more errors \(download the error file\)\.$/.exec(line);
  if (more) return { kind: 'more', count: Number(more[1]) };
  const m = /^(?:Row (\d+)|File)(?:, ([^:]*?))?: (.*)$/s.exec(line);
  if (!m) return null;
  return { kind: 'error', row: m[1] ? Number(m[1]) : 0, column: m[2] ?? null, message: m[3]! };
}
