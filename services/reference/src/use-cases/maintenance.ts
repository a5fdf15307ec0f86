import { badRequest, notFound, type SessionUser } from '@onco/platform';
import type { MaintenanceWindowDoc } from '../models';
import { MAINTENANCE_WINDOW_CHANGE, referenceTrail } from './audit';
import type { ReferenceDeps } from './deps';

/** How long before its start a window's banner shows when the creator gives no displayTime. */
export const DEFAULT_DISPLAY_LEAD_MS = 24 * 3600 * 1000;

/** epoch milliseconds or an ISO-8601 date-time */
type Instant = number | string;

/** A maintenance window to schedule: its times (displayTime defaults to 24 hours before the start) and texts. */
export interface NewMaintenanceWindow {
  startTime: Instant;
  endTime: Instant;
  displayTime?: Instant | null;
  title: string;
  description?: string | null;
  body?: string | null;
}

const toDate = (v: Instant) => new Date(v);

/** The windows whose end is still in the future, earliest end first (at most 100). */
export async function listMaintenanceWindows({ models }: ReferenceDeps): Promise<MaintenanceWindowDoc[]> {
  return (await models.MaintenanceWindow.find({
    endTime: { $gt: new Date() },
    deleted: { $ne: true },
  })
    .sort({ endTime: 1, _id: 1 })
    .limit(100)
    .lean()
    .exec()) as MaintenanceWindowDoc[];
}

/**
 * Schedule a window: it ends after it starts and in the future, and shows no later than it starts (400s). It is
 * created with its audit entry (`create`), in one transaction.
 */
export async function scheduleMaintenanceWindow(
  { models }: ReferenceDeps,
  user: SessionUser,
  b: NewMaintenanceWindow,
): Promise<MaintenanceWindowDoc> {
  const startTime = toDate(b.startTime);
  const endTime = toDate(b.endTime);
  const displayTime =
    b.displayTime != null ? toDate(b.displayTime) : new Date(startTime.getTime() - DEFAULT_DISPLAY_LEAD_MS);
  if (endTime.getTime() <= startTime.getTime())
    throw badRequest('endTime must be after startTime', { field: 'endTime' });
  if (endTime.getTime() <= Date.now())
    throw badRequest('endTime must be in the future', { field: 'endTime' });
  if (displayTime.getTime() > startTime.getTime()) {
    throw badRequest('displayTime must not be after startTime', { field: 'displayTime' });
  }
  return referenceTrail(models.MaintenanceWindow.db).create(
    models.MaintenanceWindow,
    {
      startTime,
      endTime,
      displayTime,
      title: b.title,
      description: b.description ?? null,
      body: b.body ?? null,
      createdBy: user.id,
      updatedBy: user.id,
    },
    MAINTENANCE_WINDOW_CHANGE,
  );
}

/**
 * Cancel a window (soft delete), returning it: one conditional update with its audit entry (`delete`) in one
 * transaction, so of two cancellations at once one matches and records, and the other is a 404 and records nothing.
 */
export async function cancelMaintenanceWindow(
  { models }: ReferenceDeps,
  user: SessionUser,
  id: string,
): Promise<MaintenanceWindowDoc> {
  const doc = await referenceTrail(models.MaintenanceWindow.db).update(
    models.MaintenanceWindow,
    { _id: id, deleted: { $ne: true } },
    { $set: { deleted: true, updatedOn: new Date(), updatedBy: user.id }, $inc: { version: 1 } },
    MAINTENANCE_WINDOW_CHANGE,
  );
  if (!doc) throw notFound();
  return doc;
}
