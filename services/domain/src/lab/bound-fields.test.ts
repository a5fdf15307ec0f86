import { describe, expect, it } from 'vitest';
import { fieldView } from './bound-fields';

const test = {
  id: 't1',
  status: 'IN_PROGRESS',
  dueOn: '2026-12-01',
  testDuration: 3,
  limsProjectId: 'LP-1',
  testHistories: [
    { change: 'status', detail: null },
    { change: 'due-date', detail: '2026-12-01' },
    { change: 'lims-project', detail: 'LP-1' },
  ],
};

describe('fieldView: the fields a permission shows (spec 2 section 6)', () => {
  it('withholds nothing from a user holding the three permissions', () => {
    const v = fieldView(['VIEW_TESTORDER_DUEDATE', 'VIEW_TESTORDER_DURATION', 'VIEW_LIMS_INFORMATION']);
    expect(v.withheld).toEqual([]);
    expect(v.testOrder(test)).toEqual(test);
  });

  it('leaves out each field, and the history entries about it, without its permission', () => {
    const v = fieldView(['VIEW_TESTORDER_DURATION']);
    expect(v.withheld).toEqual(['dueOn', 'limsProjectId']);
    const out = v.testOrder(test);
    expect(out).not.toHaveProperty('dueOn');
    expect(out).not.toHaveProperty('limsProjectId');
    expect(out.testDuration).toBe(3);
    expect(out.testHistories.map((h) => h.change)).toEqual(['status']);
    expect(test.testHistories).toHaveLength(3); // the input is not changed
  });

  it('narrows a requisition, a sample and the timeline the same way', () => {
    const v = fieldView([]);
    const req = v.requisition({
      id: 'r',
      testOrders: [{ id: 't1', dueOn: '2026-12-01' }],
      limsProjectIds: ['LP-1'],
      parentTestOrderForm: { id: 'p', limsProjectIds: ['LP-0'] },
    });
    expect(req).toEqual({ id: 'r', testOrders: [{ id: 't1' }], parentTestOrderForm: { id: 'p' } });
    expect(v.sample({ id: 's', limsProjectId: 'LP-1', limsProjectName: 'P', limsId: 'L-9' })).toEqual({
      id: 's',
      limsId: 'L-9',
    });
    expect(v.timelineEntry({ family: 'test-status', kind: 'due-date', data: { dueOn: 'x' } })).toBeNull();
    expect(
      v.timelineEntry({ family: 'test-status', kind: 'status', data: { status: 'A', dueOn: 'x' } }),
    ).toEqual({
      family: 'test-status',
      kind: 'status',
      data: { status: 'A' },
    });
  });
});
