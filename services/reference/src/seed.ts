import type { Logger } from 'pino';
import type { Model } from 'mongoose';
import { initModels, revisionOrder, type ReferenceModels } from './models';
import { importIcd10 } from './importers/icd10';
import { importOncoTree } from './importers/oncotree';
import type { ImportResult } from './importers/common';
import { referenceDataFiles } from './paths';
import {
  DEMO_ACCOUNTS,
  DEMO_PATHOLOGISTS,
  DEMO_PATIENTS,
  DEMO_PAYORS,
  DEMO_PHYSICIANS,
  DEMO_RELEASE_NOTE,
  demoId,
  npiOf,
} from './demo-data';

export interface SeedResult {
  /** false when the database already had accounts (nothing was written) */
  created: boolean;
  accounts: Array<{ id: string; name: string; accountId: string }>;
  hospitalLocations: Array<{ id: string; name: string; accountId: string }>;
  physicians: Array<{ id: string; name: string; userId: string; status: string; accountIds: string[] }>;
  pathologists: Array<{ id: string; name: string; accountIds: string[] }>;
  patients: Array<{ id: string; name: string; userId: string; accountIds: string[]; physicianIds: string[] }>;
  /** what the reference-data imports did (only when they ran) */
  imports?: { icd10?: ImportResult; oncotree?: ImportResult; source: 'full' | 'fixtures' };
}

export interface SeedOptions {
  /** auto (default): the full ICD-10-CM and OncoTree releases from ../shared/data when present, else the fixtures */
  referenceData?: 'auto' | 'full' | 'fixtures';
  /** the clock (tests) */
  now?: Date;
}

const DAY = 24 * 3600 * 1000;
const HOUR = 3600 * 1000;

/** insertMany that treats "already there" (a concurrent or half-finished seed) as done. */
async function insertAll<T>(model: Model<T>, docs: Array<Record<string, unknown>>): Promise<void> {
  if (!docs.length) return;
  try {
    await model.insertMany(docs, { ordered: false });
  } catch (err: any) {
    const writeErrors: any[] = err?.writeErrors ?? (err?.code === 11000 ? [err] : []);
    const onlyDuplicates =
      writeErrors.length > 0 && writeErrors.every((e) => (e?.code ?? e?.err?.code) === 11000);
    if (!onlyDuplicates) throw err;
  }
}

type Audit = { createdBy: string; updatedBy: string; createdOn: Date; updatedOn: Date };

/**
 * Seed demo data when the accounts collection is empty (see demo-data.ts), plus the ICD-10-CM codes and
 * the OncoTree tree when their collections are empty. A second call writes nothing and returns what exists.
 */
export async function seedReference(
  models: ReferenceModels,
  logger?: Logger,
  opts: SeedOptions = {},
): Promise<SeedResult> {
  // collections and indexes exist before the first write (an index build takes its collection's write lock)
  await initModels(models);
  const hasAccounts = await models.Account.exists({});
  if (hasAccounts) return { created: false, ...(await existing(models)) };

  const now = opts.now ?? new Date();
  const by = 'seed';
  const audit = { createdBy: by, updatedBy: by, createdOn: now, updatedOn: now };
  const imports = await seedReferenceData(models, by, opts, logger);
  if (!(await models.Payor.exists({}))) {
    await insertAll(
      models.Payor,
      DEMO_PAYORS.map((p) => ({ _id: demoId('payor', p.payorId), ...p, ...audit })),
    );
  }
  await seedNotices(models, now, audit);
  const { physicians } = await seedDirectory(models, audit);
  logger?.info(
    { accounts: DEMO_ACCOUNTS.length, physicians: physicians.length, patients: DEMO_PATIENTS.length },
    'reference demo data seeded',
  );
  return { created: true, ...(await existing(models)), imports };
}

/** Reference data first: codes and the diagnosis tree (insert mode into empty collections). */
async function seedReferenceData(
  models: ReferenceModels,
  by: string,
  opts: SeedOptions,
  logger?: Logger,
): Promise<NonNullable<SeedResult['imports']>> {
  const imports: NonNullable<SeedResult['imports']> = { source: 'fixtures' };
  const files = referenceDataFiles(opts.referenceData ?? 'auto');
  imports.source = files.source;
  if (!(await models.Icd10Code.exists({}))) {
    imports.icd10 = await importIcd10(models.Icd10Code, files.icd10, { mode: 'insert', by });
    logger?.info({ ...imports.icd10, source: files.source }, 'ICD-10-CM codes imported');
  }
  if (!(await models.DiagnosisType.exists({}))) {
    imports.oncotree = await importOncoTree(models.DiagnosisType, files.oncotree, { mode: 'insert', by });
    logger?.info({ ...imports.oncotree, source: files.source }, 'OncoTree diagnosis types imported');
  }
  return imports;
}

