import { describe, expect, it } from 'vitest';
import { jumpPage, pageCount, pageRange, pageSlots } from './pagination';

describe('pagination slots', () => {
  it('shows every page up to 9 pages', () => {
    expect(pageSlots(1, 1)).toEqual([1]);
    expect(pageSlots(3, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pageSlots(9, 9)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('past 9 pages shows 7 slots with ellipses around the current page', () => {
    expect(pageSlots(1, 10)).toEqual([1, 2, 3, 4, 5, 'end-ellipsis', 10]);
    expect(pageSlots(4, 10)).toEqual([1, 2, 3, 4, 5, 'end-ellipsis', 10]);
    expect(pageSlots(5, 10)).toEqual([1, 'start-ellipsis', 4, 5, 6, 'end-ellipsis', 10]);
    expect(pageSlots(7, 10)).toEqual([1, 'start-ellipsis', 6, 7, 8, 9, 10]);
    expect(pageSlots(50, 100)).toEqual([1, 'start-ellipsis', 49, 50, 51, 'end-ellipsis', 100]);
    for (let c = 1; c <= 40; c++) expect(pageSlots(c, 40)).toHaveLength(7);
  });

  it('keeps the current page in range', () => {
    expect(pageSlots(0, 3)).toEqual([1, 2, 3]);
    expect(pageSlots(99, 12)).toEqual([1, 'start-ellipsis', 8, 9, 10, 11, 12]);
  });

  it('arrows jump 5 pages, clamped', () => {
    expect(jumpPage(1, 20, 1)).toBe(6);
    expect(jumpPage(18, 20, 1)).toBe(20);
    expect(jumpPage(3, 20, -1)).toBe(1);
    expect(jumpPage(12, 20, -1)).toBe(7);
  });

  it('counts pages and the shown range', () => {
    expect(pageCount(0, 15)).toBe(1);
    expect(pageCount(31, 15)).toBe(3);
    expect(pageRange(3, 15, 31)).toEqual({ from: 31, to: 31 });
    expect(pageRange(1, 15, 0)).toEqual({ from: 0, to: 0 });
  });
});
