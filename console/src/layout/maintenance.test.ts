import { describe, expect, it } from 'vitest';
import type { MaintenanceWindow } from '../providers/dataProvider';
import { maintenanceState } from './maintenance';

const MIN = 60_000;
const now = Date.UTC(2026, 10, 21, 18, 0);
const win = (startIn: number, endIn: number, displayIn = startIn - 24 * 60): MaintenanceWindow => ({
  id: `w${startIn}`,
  startTime: now + startIn * MIN,
  endTime: now + endIn * MIN,
  from_time: now + startIn * MIN,
  displayTime: now + displayIn * MIN,
  title: 'Upgrade',
  description: null,
  body: null,
});

describe('maintenanceState (spec 3 section 4.4)', () => {
  it('shows the banner for a window starting within 60 minutes, not for one further away', () => {
    expect(maintenanceState([win(30, 90)], now).upcoming?.id).toBe('w30');
    expect(maintenanceState([win(60, 90)], now).upcoming?.id).toBe('w60');
    expect(maintenanceState([win(61, 90)], now).upcoming).toBeNull();
  });

  it('waits for the displayTime even within 60 minutes', () => {
    expect(maintenanceState([win(30, 90, 10)], now).upcoming).toBeNull();
    expect(maintenanceState([win(30, 90, -1)], now).upcoming?.id).toBe('w30');
  });

  it('is active between start and end, and then no longer shows a banner', () => {
    const s = maintenanceState([win(-5, 30)], now);
    expect(s.active?.id).toBe('w-5');
    expect(s.upcoming).toBeNull();
    expect(maintenanceState([win(-60, 0)], now).active).toBeNull();
  });

  it('ignores windows that have ended and takes the earliest end first', () => {
    const s = maintenanceState([win(-120, -60), win(-10, 50), win(-20, 40)], now);
    expect(s.active?.id).toBe('w-20');
  });
});
