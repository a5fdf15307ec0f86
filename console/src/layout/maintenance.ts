import type { MaintenanceWindow } from '../providers/dataProvider';

/** Spec 3 sections 4.4 and 9.1: the banner shows at most 60 minutes ahead, refreshed every 15 seconds. */
export const BANNER_THRESHOLD_MS = 60 * 60 * 1000;
export const MAINTENANCE_REFRESH_MS = 15 * 1000;

export interface MaintenanceState {
  /** the window now in progress: the maintenance screen replaces login, signed-in users are logged out */
  active: MaintenanceWindow | null;
  /** the next window whose banner shows now */
  upcoming: MaintenanceWindow | null;
}

/**
 * Only windows whose end is still in the future count, earliest end first. A window is active while now lies
 * between its start and end; its banner shows once now is past its displayTime, before its start, and when
 * it starts within 60 minutes.
 */
export function maintenanceState(windows: readonly MaintenanceWindow[], now: number): MaintenanceState {
  const live = windows.filter((w) => w.endTime > now).sort((a, b) => a.endTime - b.endTime);
  const active = live.find((w) => w.startTime <= now && now < w.endTime) ?? null;
  const upcoming =
    live.find(
      (w) => now < w.startTime && now >= (w.displayTime ?? 0) && w.startTime - now <= BANNER_THRESHOLD_MS,
    ) ?? null;
  return { active, upcoming };
}
