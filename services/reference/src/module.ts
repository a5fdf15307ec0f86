import type { FastifyInstance } from 'fastify';
import type { DomainModule, PlatformContext } from '@onco/platform';
import { referenceModels, type ReferenceModels } from './models';
import { seedReference, type SeedOptions, type SeedResult } from './seed';
import { accountRoutes } from './routes/accounts';
import { providerRoutes } from './routes/providers';
import { patientRoutes } from './routes/patients';
import { payorRoutes } from './routes/payors';
import { maintenanceRoutes } from './routes/maintenance';
import { releaseNoteRoutes } from './routes/release-notes';
import { userPreferenceRoutes } from './routes/user-preferences';
import { icd10Routes } from './routes/icd10';
import { diagnosisTypeRoutes } from './routes/diagnosis-types';
import { Icd10Catalog } from './icd10-catalog';
import { patientBillingRoutes } from './routes/patient-billings';
import { npiRegistryRoutes, npiStandInRoutes } from './routes/npi-registry';
import { createNpiRegistryStandIn, NpiRegistryClient, type NpiRegistryStandIn } from './npi-registry';
import { startPatientPartiesConsumer } from './consumers/patient-parties';
import { startPatientMergesConsumer } from './consumers/patient-merges';
import { patientMergeRoutes } from './routes/patient-merges';
import { PatientMergeService } from './patient-merges';
import { patientRegistry, type PatientRegistry, type ReferenceDeps } from './use-cases';

/** A name by id, for other modules that store {id, name} references (identity's associations and users). */
export interface NameDirectory {
  get(id: string): Promise<{ id: string; name: string } | null>;
}

export interface ReferenceModule extends DomainModule {
  models: ReferenceModels;
  /** the ICD-10-CM codes searched in memory (reloads itself after an import) */
  icd10Catalog: Icd10Catalog;
  directories: { accounts: NameDirectory; physicians: NameDirectory };
  /** the NPI registry adapter (NPI_REGISTRY_URL) and the local stand-in this process serves */
  npiRegistry: { client: NpiRegistryClient; standIn: NpiRegistryStandIn | null };
  /** Merge Patients (patient-merges.ts) */
  merges: PatientMergeService;
  /** the public call of the requisitions module: a submitted requisition's new patient joins the directory */
  patients: PatientRegistry;
  /** demo data and the reference-data imports when the database is empty; idempotent */
  seedReference(opts?: SeedOptions): Promise<SeedResult>;
}

/**
 * Reference data: accounts, hospital locations, physicians, pathologists, patients, payors, ICD-10-CM codes,
 * OncoTree diagnosis types, maintenance windows, release notes and user preferences.
 * Portal area (/portal/api/v1) and dxs area (/dxs/api/v1).
 */
export function createReferenceModule(ctx: PlatformContext): ReferenceModule {
  const models = referenceModels(ctx.mongo);
  const deps: ReferenceDeps = { models };
  const merges = new PatientMergeService(models, ctx);
  const icd10Catalog = new Icd10Catalog(models.Icd10Code);
  // the stand-in is served except in production with a real registry configured
  const npiUrl = ctx.config.NPI_REGISTRY_URL;
  const standIn =
    npiUrl === 'local' || ctx.config.NODE_ENV !== 'production' ? createNpiRegistryStandIn() : null;
  const npiClient = new NpiRegistryClient({
    baseUrl: npiUrl,
    standIn: standIn ? (p) => standIn.answer(p) : undefined,
  });

  const accounts: NameDirectory = {
    async get(id) {
      const a = await models.Account.findOne({ _id: id, deleted: { $ne: true } }, { name: 1 })
        .lean()
        .exec();
      return a ? { id: a._id, name: a.name } : null;
    },
  };
  const physicians: NameDirectory = {
    async get(id) {
      const p = await models.Physician.findOne({ _id: id, deleted: { $ne: true } }, { name: 1 })
        .lean()
        .exec();
      return p ? { id: p._id, name: p.name } : null;
    },
  };

  return {
    name: 'reference',
    models,
    icd10Catalog,
    merges,
    // the patient merges carry their `patient` events (Merge Patients and its undo)
    outboxCollections: ['patient_merges'],
    directories: { accounts, physicians },
    patients: patientRegistry(deps),
    npiRegistry: { client: npiClient, standIn },
    areas: {
      portal: async (app: FastifyInstance) => {
        await accountRoutes(app, deps);
        await providerRoutes(app, deps);
        await patientMergeRoutes(app, { merges });
        await patientRoutes(app, deps);
        await patientBillingRoutes(app, deps);
        await npiRegistryRoutes(app, { client: npiClient });
        if (standIn) await npiStandInRoutes(app, { standIn });
        await payorRoutes(app, deps);
        await maintenanceRoutes(app, deps);
        await releaseNoteRoutes(app, deps);
        await userPreferenceRoutes(app, deps);
      },
      dxs: async (app: FastifyInstance) => {
        await icd10Routes(app, { catalog: icd10Catalog });
        await diagnosisTypeRoutes(app, deps);
      },
    },
    // requisition-submitted, requisition-changed (parties-changed, patient-changed) -> the patient's accounts,
    // physicians, hospital locations and requisitions (consumers/patient-parties.ts)
    // requisition-changed (patient-changed), patient-requisitions -> a patient merge's progress, DONE and UNDONE
    // (consumers/patient-merges.ts)
    startConsumers: async () => {
      const running = [
        await startPatientPartiesConsumer(ctx, models),
        await startPatientMergesConsumer(ctx, models),
      ];
      return { stop: async () => void (await Promise.all(running.map((c) => c.stop()))) };
    },
    seedReference: (opts?: SeedOptions) => seedReference(models, ctx.logger, opts),
    seed: async () => {
      await seedReference(models, ctx.logger);
    },
  };
}
