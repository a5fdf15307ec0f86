/** Field builders the event schemas share (internal: not exported from the package). */
import { z } from 'zod';

export const id = (description: string) => z.string().min(1).max(200).describe(description);
/** An instant, ISO 8601 with a time zone designator, e.g. 2025-03-01T14:05:00.000Z. */
export const instant = (description: string) => z.iso.datetime({ offset: true }).describe(description);