/** A maintenance window a week ahead (2 hours; its banner from a day before) and a release note. */
async function seedNotices(models: ReferenceModels, now: Date, audit: Audit) {
  const start = new Date(Math.ceil((now.getTime() + 7 * DAY) / HOUR) * HOUR);
  await insertAll(models.MaintenanceWindow, [
    {
      _id: demoId('maintenance', 'first'),
      startTime: start,
      endTime: new Date(start.getTime() + 2 * HOUR),
      displayTime: new Date(start.getTime() - DAY),
      title: 'Scheduled maintenance',
      description: 'The Clinical Portal will be unavailable while we upgrade our systems.',
      body: 'During this window you cannot sign in or submit orders. Download the TRF document to order on paper.',
      ...audit,
    },
  ]);
  const rn = DEMO_RELEASE_NOTE;
  await insertAll(models.ReleaseNote, [
    {
      _id: demoId('releaseNote', `${rn.majorRevision}.${rn.minorRevision}.${rn.patchRevision}`),
      ...rn,
      revisionOrder: revisionOrder(rn.majorRevision, rn.minorRevision, rn.patchRevision),
      ...audit,
    },
  ]);
}

/** The demo physicians (their NPIs from the demo bases; phone and fax of their first location). */
function demoPhysicians(accountIds: string[], locationIds: string[][], audit: Audit) {
  return DEMO_PHYSICIANS.map((p) => {
    const npi = npiOf(p.npiBase);
    return {
      _id: demoId('physician', npi),
      userId: npi,
      firstName: p.firstName,
      middleName: p.middleName,
      lastName: p.lastName,
      name: `${p.firstName} ${p.lastName}`,
      phone: DEMO_ACCOUNTS[p.account].locations[p.locations[0]].address.telephone,
      fax: DEMO_ACCOUNTS[p.account].locations[p.locations[0]].address.fax,
      email: `${p.firstName[0].toLowerCase()}${p.lastName.toLowerCase()}@${p.account === 0 ? 'pacificoncology' : 'lakesidecancer'}.example.org`,
      status: p.status,
      accountIds: [accountIds[p.account]],
      hospitalLocationIds: p.locations.map((li) => locationIds[p.account][li]),
      ...audit,
    };
  });
}

/** The demo patients (PAT-000101 on), each of one demo physician, their account and first location. */
function demoPatients(accountIds: string[], physicians: ReturnType<typeof demoPhysicians>, audit: Audit) {
  return DEMO_PATIENTS.map((p, i) => {
    const userId = `PAT-${String(101 + i).padStart(6, '0')}`;
    const doctor = DEMO_PHYSICIANS[p.physician];
    return {
      _id: demoId('patient', userId),
      userId,
      firstName: p.firstName,
      middleName: p.middleName,
      lastName: p.lastName,
      name: `${p.firstName} ${p.lastName}`,
      race: null,
      ethnicity: null,
      address: { street: p.street, city: p.city, state: p.state, postalCode: p.zip, country: 'US' },
      phone: `${DEMO_ACCOUNTS[doctor.account].locations[0].address.telephone.slice(0, 3)}555${String(2000 + i * 37).slice(-4)}`,
      fax: null,
      email: `${p.firstName.toLowerCase()}.${p.lastName.toLowerCase()}@mail.example.com`,
      mrn: p.mrn,
      dateOfBirth: p.dob,
      birthSex: p.sex,
      trialName: null,
      studyPatientId: null,
      diagnosis: p.diagnosis,
      accountIds: [accountIds[doctor.account]],
      physicianIds: [physicians[p.physician]._id],
      // the physician's first location: the demo patients' Hospital filter has something to show
      hospitalLocationIds: physicians[p.physician].hospitalLocationIds.slice(0, 1),
      ...audit,
    };
  });
}

