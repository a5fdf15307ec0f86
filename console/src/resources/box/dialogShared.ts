/** The server's message of a failed call, else `fallback`. */
export const messageOf = (e: unknown, fallback: string) =>
  (e as { body?: { message?: string } })?.body?.message || fallback;

/** A block of manifest errors: preformatted, grey, scrolling past 320 px. */
export const preSx = {
  m: 0,
  p: 1.5,
  bgcolor: 'grey.100',
  borderRadius: 1,
  whiteSpace: 'pre-wrap',
  fontSize: 13,
  maxHeight: 320,
  overflow: 'auto',
} as const;
