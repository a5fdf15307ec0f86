import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { idParams, requireUser, typed } from '@onco/platform';
import type { MaintenanceWindowDoc } from '../models';
import { cancelMaintenanceWindow, listMaintenanceWindows, scheduleMaintenanceWindow } from '../use-cases';
import type { RouteDeps } from './shared';

/** A maintenance window as the client reads it (spec 3 sections 3 and 4.4): times in epoch milliseconds. */
export const maintenanceReply = z.object({
  id: z.string(),
  startTime: z.number(),
  endTime: z.number(),
  /** the start again, under the name the client's banner reads */
  from_time: z.number(),
  displayTime: z.number(),
  title: z.string(),
  description: z.string().nullable(),
  body: z.string().nullable(),
});
export type MaintenanceReply = z.infer<typeof maintenanceReply>;

export function toMaintenanceReply(
  d: Pick<
    MaintenanceWindowDoc,
    '_id' | 'startTime' | 'endTime' | 'displayTime' | 'title' | 'description' | 'body'
  >,
): MaintenanceReply {
  const start = new Date(d.startTime).getTime();
  return {
    id: d._id,
    startTime: start,
    endTime: new Date(d.endTime).getTime(),
    from_time: start,
    displayTime: new Date(d.displayTime).getTime(),
    title: d.title,
    description: d.description ?? null,
    body: d.body ?? null,
  };
}

/**
 * The last instant a window may name: 9999-12-31T23:59:59.999Z, the last an ISO-8601 date-time (the other form
 * this API takes, and the form clients read dates in) writes with four digits. Past 8.64e15 ms, the last instant
 * a date can hold, the model got an Invalid Date (a 500 before).
 */
const LAST_INSTANT_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
const INSTANT_EXPECTED =
  'expected epoch milliseconds from 1 to 253402300799999 (9999-12-31T23:59:59.999Z) or an ISO-8601 date-time';

/** epoch milliseconds (1970 to 9999) or an ISO-8601 date-time */
const instant = z.union([
  z.number().int(INSTANT_EXPECTED).positive(INSTANT_EXPECTED).max(LAST_INSTANT_MS, INSTANT_EXPECTED),
  z.string().datetime({ offset: true, message: INSTANT_EXPECTED }),
]);

const createBody = z.object({
  startTime: instant,
  endTime: instant,
  displayTime: instant.optional().nullable(),
  title: z.string().trim().min(1).max(200),
  description: z.string().trim().max(2000).optional().nullable(),
  body: z.string().trim().max(10000).optional().nullable(),
});

/**
 * Maintenance windows. GET is public (the login page fetches it before anyone signs in) and returns the
 * windows whose end is still in the future, earliest end first; the client decides banner and screen.
 */
export async function maintenanceRoutes(app: FastifyInstance, deps: RouteDeps) {
  const r = typed(app);

  r.get(
    '/maintenance',
    {
      config: { public: true },
      schema: {
        tags: ['maintenance'],
        summary: 'Current and upcoming maintenance windows (public), earliest end first',
        security: [],
        response: { 200: z.array(maintenanceReply) },
      },
    },
    async () => (await listMaintenanceWindows(deps)).map(toMaintenanceReply),
  );

  r.post(
    '/maintenance',
    {
      config: { permission: 'CAN_MANAGE_MAINTENANCE' },
      schema: {
        tags: ['maintenance'],
        summary: 'Schedule a maintenance window (displayTime defaults to 24 hours before the start)',
        body: createBody,
        response: { 201: maintenanceReply },
      },
    },
    async (req, reply) => {
      const created = await scheduleMaintenanceWindow(deps, requireUser(req), req.body);
      const { startTime, endTime } = created;
      req.log.info({ maintenanceId: created._id, startTime, endTime }, 'maintenance window scheduled');
      reply.status(201);
      return toMaintenanceReply(created);
    },
  );

  r.delete(
    '/maintenance/:id',
    {
      config: { permission: 'CAN_MANAGE_MAINTENANCE' },
      schema: {
        tags: ['maintenance'],
        summary: 'Cancel a maintenance window (soft delete); returns the deleted window',
        params: idParams,
        response: { 200: maintenanceReply },
      },
    },
    async (req) => {
      const doc = await cancelMaintenanceWindow(deps, requireUser(req), req.params.id);
      req.log.info({ maintenanceId: doc._id }, 'maintenance window cancelled');
      return toMaintenanceReply(doc);
    },
  );
}
