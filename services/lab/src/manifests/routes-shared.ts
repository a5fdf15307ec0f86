import { z } from 'zod';

/**
 * What the sample manifest routes (routes.ts) share. Every route needs VIEW_BOX_PAGE (the Attachment Box).
 */
export const PERMISSION = 'VIEW_BOX_PAGE' as const;

export const rowError = z.object({
  row: z.number().int(),
  column: z.string().nullable(),
  message: z.string(),
});
