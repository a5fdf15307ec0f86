/**
 * The fuzz run's data (scripts/fuzz.ts): reference data once, one fuzz user per role, and before each role's run a
 * bundle of its own real records (a draft and a submitted requisition with its test order, sample and billing case,
 * a message thread, an attachment, a maintenance window, a throwaway user and association...), made through the
 * API as a provider and an administrator do, so the fuzzer's operations reach their logic instead of a 404.
 */
import { ROLE_PERMISSIONS, ROLES, type Role } from '@onco/domain';
import { billingModels, upsertBillingSpecialists } from '@onco/billing';
import { identityModels } from '@onco/identity';
import { labModels, seedDomainPreferences } from '@onco/lab';
import { createReferenceModule, referenceModels } from '@onco/reference';
import type { System } from '@onco/server';
import { createUser, login, multipart, TEST_PASSWORD, waitFor, type Auth } from '@onco/testing';

const PORTAL = '/portal/api/v1';
const isoDaysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/** What every role's run shares: the accounts, parties and users made once. */
export interface FuzzBase {
  accounts: [string, string];
  /** the first account's physicians: [0] the providers', [1] another */
  physicians: string[];
  /** a physician of the second account only (the target of writes on physicians) */
  otherPhysician: string;
  locations: { first: string; second: string };
  pathologist: string;
  /** patients of the first account: [0] on the requisitions, the others for writes and merges */
  patients: string[];
  /** the fuzz user of each role (password TEST_PASSWORD) */
  users: Record<Role, { id: string; loginId: string }>;
  /** the provider and the administrator that make each bundle (never fuzzed with) */
  seeder: { provider: Auth; admin: Auth; adminId: string };
  billingSpecialist: string;
  diagnosisCode: string;
}

/** One role's own records. */
export interface FuzzBundle {
  draft: string;
  /** a draft for DELETE */
  doomedDraft: string;
  submitted: string;
  submittedTrfNumber: string;
  testOrder: string;
  sample: string | null;
  billingCase: string;
  message: string;
  attachment: string;
  maintenance: string;
  targetUser: { id: string; email: string };
  association: string;
  patientMerge: string | null;
}

/** Reference data (fixtures), one fuzz user per role (`fuzz.<role>`), the seeding provider and administrator. */
export async function seedBase(sys: System): Promise<FuzzBase> {
  const reference = createReferenceModule(sys.ctx);
  const ref = await reference.seedReference({ referenceData: 'fixtures' });
  await seedDomainPreferences(labModels(sys.ctx.mongo));
  const [first, second] = ref.accounts;
  const of = (accountId: string) => ref.physicians.filter((p) => p.accountIds.includes(accountId));
  const physicians = of(first.id).map((p) => p.id);
  const otherPhysician = of(second.id).find((p) => !physicians.includes(p.id))?.id ?? of(second.id)[0].id;
  const providerOf: Partial<Record<Role, string>> = {
    ROLE_NPI: physicians[0],
    ROLE_PHYSICIAN: physicians[1] ?? physicians[0],
    ROLE_ADDITIONAL_PHYSICIAN: physicians[2] ?? physicians[0],
  };
  const users = {} as FuzzBase['users'];
  for (const role of ROLES) {
    const u = await createUser(sys, role, {
      loginId: `fuzz.${role.replace(/^ROLE_/, '').toLowerCase()}`,
      account: { id: first.id, name: first.name },
      physicianId: providerOf[role] ?? null,
    });
    users[role] = { id: u._id, loginId: u.loginId };
  }
  const seederProvider = await createUser(sys, 'ROLE_NPI', {
    loginId: 'fuzz.seeder.provider',
    account: { id: first.id, name: first.name },
    physicianId: physicians[0],
  });
  const seederAdmin = await createUser(sys, 'ROLE_PORTAL_ADMIN', {
    loginId: 'fuzz.seeder.admin',
    account: { id: first.id, name: first.name },
  });
  // the billing specialists (Assign Billing User): the fuzz users whose role has the billing actions
  const billers = ROLES.filter((r) => ROLE_PERMISSIONS[r].includes('VIEW_BILLING_ACTIONS'));
  await upsertBillingSpecialists(
    billingModels(sys.ctx.mongo).BillingSpecialist,
    billers.map((r) => ({
      id: users[r].id,
      name: `Fuzz ${r}`,
      email: `${users[r].loginId}@clinic.example.org`,
    })),
  );
  const m = referenceModels(sys.ctx.mongo);
  const loc = async (accountId: string) =>
    (await m.HospitalLocation.findOne({ 'account.id': accountId }).lean().exec())!._id as string;
  const patients = (await m.Patient.find({ accountIds: first.id }).limit(6).lean().exec()).map(
    (p) => p._id as string,
  );
  const diagnosis = await m.DiagnosisType.findOne({}).lean().exec();
  return {
    accounts: [first.id, second.id],
    physicians,
    otherPhysician,
    locations: { first: await loc(first.id), second: await loc(second.id) },
    pathologist: ref.pathologists[0].id,
    patients,
    users,
    seeder: {
      provider: { authorization: (await login(sys, seederProvider.loginId)).authorization },
      admin: { authorization: (await login(sys, seederAdmin.loginId)).authorization },
      adminId: seederAdmin._id,
    },
    billingSpecialist: users[billers[0]].id,
    diagnosisCode: (diagnosis as { code?: string } | null)?.code ?? 'LUNG',
  };
}

