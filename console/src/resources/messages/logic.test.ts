import { describe, expect, it } from 'vitest';
import {
  composeFromState,
  emptyKey,
  initialMessageStatus,
  lengthText,
  MESSAGE_MAX,
  messagesFilter,
} from './logic';

describe('messages screen rules', () => {
  it('opens on NEW when the dashboard says so', () => {
    expect(initialMessageStatus({ messageStatus: 'NEW', from: 'home' })).toBe('NEW');
    expect(initialMessageStatus({ messageStatus: 'weird' })).toBe('ALL');
    expect(initialMessageStatus(null)).toBe('ALL');
  });

  it('lists threads, by read state, searching only past 2 characters', () => {
    expect(messagesFilter('ALL', 'ab')).toEqual({ isParent: true });
    expect(messagesFilter('NEW', ' kit ')).toEqual({ isParent: true, read: false, q: 'kit' });
    expect(messagesFilter('READ', '')).toEqual({ isParent: true, read: true });
  });

  it('says "No message or notification" with nothing at all, "No record found" when filtered', () => {
    expect(emptyKey('ALL', '')).toBe('messages.emptyAll');
    expect(emptyKey('NEW', '')).toBe('messages.emptyFiltered');
    expect(emptyKey('ALL', 'kits')).toBe('messages.emptyFiltered');
  });

  it('pre-fills a new message from an order', () => {
    expect(composeFromState({ compose: { testOrderForm: { id: 't', testRequisitionId: 'TRF-1' } } })).toEqual(
      {
        testOrderForm: { id: 't', testRequisitionId: 'TRF-1' },
      },
    );
    expect(composeFromState({})).toBeNull();
  });
  it('a message and a reply hold at most 512 characters (spec 2 sections 5 and 9), counted under the box', () => {
    expect(MESSAGE_MAX).toBe(512);
    expect(lengthText('')).toBe('0/512');
    expect(lengthText('x'.repeat(512))).toBe('512/512');
  });
});