/** The accounts' people: locations, physicians, pathologists, patients, the id sequences, then the accounts. */
async function seedDirectory(models: ReferenceModels, audit: Audit) {
  const accountIds = DEMO_ACCOUNTS.map((a) => demoId('account', a.accountId));
  const locationIds = DEMO_ACCOUNTS.map((a) =>
    a.locations.map((l) => demoId('hospitalLocation', l.hospitalLocationId)),
  );
  await insertAll(
    models.HospitalLocation,
    DEMO_ACCOUNTS.flatMap((a, ai) =>
      a.locations.map((l, li) => ({
        _id: locationIds[ai][li],
        ...l,
        account: { id: accountIds[ai], name: a.name },
        ...audit,
      })),
    ),
  );
  const physicians = demoPhysicians(accountIds, locationIds, audit);
  await insertAll(models.Physician, physicians);
  await insertAll(
    models.Pathologist,
    DEMO_PATHOLOGISTS.map((p) => {
      const npi = npiOf(p.npiBase);
      return {
        _id: demoId('pathologist', npi),
        name: p.name,
        npi,
        phone: p.phone,
        email: p.email,
        fax: p.fax,
        accountIds: [accountIds[p.account]],
        ...audit,
      };
    }),
  );
  await insertAll(models.Patient, demoPatients(accountIds, physicians, audit));
  // human-id sequences continue after the demo ids (HL-1005, PAT-000111, ACC-1003)
  const sequences: Array<[string, number]> = [
    ['account', DEMO_ACCOUNTS.length],
    ['hospitalLocation', DEMO_ACCOUNTS.reduce((n, a) => n + a.locations.length, 0)],
    ['patient', DEMO_PATIENTS.length],
  ];
  await Promise.all(
    sequences.map(([name, seq]) =>
      models.Counter.updateOne({ _id: name }, { $max: { seq } }, { upsert: true }).exec(),
    ),
  );
  // accounts last: their presence is what marks the database as seeded
  await insertAll(
    models.Account,
    DEMO_ACCOUNTS.map((a, i) => ({
      _id: accountIds[i],
      accountId: a.accountId,
      name: a.name,
      sfdcId: a.sfdcId,
      status: 'ACTIVE',
      address: a.address,
      ...audit,
    })),
  );
  return { physicians };
}

/**
 * What the database holds, in a stable order: the demo records first in their seed order (so "the first
 * account" and "the first physician" mean the same on every call), then any others.
 */
async function existing(models: ReferenceModels): Promise<Omit<SeedResult, 'created' | 'imports'>> {
  const notDeleted = { deleted: { $ne: true } };
  const [accounts, locations, physicians, pathologists, patients] = await Promise.all([
    models.Account.find(notDeleted).lean().exec(),
    models.HospitalLocation.find(notDeleted).lean().exec(),
    models.Physician.find(notDeleted).lean().exec(),
    models.Pathologist.find(notDeleted).lean().exec(),
    models.Patient.find(notDeleted).lean().exec(),
  ]);
  const order = (ids: string[]) => {
    const rank = new Map(ids.map((id, i) => [id, i]));
    return <T extends { _id: string }>(a: T, b: T, tie: (x: T) => string) =>
      (rank.get(a._id) ?? Infinity) - (rank.get(b._id) ?? Infinity) || tie(a).localeCompare(tie(b));
  };
  const accOrder = order(DEMO_ACCOUNTS.map((a) => demoId('account', a.accountId)));
  const locOrder = order(
    DEMO_ACCOUNTS.flatMap((a) => a.locations.map((l) => demoId('hospitalLocation', l.hospitalLocationId))),
  );
  const phyOrder = order(DEMO_PHYSICIANS.map((p) => demoId('physician', npiOf(p.npiBase))));
  const pathOrder = order(DEMO_PATHOLOGISTS.map((p) => demoId('pathologist', npiOf(p.npiBase))));
  const patOrder = order(
    DEMO_PATIENTS.map((_, i) => demoId('patient', `PAT-${String(101 + i).padStart(6, '0')}`)),
  );
  return {
    accounts: accounts
      .sort((a, b) => accOrder(a, b, (x) => x.accountId))
      .map((a) => ({ id: a._id, name: a.name, accountId: a.accountId })),
    hospitalLocations: locations
      .sort((a, b) => locOrder(a, b, (x) => x.hospitalLocationId))
      .map((l) => ({ id: l._id, name: l.name, accountId: l.account.id })),
    physicians: physicians
      .sort((a, b) => phyOrder(a, b, (x) => x.userId))
      .map((p) => ({
        id: p._id,
        name: p.name,
        userId: p.userId,
        status: p.status,
        accountIds: p.accountIds,
      })),
    pathologists: pathologists
      .sort((a, b) => pathOrder(a, b, (x) => x.name))
      .map((p) => ({ id: p._id, name: p.name, accountIds: p.accountIds })),
    patients: patients
      .sort((a, b) => patOrder(a, b, (x) => x.userId))
      .map((p) => ({
        id: p._id,
        name: p.name,
        userId: p.userId,
        accountIds: p.accountIds,
        physicianIds: p.physicianIds,
      })),
  };
}
