/** The platform's domain modules, wired to each other through their public calls, and their indexes. */
import type { Logger } from 'pino';
import {
  createAuditModule,
  ensureOrderedIndexes,
  type Config,
  type DomainModule,
  type PlatformContext,
} from '@onco/platform';
import { createIdentity } from '@onco/identity';
import { createReferenceModule } from '@onco/reference';
import { createPdfRenderer, createRequisitionsModule } from '@onco/requisitions';
import { createLabModule } from '@onco/lab';
import { createBillingModule } from '@onco/billing';
import { createMessagesModule } from '@onco/messages';
import type { Connections } from './connections';

export interface DomainModules {
  identity: ReturnType<typeof createIdentity>;
  reference: ReturnType<typeof createReferenceModule>;
  /** every domain module but identity, in this order */
  modules: DomainModule[];
}

export function createDomainModules(ctx: PlatformContext, mongo: Connections['mongo']): DomainModules {
  const identity = createIdentity(mongo, ctx.config);
  const reference = createReferenceModule(ctx);
  // each domain's public calls, not its models: the requisitions module signs through identity and registers a
  // new patient through reference
  // one chromium a process (launched on first use, closed with the requisitions module): the TRF and blank-form
  // PDFs, and the lab's barcode labels
  const renderer = createPdfRenderer({ executablePath: ctx.config.CHROMIUM_PATH, logger: ctx.logger });
  const requisitions = createRequisitionsModule(ctx, {
    verifySignature: identity.verifySignature,
    registerPatient: reference.patients.registerFromRequisition,
    renderer,
  });
  const lab = createLabModule(ctx, { pdf: renderer });
  const modules: DomainModule[] = [
    reference,
    requisitions,
    lab,
    // the pre-submit checks look ICD-10 codes up in the reference data's catalog (an interface, not its models);
    // a claim's documents are the lab's current report and the requisitions' current TRF (their public calls)
    createBillingModule(ctx, {
      diagnosisCodes: reference.icd10Catalog,
      claimDocuments: {
        filesOf: async (c) => {
          const [report, trf] = await Promise.all([
            lab.currentReport(c.testOrderId),
            c.testOrderFormId ? requisitions.trf.latest(c.testOrderFormId) : null,
          ]);
          return [
            ...(report ? [{ kind: 'REPORT' as const, ...report }] : []),
            ...(trf?.blobId ? [{ kind: 'TRF' as const, fileId: trf.blobId, fileName: trf.name }] : []),
          ];
        },
      },
    }),
    createMessagesModule(ctx, { accounts: reference.directories.accounts, patients: reference.patients }),
    // the audit trail: its routes, its outbox and its chainer (docs/audit.md)
    createAuditModule(ctx),
  ];
  return { identity, reference, modules };
}

export async function buildIndexes(
  mongo: Connections['mongo'],
  config: Config,
  logger: Logger,
): Promise<void> {
  // Build every model's indexes before serving or writing, so a unique index holds from the first write
  // (mongoose otherwise builds them in the background).
  for (const model of Object.values(mongo.models)) await model.init();
  // the large lists' index-ordered indexes: built in the background (a list hints one once it is ready)
  void ensureOrderedIndexes(mongo, {
    mongoUrl: config.MONGO_URL,
    orderedUrl: config.MONGO_ORDERED_URL,
    logger,
  });
}
