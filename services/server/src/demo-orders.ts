import { API } from '@onco/domain';
import type { FastifyInstance } from 'fastify';
import type { Config, PlatformContext } from '@onco/platform';
import { referenceModels } from '@onco/reference';
import { requisitionModels } from '@onco/requisitions';
import { demoLogin } from './seed';

const DIAGNOSES: Array<[string, string]> = [
  ['LUNG', 'C34.90'],
  ['BREAST', 'C50.911'],
  ['COLORECTAL', 'C18.9'],
  ['MELANOMA', 'C43.9'],
  ['PROSTATE', 'C61'],
];

const isoDaysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

type DemoHeaders = { authorization: string };
const noOrders = () => ({ submitted: 0, drafts: 0 });

/** Sign the demo provider in (`npi`): the headers of its session, or null (logged) when it cannot sign in. */
async function signInDemoProvider(
  app: FastifyInstance,
  ctx: PlatformContext,
  config: Config,
): Promise<DemoHeaders | null> {
  const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
  const auth = await app.inject({
    method: 'POST',
    url: `${API.uam}/authenticate`,
    payload: { username: b64(demoLogin('ROLE_NPI')), password: b64(config.DEMO_PASSWORD) },
  });
  if (auth.statusCode !== 200) {
    ctx.logger.warn({ status: auth.statusCode }, 'demo orders skipped: the demo provider cannot sign in');
    return null;
  }
  return { authorization: `Bearer ${auth.json().token}` };
}

/**
 * The demo provider's physician and account, the account's first hospital location and up to 10 of its patients;
 * null (logged) when the provider has no physician or account.
 */
async function demoParties(app: FastifyInstance, ctx: PlatformContext, headers: DemoHeaders) {
  const session = (await app.inject({ method: 'GET', url: `${API.uam}/session`, headers })).json();
  const physicianId: string | undefined = session.physicianIds?.[0];
  const accountId: string | undefined = session.accountIds?.[0];
  // read through the reference module's models (their collections, casts and defaults), never raw
  const ref = referenceModels(ctx.mongo);
  const physician = physicianId ? await ref.Physician.findById(physicianId).lean().exec() : null;
  const account = accountId ? await ref.Account.findById(accountId).lean().exec() : null;
  if (!physician || !account) {
    ctx.logger.warn('demo orders skipped: the demo provider has no physician or account');
    return null;
  }
  const location = await ref.HospitalLocation.findOne({ 'account.id': account._id }).lean().exec();
  const patients = await ref.Patient.find({ accountIds: account._id }).limit(10).lean().exec();
  return { physician, account, location, patients };
}
type DemoParties = NonNullable<Awaited<ReturnType<typeof demoParties>>>;

/** The requisition form of the i-th demo order, for patient `p`. */
function demoForm(
  i: number,
  p: DemoParties['patients'][number],
  { physician, account, location }: DemoParties,
) {
  // the patient's own diagnosis when the demo knows its code (no prostate cancer for a woman), else the next one
  const [diagnosis, icd] = DIAGNOSES.find(([d]) => d === p.diagnosis) ?? DIAGNOSES[i % DIAGNOSES.length]!;
  const personal = i % 3 === 2;
  return {
    orderInformation: {
      nextDx: !personal,
      nextPersonalDx: personal,
      orderType: personal ? 'INITIAL_ORDER' : null,
    },
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
        : { street: '100 Demo Way', city: 'San Diego', state: 'CA', postalCode: '92101', country: 'US' },
    },
    physician: {
      id: physician._id,
      userId: physician.userId,
      firstName: physician.firstName,
      lastName: physician.lastName,
      name: physician.name,
      email: physician.email ?? `${String(physician._id)}@demo.oncotrf.example.org`,
    },
    account: { id: account._id, accountId: account.accountId, name: account.name },
    hospitalLocation: location
      ? {
          id: location._id,
          name: location.name,
          hospitalLocationId: location.hospitalLocationId,
          address: location.address,
        }
      : null,
    tumorSpecimen: {
      diagnosis,
      icd10Codes: icd,
      specimenType: 'FFPE_SLIDES',
      collectionDate: isoDaysAgo(20 + i),
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

/**
 * Demo requisitions for a newcomer's first look (DEMO_MODE only, once: when there are none yet): the demo
 * provider (`npi`) starts, signs and submits orders for the demo patients THROUGH THE API, so the lab's test
 * orders, the events and the TRF PDFs come from the real flow; a few more stay drafts.
 */
export async function seedDemoOrders(
  app: FastifyInstance,
  ctx: PlatformContext,
  config: Config,
  opts: { submitted?: number; drafts?: number } = {},
): Promise<{ submitted: number; drafts: number }> {
  if (!config.DEMO_MODE) return noOrders();
  if ((await requisitionModels(ctx.mongo).Requisition.estimatedDocumentCount().exec()) > 0) {
    return noOrders();
  }
  const headers = await signInDemoProvider(app, ctx, config);
  if (!headers) return noOrders();
  const parties = await demoParties(app, ctx, headers);
  if (!parties) return noOrders();
  const { patients } = parties;
  const wanted = { submitted: opts.submitted ?? 5, drafts: opts.drafts ?? 2 };
  let submitted = 0;
  let drafts = 0;
  if (!patients.length) return noOrders();
  // the first ones stay drafts; a patient may have several orders
  for (let i = 0; i < wanted.drafts + wanted.submitted; i++) {
    const p = patients[i % patients.length];
    const form = demoForm(i, p, parties);
    const draft = await app.inject({
      method: 'POST',
      url: `${API.portal}/testOrderForms`,
      headers,
      payload: form,
    });
    if (draft.statusCode !== 200) {
      ctx.logger.warn({ status: draft.statusCode, body: draft.body }, 'demo order not created');
      continue;
    }
    const id = draft.json().id;
    if (i < wanted.drafts) {
      drafts++;
      continue;
    }
    await app.inject({
      method: 'POST',
      url: `${API.portal}/testOrderForms/${id}/sign`,
      headers,
      payload: { password: config.DEMO_PASSWORD },
    });
    const res = await app.inject({
      method: 'POST',
      url: `${API.portal}/testOrderForms/submit?createPdf=true`,
      headers,
      payload: { id },
    });
    if (res.statusCode === 200) submitted++;
    else ctx.logger.warn({ status: res.statusCode, body: res.body }, 'demo order not submitted');
  }
  ctx.logger.info({ submitted, drafts }, 'demo orders ready');
  return { submitted, drafts };
}