/** A complete NEXT_DX requisition of the first account's provider for the base's first patient. */
export async function requisitionForm(sys: System, base: FuzzBase) {
  const m = referenceModels(sys.ctx.mongo);
  const p = (await m.Patient.findById(base.patients[0]).lean().exec())!;
  const physician = (await m.Physician.findById(base.physicians[0]).lean().exec())!;
  const account = (await m.Account.findById(base.accounts[0]).lean().exec())!;
  const location = (await m.HospitalLocation.findById(base.locations.first).lean().exec())!;
  return {
    orderInformation: { nextDx: true, nextPersonalDx: false, orderType: null },
    patient: {
      id: p._id,
      userId: p.userId,
      firstName: p.firstName,
      lastName: p.lastName,
      name: p.name,
      dateOfBirth: p.dateOfBirth,
      birthSex: p.birthSex ?? 'FEMALE',
      mrn: p.mrn ?? null,
      phone: p.phone ?? null,
      address: p.address?.street
        ? p.address
        : { street: '100 Fuzz Way', city: 'San Diego', state: 'CA', postalCode: '92101', country: 'US' },
    },
    physician: {
      id: physician._id,
      userId: physician.userId,
      firstName: physician.firstName,
      lastName: physician.lastName,
      name: physician.name,
      email: physician.email ?? 'fuzz.physician@clinic.example.org',
    },
    account: { id: account._id, accountId: account.accountId, name: account.name },
    hospitalLocation: {
      id: location._id,
      name: location.name,
      hospitalLocationId: location.hospitalLocationId,
      address: location.address,
    },
    tumorSpecimen: {
      diagnosis: 'LUNG',
      icd10Codes: 'C34.90',
      specimenType: 'FFPE_SLIDES',
      collectionDate: isoDaysAgo(20),
      stage: 'II',
    },
    normalSpecimen: {
      specimenType: 'BLOOD',
      collectionMode: 'COLLECT_IN_CLINIC',
      collectionDate: isoDaysAgo(3),
    },
    billings: [{ billingType: 'SELF', preference: 'PRIMARY' }],
    consent: true,
  };
}

