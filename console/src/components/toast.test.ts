import { describe, expect, it } from 'vitest';
import { toastStep } from './Toast';

describe('toastStep: one toast on screen, the newest wins', () => {
  it('nothing queued: nothing to do', () => {
    expect(toastStep({ queued: 0, showing: false, open: false })).toBe('none');
    expect(toastStep({ queued: 0, showing: true, open: true })).toBe('none');
  });
  it('a toast queued and none on screen: show it', () => {
    expect(toastStep({ queued: 1, showing: false, open: false })).toBe('take');
  });
  it('a newer toast queued while one is on screen: close that one now, not after its 18 s', () => {
    expect(toastStep({ queued: 1, showing: true, open: true })).toBe('close');
  });
  it('the one on screen is already leaving: wait for it to leave, then the next shows', () => {
    expect(toastStep({ queued: 2, showing: true, open: false })).toBe('none');
  });
});
