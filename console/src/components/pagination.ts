/**
 * Pagination slots (spec 2 section 9, spec 3 section 9.1): every page when there are at most 9 pages, otherwise
 * 7 slots with ellipses (first, last, and the pages around the current one); the double arrows jump 5 pages.
 * Pages are 1-based here.
 */
export type PageSlot = number | 'start-ellipsis' | 'end-ellipsis';

export const ELLIPSIS_AFTER_PAGES = 9;
export const MAX_SLOTS = 7;
export const ARROW_JUMP = 5;

export function pageCount(total: number, perPage: number): number {
  if (!(perPage > 0) || !(total > 0)) return 1;
  return Math.max(1, Math.ceil(total / perPage));
}

export function pageSlots(current: number, pages: number): PageSlot[] {
  const n = Math.max(1, Math.floor(pages));
  const c = Math.min(Math.max(1, Math.floor(current)), n);
  if (n <= ELLIPSIS_AFTER_PAGES) return Array.from({ length: n }, (_, i) => i + 1);
  // 7 slots: near the start "1 2 3 4 5 … n", near the end "1 … n-4 … n", else "1 … c-1 c c+1 … n"
  if (c <= 4) return [1, 2, 3, 4, 5, 'end-ellipsis', n];
  if (c >= n - 3) return [1, 'start-ellipsis', n - 4, n - 3, n - 2, n - 1, n];
  return [1, 'start-ellipsis', c - 1, c, c + 1, 'end-ellipsis', n];
}

/** The page the double arrows lead to: 5 back or forward, kept within 1..pages. */
export function jumpPage(current: number, pages: number, direction: -1 | 1): number {
  return Math.min(Math.max(1, current + direction * ARROW_JUMP), Math.max(1, pages));
}

/** "1-15 of 123" figures for a page (1-based page). */
export function pageRange(page: number, perPage: number, total: number): { from: number; to: number } {
  if (total <= 0) return { from: 0, to: 0 };
  const from = (page - 1) * perPage + 1;
  return { from, to: Math.min(total, page * perPage) };
}
