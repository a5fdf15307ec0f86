import type { Permission } from '../permissions';
import type { TestHistoryChange } from '../wire/lab';

/**
 * The fields of a test a user sees only with a permission (spec 2 section 6: the Due Date and Test Duration
 * columns, the LIMS information). The SERVER leaves each one out of every reply to a user without its
 * permission: the tests list and its filters, sorts and search, a test's detail and history, the order's test
 * summaries and LIMS project ids, the orders CSV, the samples and the order timeline (docs/permissions.md
 * "Fields a permission shows"). The console hides the columns by the same table.
 */
export const TEST_ORDER_FIELD_PERMISSIONS = {
  dueOn: 'VIEW_TESTORDER_DUEDATE',
  testDuration: 'VIEW_TESTORDER_DURATION',
  limsProjectId: 'VIEW_LIMS_INFORMATION',
} as const satisfies Record<string, Permission>;

export type BoundField = keyof typeof TEST_ORDER_FIELD_PERMISSIONS;

/** The test changes whose history or timeline entry is about a bound field (its value is the entry's detail). */
export const CHANGE_OF_BOUND_FIELD: Partial<Record<TestHistoryChange, BoundField>> = {
  'due-date': 'dueOn',
  'lims-project': 'limsProjectId',
};

type Row = Record<string, unknown>;

function without<T>(row: T, keys: readonly string[]): T {
  if (!row || typeof row !== 'object' || !keys.length) return row;
  const out = { ...(row as Row) };
  for (const k of keys) delete out[k];
  return out as T;
}

/** What one user may see of the bound fields, and the reply shapes narrowed to it. */
export interface FieldView {
  /** the bound fields this user may not see (empty: nothing is withheld) */
  withheld: readonly BoundField[];
  /** a test order (list row or detail): withheld fields out, and history entries about them */
  testOrder<T>(row: T): T;
  /** a requisition: its test summaries' due dates and its LIMS project ids when withheld */
  requisition<T>(row: T): T;
  /** a sample (or a test as the samples tab lists it): its LIMS project when withheld */
  sample<T>(row: T): T;
  /** a timeline entry, or null when the whole entry is about a withheld field */
  timelineEntry<T>(entry: T): T | null;
}

export function fieldView(granted: readonly string[]): FieldView {
  const withheld = (Object.keys(TEST_ORDER_FIELD_PERMISSIONS) as BoundField[]).filter(
    (f) => !granted.includes(TEST_ORDER_FIELD_PERMISSIONS[f]),
  );
  const hides = (f: BoundField) => withheld.includes(f);
  const aboutWithheld = (change: unknown) => {
    const f = CHANGE_OF_BOUND_FIELD[change as TestHistoryChange];
    return f !== undefined && hides(f);
  };
  const lims = hides('limsProjectId');
  const view: FieldView = {
    withheld,
    testOrder(row) {
      if (!withheld.length || !row) return row;
      const out = without(row, withheld) as Row;
      if (Array.isArray(out.testHistories))
        out.testHistories = out.testHistories.filter((h: Row) => !aboutWithheld(h?.change));
      return out as typeof row;
    },
    requisition(row) {
      if (!row || (!hides('dueOn') && !lims)) return row;
      const out = { ...(row as Row) };
      if (Array.isArray(out.testOrders) && hides('dueOn'))
        out.testOrders = out.testOrders.map((t: Row) => without(t, ['dueOn']));
      if (lims) {
        delete out.limsProjectIds;
        if (out.parentTestOrderForm && typeof out.parentTestOrderForm === 'object')
          out.parentTestOrderForm = without(out.parentTestOrderForm, ['limsProjectIds']);
      }
      return out as typeof row;
    },
    sample(row) {
      return lims ? without(row, ['limsProjectId', 'limsProjectName']) : row;
    },
    timelineEntry(entry) {
      if (!withheld.length || !entry) return entry;
      const e = entry as Row;
      if (e.family === 'test-status' && aboutWithheld(e.kind)) return null;
      if (!e.data || typeof e.data !== 'object') return entry;
      return { ...e, data: without(e.data, withheld) } as unknown as typeof entry;
    },
  };
  return view;
}
