import { describe, expect, it } from 'vitest';
import { createEvent } from '@onco/events';
import { timelineEntry, timelineOrder } from './timeline';

const by = { id: 'u-1', name: 'Lab One' };

describe('timelineEntry: one entry per order event', () => {
  it('a test change keeps its test, statuses, change kind and actor', () => {
    const event = createEvent('test-status', {
      data: {
        testOrderId: 't-1',
        testId: 'T-1',
        requisitionId: 'r-1',
        testRequisitionId: 'TRF-1',
        accountId: 'a-1',
        testType: 'NEXT_DX',
        orderType: 'INITIAL_ORDER',
        previousStatus: 'IN_PROGRESS',
        status: 'REPORT_COMPLETE',
        changedBy: by,
        changedOn: '2026-11-23T10:00:00.000Z',
        dueOn: null,
        change: 'report',
        limsProjectId: null,
        report: { id: 'f-1', version: 1, fileName: 'r.pdf', amended: false },
      },
    });
    expect(timelineEntry(event)).toMatchObject({
      _id: event.id,
      requisitionId: 'r-1',
      testOrderId: 't-1',
      family: 'test-status',
      kind: 'report',
      at: new Date('2026-11-23T10:00:00.000Z'),
      by,
      data: { previousStatus: 'IN_PROGRESS', status: 'REPORT_COMPLETE', report: { version: 1 } },
    });
  });

  it('a sample change is keyed by its sample and requisition', () => {
    const event = createEvent('sample', {
      data: {
        sampleId: 's-1',
        requisitionId: 'r-1',
        type: 'TUMOR',
        status: 'ON_HOLD',
        limsId: null,
        change: 'created',
        changedBy: by,
        changedOn: '2026-11-23T11:00:00.000Z',
      },
    });
    expect(timelineEntry(event)).toMatchObject({ sampleId: 's-1', family: 'sample', kind: 'created' });
  });
});

describe('timelineOrder', () => {
  it('orders by time; at one instant the submission first, then tests, samples, billing and the TRF PDF', () => {
    const at = '2026-11-26T10:00:00.000Z';
    const entries = [
      { id: 'e5', at, family: 'attachment' },
      { id: 'e4', at, family: 'billing-case' },
      { id: 'e2b', at, family: 'test-status' },
      { id: 'e0', at: '2026-11-26T09:59:59.999Z', family: 'billing-case' },
      { id: 'e2a', at, family: 'test-status' },
      { id: 'e3', at, family: 'sample' },
      { id: 'e1', at: new Date(at), family: 'requisition-submitted' },
    ];
    expect([...entries].sort(timelineOrder).map((e) => e.id)).toEqual([
      'e0',
      'e1',
      'e2a',
      'e2b',
      'e3',
      'e4',
      'e5',
    ]);
  });
});
