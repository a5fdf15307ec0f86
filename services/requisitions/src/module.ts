import type { DomainModule, PlatformContext } from '@onco/platform';
import { requisitionModels, type RequisitionModels } from './models';
import { blankFormRoutes } from './routes/blank-form';
import { definePdfQueue, type PdfQueue } from './workers/pdf-queue';
import type { PdfRenderer } from './pdf/render';

export interface RequisitionsModuleOptions {
  /** how long GET downloadBlankForm waits for the pdf job (default 60 s) */
  blankFormWaitMs?: number;
  /** a renderer to use instead of the default chromium one (tests) */
  renderer?: PdfRenderer;
}

export type RequisitionsModule = DomainModule & { models: RequisitionModels; pdf: PdfQueue };

/**
 * The requisitions service: test order forms (collection test_order_forms, which carries its pending events),
 * attachments, the counters behind human-readable numbers, generated documents and the `pdf` queue.
 * Mounted in the portal area (/portal/api/v1).
 */
export function createRequisitionsModule(
  ctx: PlatformContext,
  opts: RequisitionsModuleOptions = {},
): RequisitionsModule {
  const models = requisitionModels(ctx.mongo);
  const pdf = definePdfQueue(ctx, { renderer: opts.renderer });
  return {
    name: 'requisitions',
    models,
    pdf,
    outboxCollections: ['test_order_forms'],
    areas: {
      portal: async (app) => {
        await app.register(blankFormRoutes, { pdf, waitMs: opts.blankFormWaitMs });
      },
    },
    // the pdf renderer's chromium closes after the workers (and so the renders in progress) have stopped
    stop: () => pdf.close(),
  };
}
