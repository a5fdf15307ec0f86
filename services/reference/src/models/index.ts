import type { Connection, Model } from 'mongoose';
import { modelOn } from './common';
import { accountSchema, hospitalLocationSchema, type AccountDoc, type HospitalLocationDoc } from './account';
import {
  pathologistSchema,
  patientSchema,
  physicianSchema,
  type PathologistDoc,
  type PatientDoc,
  type PhysicianDoc,
} from './people';
import { patientBillingSchema, payorSchema, type PatientBillingDoc, type PayorDoc } from './billing';
import { diagnosisTypeSchema, icd10CodeSchema, type DiagnosisTypeDoc, type Icd10CodeDoc } from './codes';
import {
  patientMergeSchema,
  patientRequisitionSchema,
  type PatientMergeDoc,
  type PatientRequisitionDoc,
} from './merge';
import {
  counterSchema,
  maintenanceWindowSchema,
  releaseNoteSchema,
  userPreferenceSchema,
  type CounterDoc,
  type MaintenanceWindowDoc,
  type ReleaseNoteDoc,
  type UserPreferenceDoc,
} from './portal';

export * from './common';
export * from './account';
export * from './people';
export * from './billing';
export * from './codes';
export * from './portal';
export * from './merge';

export interface ReferenceModels {
  Account: Model<AccountDoc>;
  HospitalLocation: Model<HospitalLocationDoc>;
  Physician: Model<PhysicianDoc>;
  Pathologist: Model<PathologistDoc>;
  Patient: Model<PatientDoc>;
  PatientMerge: Model<PatientMergeDoc>;
  PatientRequisition: Model<PatientRequisitionDoc>;
  PatientBilling: Model<PatientBillingDoc>;
  Payor: Model<PayorDoc>;
  Icd10Code: Model<Icd10CodeDoc>;
  DiagnosisType: Model<DiagnosisTypeDoc>;
  MaintenanceWindow: Model<MaintenanceWindowDoc>;
  ReleaseNote: Model<ReleaseNoteDoc>;
  UserPreference: Model<UserPreferenceDoc>;
  Counter: Model<CounterDoc>;
}

export function referenceModels(conn: Connection): ReferenceModels {
  return {
    Account: modelOn(conn, 'Account', accountSchema),
    HospitalLocation: modelOn(conn, 'HospitalLocation', hospitalLocationSchema),
    Physician: modelOn(conn, 'Physician', physicianSchema),
    Pathologist: modelOn(conn, 'Pathologist', pathologistSchema),
    Patient: modelOn(conn, 'Patient', patientSchema),
    PatientMerge: modelOn(conn, 'PatientMerge', patientMergeSchema),
    PatientRequisition: modelOn(conn, 'PatientRequisition', patientRequisitionSchema),
    PatientBilling: modelOn(conn, 'PatientBilling', patientBillingSchema),
    Payor: modelOn(conn, 'Payor', payorSchema),
    Icd10Code: modelOn(conn, 'Icd10Code', icd10CodeSchema),
    DiagnosisType: modelOn(conn, 'DiagnosisType', diagnosisTypeSchema),
    MaintenanceWindow: modelOn(conn, 'MaintenanceWindow', maintenanceWindowSchema),
    ReleaseNote: modelOn(conn, 'ReleaseNote', releaseNoteSchema),
    UserPreference: modelOn(conn, 'UserPreference', userPreferenceSchema),
    Counter: modelOn(conn, 'ReferenceCounter', counterSchema),
  };
}

/**
 * Next value of a named sequence (human ids such as HL-1005): one atomic `$inc` of the sequence's counter
 * document, created by the first call (upsert). Two first calls at once may both try to insert the counter; the
 * loser's duplicate key is answered by incrementing the winner's. The unique index on the human id is the
 * backstop.
 */
export async function nextSequence(
  models: ReferenceModels,
  name: string,
  start = 1000,
  /** take a block of this many numbers at once: the last is returned, the block is the `count` up to it */
  count = 1,
): Promise<number> {
  // The counter document is made first (an idempotent upsert of nothing but its _id; a racing creator's
  // duplicate key is fine), then each number is one $inc of an existing document, which the store applies
  // atomically. Not one `$inc` upsert: on DocumentDB 0.106, 20 concurrent first upserts of the same _id handed
  // out 1 twice (reference.int.test.ts, "concurrent first upserts").
  await models.Counter.updateOne({ _id: name }, { $setOnInsert: { seq: 0 } }, { upsert: true })
    .exec()
    .catch((err: unknown) => {
      if ((err as { code?: unknown })?.code !== 11000) throw err;
    });
  const doc = await models.Counter.findOneAndUpdate(
    { _id: name },
    { $inc: { seq: count } },
    { returnDocument: 'after' },
  )
    .lean()
    .exec();
  if (!doc) throw new Error(`sequence ${name} vanished`);
  return start + doc.seq;
}

/**
 * Create every reference collection and index now (mongoose otherwise builds them in the background when a
 * model is compiled). Writers await this first, so the unique indexes (human ids, codes) hold from the first
 * write.
 */
export async function initModels(models: ReferenceModels): Promise<void> {
  await Promise.all(Object.values(models).map((m: Model<any>) => m.init()));
}