async function call(sys: System, auth: Auth, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) {
  const res = await sys.app.inject({
    method,
    url,
    headers: auth,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  if (res.statusCode >= 300)
    throw new Error(`seeding: ${method} ${url} answered ${res.statusCode} ${res.body}`);
  return res.json();
}

/** The records of one role's run, made through the API and the workers (it waits for the lab and billing). */
export async function seedBundle(sys: System, base: FuzzBase, tag: string): Promise<FuzzBundle> {
  const { provider, admin } = base.seeder;
  const form = await requisitionForm(sys, base);
  const draft = (await call(sys, provider, 'POST', `${PORTAL}/testOrderForms`, form)).id as string;
  const doomedDraft = (await call(sys, provider, 'POST', `${PORTAL}/testOrderForms`, form)).id as string;
  const toSubmit = (await call(sys, provider, 'POST', `${PORTAL}/testOrderForms`, form)).id as string;
  await call(sys, provider, 'POST', `${PORTAL}/testOrderForms/${toSubmit}/sign`, { password: TEST_PASSWORD });
  const submitted = await call(sys, provider, 'POST', `${PORTAL}/testOrderForms/submit?createPdf=true`, {
    id: toSubmit,
  });
  const testOrder = submitted.testOrders[0].id as string;
  const lab = labModels(sys.ctx.mongo);
  const billing = billingModels(sys.ctx.mongo);
  await waitFor(async () => ((await lab.TestOrder.exists({ _id: testOrder })) ? true : null), {
    what: 'the lab test order',
    timeoutMs: 60_000,
  });
  const billingCase = await waitFor(
    async () => (await billing.BillingCase.findOne({ testOrderFormId: toSubmit }).lean().exec())?._id ?? null,
    { what: 'the billing case', timeoutMs: 60_000 },
  );
  const sample = await lab.Sample.findOne({ 'testOrderForm.id': toSubmit }).lean().exec();
  const message = (
    await call(sys, provider, 'POST', '/cns/api/v1/messages', {
      subject: `fuzz ${tag}`,
      messageBody: 'A question about the order',
      type: 'CASE',
      testOrderForm: { id: toSubmit },
    })
  ).id as string;
  const upload = multipart([
    { name: 'type', value: 'NOTE' },
    { name: 'testOrderFormId', value: toSubmit },
    { name: 'file', filename: 'note.pdf', data: Buffer.from('%PDF-1.4 a fuzz note') },
  ]);
  const up = await sys.app.inject({
    method: 'POST',
    url: `${PORTAL}/attachments/upload`,
    headers: { ...provider, ...upload.headers },
    payload: upload.payload,
  });
  if (up.statusCode >= 300)
    throw new Error(`seeding: attachment upload answered ${up.statusCode} ${up.body}`);
  const maintenance = (
    await call(sys, admin, 'POST', `${PORTAL}/maintenance`, {
      startTime: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      endTime: new Date(Date.now() + 30 * 86_400_000 + 3_600_000).toISOString(),
      title: `fuzz ${tag}`,
      description: 'a window the fuzzer may delete',
    })
  ).id as string;
  const target = await createUser(sys, 'ROLE_NPI', {
    loginId: `fuzz.target.${tag}`,
    account: { id: base.accounts[0], name: 'first' },
    physicianId: base.physicians[0],
  });
  const association = (
    await call(sys, admin, 'POST', `${PORTAL}/associations`, {
      ownerId: target._id,
      type: 'ACCOUNT',
      accountId: base.accounts[1],
    })
  ).id as string;
  const { User } = identityModels(sys.ctx.mongo);
  const targetUser = (await User.findById(target._id).lean().exec())!;
  const merge = await referenceModels(sys.ctx.mongo).PatientMerge.findOne({}, { _id: 1 }).lean().exec();
  return {
    draft,
    doomedDraft,
    submitted: toSubmit,
    submittedTrfNumber: submitted.testRequisitionId as string,
    testOrder,
    sample: (sample?._id as string | undefined) ?? null,
    billingCase: billingCase as string,
    message,
    attachment: up.json().id as string,
    maintenance,
    targetUser: { id: target._id, email: targetUser.email as string },
    association,
    patientMerge: (merge?._id as string | undefined) ?? null,
  };
}
