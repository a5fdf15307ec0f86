import type { Connection, Model } from 'mongoose';
import type { LockFn } from '@onco/platform';
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

export interface ReferenceModels {
  Account: Model<AccountDoc>;
  HospitalLocation: Model<HospitalLocationDoc>;
  Physician: Model<PhysicianDoc>;
  Pathologist: Model<PathologistDoc>;
  Patient: Model<PatientDoc>;
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
 * Next value of a named sequence (human ids such as HL-1005). The increment runs under the counter's write lock
 * when one is given (FerretDB v1 does not apply $inc atomically under concurrency); the unique index on the
 * human id is the backstop.
 */
export async function nextSequence(
  models: ReferenceModels,
  name: string,
  start = 1000,
  lock?: LockFn,
): Promise<number> {
  const inc = async () => {
    const doc = await models.Counter.findOneAndUpdate(
      { _id: name },
      { $inc: { seq: 1 } },
      { upsert: true, returnDocument: 'after', setDefaultsOnInsert: false },
    )
      .lean()
      .exec();
    return start + (doc?.seq ?? 1);
  };
  return lock ? lock('reference_counters', name, inc) : inc();
}

/**
 * Create every reference collection and index now (mongoose otherwise builds them in the background when a
 * model is compiled). Writers await this first: on FerretDB v1 an index build running beside writes to the
 * same database can deadlock the server.
 */
export async function initModels(models: ReferenceModels): Promise<void> {
  await Promise.all(Object.values(models).map((m: Model<any>) => m.init()));
}
