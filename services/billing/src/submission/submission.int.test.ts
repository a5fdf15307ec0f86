import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import type { SessionUser } from '@onco/platform';
import { eventsIn, REPO_ROOT, user, waitFor } from '@onco/testing';
import { createReferenceModule } from '@onco/reference';
import { createBillingModule, type BillingCaseDoc, type BillingModule } from '../index';
import { CLAIM_INFO, qualifiedCase } from '../../test/fixtures';
import { useGatewaySystem } from '../../test/submission-system';
import { billingSubmitJobId } from './submit-job';
import { submitCases } from './routes';

/**
 * Submitting billing cases (issue 13, spec 3 sections 4.3 and 7.3) on the real services: the route, the
 * billing-submit worker (BullMQ on Redis), the store, the outbox relay to Kafka, and the billing gateway stand-in
 * on a loopback port. 3 attempts, 200 ms first backoff, 1 s gateway timeout.
 */
describe('billing submission: submit, worker, gateway stand-in (real Redis, the store, Kafka)', () => {
  let billing: BillingModule;
  let n = 0;
  const { sys, h, collector, gateway } = useGatewaySystem({
    tag: 'sub',
    standin: { slowMs: 2500 },
    kafka: true,
    config: (url) => ({
      WORKERS: 'true',
      BILLING_GATEWAY_URL: url,
      BILLING_SUBMIT_BACKOFF_MS: '200',
      BILLING_SUBMIT_ATTEMPTS: '3',
      BILLING_GATEWAY_TIMEOUT_MS: '1000',
    }),
    prepare: async () => {
      billing = createBillingModule(sys.ctx, { diagnosisCodes: createReferenceModule(sys.ctx).icd10Catalog });
    },
    collect: ['billing-case'],
    users: {
      admin: 'ROLE_ADMINISTRATOR',
      npi: user('ROLE_NPI', { account: { id: 'acc-A', name: 'Alpha Oncology' } }),
    },
    timeout: 120_000,
  });

  const newCase = async (billingCode: string | null, over: Record<string, unknown> = {}) => {
    n += 1;
    const doc = await billing.models.BillingCase.create(qualifiedCase('sub', n, { billingCode, ...over }));
    return doc._id as string;
  };
  /** Put a case in QUEUED_FOR_SUBMISSION (generation 1) as Submit would, without adding its job. */
  const queueWithoutJob = (id: string) =>
    billing.models.BillingCase.updateOne(
      { _id: id },
      {
        $set: {
          caseStatus: 'QUEUED_FOR_SUBMISSION',
          submission: { generation: 1, attempts: 0, lastError: null, queuedOn: new Date(), queuedBy: 'u' },
        },
        $inc: { version: 1 },
      },
    ).exec();
  const get = (id: string) =>
    billing.models.BillingCase.findById(id).lean<BillingCaseDoc>().exec() as Promise<BillingCaseDoc>;
  const submit = (id: string, who: keyof typeof h = 'admin') =>
    sys.app.inject({ method: 'POST', url: `/bis/api/v1/billing/submit/${id}`, headers: h[who] });
  const settle = (id: string, status: string, timeoutMs = 20_000) =>
    waitFor(async () => ((await get(id))?.caseStatus === status ? get(id) : null), {
      what: `case ${id} in ${status}`,
      timeoutMs,
    });
  const history = (c: BillingCaseDoc) => c.caseHistory.map((e) => e.status);
  const eventsOf = (id: string) => eventsIn(collector.messages, id).map((e) => e.data);
  /** a new case of `billingCode` submitted through the API (200), read back once it is in `status` */
  const submitted = async (billingCode: string, status: string) => {
    const id = await newCase(billingCode);
    expect((await submit(id)).statusCode).toBe(200);
    return { id, done: await settle(id, status) };
  };
  /** the claims the gateway holds for submission `generation` of case `id` */
  const claimsOf = (id: string, generation = 1) =>
    gateway.claims().filter((c) => c.key === `${id}:${generation}`);
  const SENT = ['QUEUED_FOR_SUBMISSION', 'SUBMITTED_TO_XIFIN'];
  const RETRY = ['RETRY_SCHEDULED', 'RETRY_IN_PROGRESS'];

  it('submits an accepted claim: QUEUED_FOR_SUBMISSION, SUBMITTED_TO_XIFIN, ACCEPTED_BY_XIFIN, each an event', async () => {
    const id = await newCase('ACC-0340U');
    const res = await submit(id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'Submitted successfully' });
    const done = await settle(id, 'ACCEPTED_BY_XIFIN');
    expect(history(done)).toEqual([...SENT, 'ACCEPTED_BY_XIFIN']);
    expect(done.errorDetails).toBeNull();
    expect(done.submission).toMatchObject({ generation: 1, attempts: 1, lastError: null });

    // the gateway holds exactly this claim, under the case id and the generation
    const held = claimsOf(id);
    expect(held).toHaveLength(1);
    expect(held[0].claim).toMatchObject({
      billingCaseId: id,
      generation: 1,
      accession: done.testId,
      billingCode: 'ACC-0340U',
      patient: { id: done.patient!.id, name: done.patient!.name },
      orderingProvider: { id: 'phy-1', name: 'Dr. One' },
      account: { id: 'acc-A', name: 'Alpha Oncology' },
      test: { type: 'NEXT_DX', orderType: 'INITIAL_ORDER' },
      payor: { billingType: 'INSURANCE', payorId: 'PAY-001', name: 'Acme Health' },
      diagnosisCodes: ['C34.90'],
    });

    // one billing-case event per step, in order, through the outbox and Kafka
    const events = await waitFor(() => (eventsOf(id).length >= 3 ? eventsOf(id) : null), {
      what: 'three billing-case events',
      timeoutMs: 30_000,
    });
    expect(events.map((e) => [e.previousStatus, e.caseStatus])).toEqual([
      ['READY_TO_SUBMIT', 'QUEUED_FOR_SUBMISSION'],
      ['QUEUED_FOR_SUBMISSION', 'SUBMITTED_TO_XIFIN'],
      ['SUBMITTED_TO_XIFIN', 'ACCEPTED_BY_XIFIN'],
    ]);
    expect(events[0].changedBy.id).not.toBe('system');
    // the SUBMITTED_TO_XIFIN step is written without reading the case first (queue.ts markSubmitted): its event
    // says the same of the case as the others, at the time of its history entry
    expect(events[1]).toMatchObject({
      billingCaseId: id,
      testOrderId: done.testOrderId,
      requisitionId: done.testOrderFormId,
      billingCode: 'ACC-0340U',
      errorDetails: null,
      changedBy: { id: 'system', name: 'system' },
      changedOn: new Date(done.caseHistory[1].createdOn).toISOString(),
    });
    expect(events[2].changedBy).toEqual({ id: 'system', name: 'system' });
    expect(events[2]).toMatchObject({ billingCaseId: id, billingCode: 'ACC-0340U', errorDetails: null });
  });

  it.each([
    ['PAR-1', 'PARTIALLY_ACCEPTED', 'PAR-101'],
    ['REJ-1', 'REJECTED_BY_XIFIN', 'REJ-201'],
    ['DUP-1', 'DUPLICATE_ACCESSION', 'DUP-301'],
    ['UNA-1', 'UPDATE_NOT_ALLOWED', 'UNA-401'],
  ])('billing code %s ends %s with the gateway error details', async (code, status, errorCode) => {
    const { id, done } = await submitted(code, status);
    expect(history(done)).toEqual([...SENT, status]);
    expect(done.errorDetails).toContain(errorCode);
    expect(done.caseHistory.at(-1)!.errorDetails).toContain(errorCode);
    expect(claimsOf(id)).toHaveLength(1);
  });

  it('payor system down on every attempt: RETRY_SCHEDULED, RETRY_IN_PROGRESS ... RETRY_FAILED; nothing stored', async () => {
    const { id, done } = await submitted('PDN-1', 'RETRY_FAILED');
    expect(history(done)).toEqual([...SENT, ...RETRY, ...RETRY, 'RETRY_FAILED']);
    expect(done.errorDetails).toMatch(/^Payor system down: PDN-501/);
    expect(done.submission).toMatchObject({ generation: 1, attempts: 3 });
    expect(gateway.posts(`${id}:1`)).toBe(3);
    expect(claimsOf(id)).toHaveLength(0);
  });

  it('a 500 on every attempt ends RETRY_FAILED; fixed and submitted again it is accepted under a new generation', async () => {
    const { id, done: failed } = await submitted('E500-1', 'RETRY_FAILED');
    expect(failed.errorDetails).toContain('HTTP 500');
    expect(gateway.posts(`${id}:1`)).toBe(3);

    await billing.models.BillingCase.updateOne({ _id: id }, { $set: { billingCode: 'ACC-2' } }).exec();
    expect((await submit(id)).statusCode).toBe(200);
    const done = await settle(id, 'ACCEPTED_BY_XIFIN');
    expect(done.submission).toMatchObject({ generation: 2, attempts: 1 });
    expect(history(done).slice(-3)).toEqual([...SENT, 'ACCEPTED_BY_XIFIN']);
    expect(
      gateway
        .claims()
        .filter((c) => c.key.startsWith(`${id}:`))
        .map((c) => c.key),
    ).toEqual([`${id}:2`]);
  });

  it('fails twice then accepts: RETRY_SCHEDULED, RETRY_IN_PROGRESS, RETRY_SUCCEEDED, ACCEPTED_BY_XIFIN', async () => {
    const { id, done } = await submitted('FAIL2-ACC', 'ACCEPTED_BY_XIFIN');
    expect(history(done)).toEqual([...SENT, ...RETRY, ...RETRY, 'RETRY_SUCCEEDED', 'ACCEPTED_BY_XIFIN']);
    expect(done.errorDetails).toBeNull();
    expect(done.submission).toMatchObject({ attempts: 3, lastError: null });
    expect(gateway.posts(`${id}:1`)).toBe(3);
    expect(claimsOf(id)).toHaveLength(1);
  });

  it('a slow answer times out and is retried; the retry gets the stored answer and no second claim', async () => {
    const { id, done } = await submitted('SLOW-1', 'ACCEPTED_BY_XIFIN');
    expect(history(done)).toEqual([...SENT, ...RETRY, 'RETRY_SUCCEEDED', 'ACCEPTED_BY_XIFIN']);
    expect(done.caseHistory[2].errorDetails).toContain('did not answer within 1000 ms');
    expect(gateway.posts(`${id}:1`)).toBe(2);
    expect(claimsOf(id)).toHaveLength(1);
  });

  it('a re-run job (crash between send and record, duplicate add, stale generation) never stores a second claim', async () => {
    const { id } = await submitted('ACC-RERUN', 'ACCEPTED_BY_XIFIN');
    // a duplicate add of the same submission is a no-op (same job id)
    const job = await billing.submission.add({ caseId: id, generation: 1 });
    expect(job.id).toBe(billingSubmitJobId(id, 1));
    // the worker died after sending, before recording: the case is still SUBMITTED_TO_XIFIN when the job re-runs
    await billing.models.BillingCase.updateOne(
      { _id: id },
      { $set: { caseStatus: 'SUBMITTED_TO_XIFIN' }, $inc: { version: 1 } },
    ).exec();
    const rerun = await billing.submission.exec({
      data: { caseId: id, generation: 1 },
      attemptsMade: 0,
      opts: { attempts: 3 },
    });
    expect(rerun).toEqual({ outcome: 'answered', status: 'ACCEPTED_BY_XIFIN' });
    expect(gateway.posts(`${id}:1`)).toBe(2);
    expect(gateway.claims().filter((c) => c.key.startsWith(`${id}:`))).toHaveLength(1);
    // an answered case, or an older generation, sends nothing
    expect(
      await billing.submission.exec({ data: { caseId: id, generation: 1 }, attemptsMade: 0, opts: {} }),
    ).toEqual({ outcome: 'skipped', reason: 'not-sending' });
    expect(
      await billing.submission.exec({ data: { caseId: id, generation: 0 }, attemptsMade: 0, opts: {} }),
    ).toEqual({ outcome: 'skipped', reason: 'stale' });
    expect(gateway.posts(`${id}:1`)).toBe(2);
  });

  it('a job whose case changed since Submit queued it reads the case and sends what it holds now', async () => {
    const id = await newCase('ACC-CHANGED');
    await queueWithoutJob(id);
    // the job says what Submit saw; the billing code changed since (a direct write: the API refuses it while queued)
    const result = await billing.submission.exec({
      data: {
        caseId: id,
        generation: 1,
        queued: {
          testOrderId: (await get(id)).testOrderId,
          testOrderFormId: 'tof-sub-x',
          billingCode: 'ACC-OLD',
        },
      },
      attemptsMade: 0,
      opts: { attempts: 3 },
    });
    expect(result).toEqual({ outcome: 'answered', status: 'ACCEPTED_BY_XIFIN' });
    const done = await get(id);
    expect(history(done)).toEqual(['SUBMITTED_TO_XIFIN', 'ACCEPTED_BY_XIFIN']);
    expect(
      gateway
        .claims()
        .filter((c) => c.key === `${id}:1`)
        .map((c) => c.claim.billingCode),
    ).toEqual(['ACC-CHANGED']);
    const events = await waitFor(() => (eventsOf(id).length >= 2 ? eventsOf(id) : null), {
      what: 'two billing-case events',
      timeoutMs: 30_000,
    });
    expect(events.map((e) => [e.caseStatus, e.billingCode, e.requisitionId])).toEqual([
      ['SUBMITTED_TO_XIFIN', 'ACC-CHANGED', done.testOrderFormId],
      ['ACCEPTED_BY_XIFIN', 'ACC-CHANGED', done.testOrderFormId],
    ]);
  });

  it('bulk submit: a case changed between its read and the bulk write is decided again on its own', async () => {
    const moved = await newCase('ACC-RACE-1');
    const cancelled = await newCase('ACC-RACE-2');
    const calm = await newCase('ACC-RACE-3');
    const entries = (id: string) => get(id).then((c) => c.caseHistory.length);
    // the ICD-10 look-up runs between the chunk's read and its write: two writers get in there
    let raced = false;
    const catalog = {
      invalidCodes: async (codes: readonly string[]) => {
        if (!raced) {
          raced = true;
          await billing.models.BillingCase.updateOne({ _id: moved }, { $inc: { version: 1 } }).exec();
          await billing.models.BillingCase.updateOne(
            { _id: cancelled },
            { $set: { caseStatus: 'CANCELLED' }, $inc: { version: 1 } },
          ).exec();
        }
        return createReferenceModule(sys.ctx).icd10Catalog.invalidCodes(codes);
      },
    };
    // billing staff (every account), as the route would have it from the session
    const user = {
      id: 'u-biller',
      loginId: 'biller',
      firstName: 'Bea',
      lastName: 'Biller',
      role: 'ROLE_ADMINISTRATOR',
      status: 'ACTIVE',
      grantedAuthorities: [],
      accountIds: [],
      physicianIds: [],
      allAccounts: true,
      tokenVersion: 0,
    } as unknown as SessionUser;
    const results = await submitCases({ models: billing.models, queue: billing.submission, catalog }, user, [
      moved,
      cancelled,
      calm,
    ]);
    expect(raced).toBe(true);
    expect(results.map((r) => [r.id, r.submitted])).toEqual([
      [moved, true],
      [cancelled, false],
      [calm, true],
    ]);
    expect(results[1].message).toMatch(/CANCELLED/);
    await settle(moved, 'ACCEPTED_BY_XIFIN');
    await settle(calm, 'ACCEPTED_BY_XIFIN');
    expect(history(await get(moved))).toEqual([...SENT, 'ACCEPTED_BY_XIFIN']);
    expect(await entries(cancelled)).toBe(0);
    expect((await get(cancelled)).caseStatus).toBe('CANCELLED');
    for (const id of [moved, calm])
      expect(
        gateway
          .claims()
          .filter((c) => c.key.startsWith(`${id}:`))
          .map((c) => c.key),
      ).toEqual([`${id}:1`]);
    expect(gateway.claims().filter((c) => c.key.startsWith(`${cancelled}:`))).toHaveLength(0);
  });

  it('requeue gives a queued case whose job was lost its job back, and does nothing twice', async () => {
    const id = await newCase('ACC-LOST');
    // a case queued by Submit whose job add never reached Redis
    await queueWithoutJob(id);
    expect(await billing.submission.requeue()).toBeGreaterThanOrEqual(1);
    const done = await settle(id, 'ACCEPTED_BY_XIFIN');
    expect(history(done)).toEqual(['SUBMITTED_TO_XIFIN', 'ACCEPTED_BY_XIFIN']);
    expect(await billing.submission.requeue()).toBe(0);
    expect(gateway.claims().filter((c) => c.key.startsWith(`${id}:`))).toHaveLength(1);
  });

  it('409 with the reason when spec 3 section 4.3 forbids the submit; the case is unchanged', async () => {
    const cases = [
      [await newCase('ACC-1', { caseStatus: 'ACCEPTED_BY_XIFIN' }), /status ACCEPTED_BY_XIFIN/],
      [await newCase('ACC-1', { caseStatus: 'DUPLICATE_ACCESSION' }), /status DUPLICATE_ACCESSION/],
      [await newCase('ACC-1', { testStatus: 'IN_PROGRESS' }), /no complete or amended report/],
      [await newCase('ACC-1', { reviewStatus: 'NEEDS_REVIEW' }), /review is not REVIEW_COMPLETE/],
      [await newCase('ACC-1', { caseStatus: 'RETRY_IN_PROGRESS' }), /being submitted/],
    ] as const;
    for (const [id, reason] of cases) {
      const res = await submit(id);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().message).toMatch(reason);
      expect((await get(id)).caseHistory).toHaveLength(0);
    }
    // REPORT_AMENDED qualifies; a second submit while queued or sent is refused
    const amended = await newCase('ACC-2', { testStatus: 'REPORT_AMENDED' });
    expect((await submit(amended)).statusCode).toBe(200);
    const again = await submit(amended);
    expect(again.statusCode).toBe(409);
    await settle(amended, 'ACCEPTED_BY_XIFIN');
  });

  it('400 with the list of what to fix before anything is sent', async () => {
    const id = await newCase(null, { patient: null, physician: { id: 'phy-1', name: null } });
    const res = await submit(id);
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json();
    expect(body.message).toContain('Billing Code is required');
    expect(body.details.problems.map((p: { field: string }) => p.field)).toEqual([
      'billingCode',
      'patient',
      'physician',
    ]);
    const after = await get(id);
    expect(after.caseStatus).toBe('READY_TO_SUBMIT');
    expect(after.caseHistory).toHaveLength(0);
    const sub = await newCase('ACC-3', { orderType: 'SUBSEQUENT_ORDER', timePoint: null });
    const res2 = await submit(sub);
    expect(res2.statusCode).toBe(400);
    expect(res2.json().details.problems).toEqual([
      { field: 'timePoint', message: 'Timepoint is required for a subsequent order' },
    ]);
  });

  it('pre-submit checks: billing type, payor, billable ICD-10 codes, Medicare address, drug name and stage; nothing is sent', async () => {
    const posts = gateway.claims().length;
    const refused = async (claimInfo: Record<string, unknown> | null) => {
      const id = await newCase('ACC-CHK', { claimInfo });
      const res = await submit(id);
      expect(res.statusCode, res.body).toBe(400);
      const after = await get(id);
      expect(after.caseStatus).toBe('READY_TO_SUBMIT');
      expect(after.caseHistory).toHaveLength(0);
      return res.json() as { message: string; details: { problems: { field: string; message: string }[] } };
    };
    // nothing known of the requisition's billing (events older than schemaVersion 4)
    expect((await refused(null)).details.problems).toEqual([
      { field: 'billingType', message: 'The requisition has no billing information (billing type)' },
      { field: 'diagnosisCodes', message: 'At least one ICD-10 diagnosis code is required' },
    ]);
    // insurance without a payor; a category (C34) and an unknown code are not billable codes
    const bad = await refused({ ...CLAIM_INFO, payorId: null, diagnosisCodes: ['C34.90', 'C34', 'X99.999'] });
    expect(bad.details.problems).toEqual([
      { field: 'payor', message: 'Payor is required for INSURANCE billing' },
      { field: 'diagnosisCodes', message: 'ICD-10 code C34 is not a valid billable code' },
      { field: 'diagnosisCodes', message: 'ICD-10 code X99.999 is not a valid billable code' },
    ]);
    expect(bad.message).toBe(
      'The billing case cannot be submitted until these are fixed: Payor is required for INSURANCE billing; ' +
        'ICD-10 code C34 is not a valid billable code; ICD-10 code X99.999 is not a valid billable code.',
    );
    // Medicare needs the patient's complete address
    expect(
      (await refused({ ...CLAIM_INFO, billingType: 'MEDICARE', patientAddressComplete: false })).details
        .problems,
    ).toEqual([
      {
        field: 'patientAddress',
        message: "The patient's address (street, city, state, postal code) is required for Medicare",
      },
    ]);
    // Medicare with a NeXT Personal Dx test needs the drug name and stage (spec 1 section 5); an older event that
    // did not say (no medicareDataMissing) is not refused for them
    expect(
      (await refused({ ...CLAIM_INFO, billingType: 'MEDICARE', medicareDataMissing: ['drugName', 'stage'] }))
        .details.problems,
    ).toEqual([
      { field: 'drugName', message: 'Drug Name is required for Medicare Payment Type' },
      { field: 'stage', message: 'Stage is required for Medicare Payment Type' },
    ]);
    expect(gateway.claims().length).toBe(posts);
    // self-pay and facility billing need no payor; codes without their dot are found too
    for (const billingType of ['SELF', 'FACILITY']) {
      const id = await newCase('ACC-NOPAYOR', {
        claimInfo: { ...CLAIM_INFO, billingType, payorId: null, payorName: null, diagnosisCodes: ['C3490'] },
      });
      expect((await submit(id)).statusCode).toBe(200);
      const done = await settle(id, 'ACCEPTED_BY_XIFIN');
      const held = gateway.claims().find((c) => c.key === `${id}:1`)!;
      expect(held.claim).toMatchObject({ payor: { billingType, payorId: null }, diagnosisCodes: ['C3490'] });
      expect(done.errorDetails).toBeNull();
    }
  });

  it('bulk submit (needs attention): each case on its own, a per-id report, refused ones unchanged', async () => {
    const failed = await newCase('ACC-BULK-1', { caseStatus: 'RETRY_FAILED' });
    const rejected = await newCase('ACC-BULK-2', { caseStatus: 'REJECTED_BY_XIFIN' });
    const noPayor = await newCase('ACC-BULK-3', {
      caseStatus: 'RETRY_FAILED',
      claimInfo: { ...CLAIM_INFO, payorId: null },
    });
    const accepted = await newCase('ACC-BULK-4', { caseStatus: 'ACCEPTED_BY_XIFIN' });
    const res = await sys.app.inject({
      method: 'POST',
      url: '/bis/api/v1/billing/submit',
      headers: h.admin,
      payload: [failed, rejected, noPayor, accepted, 'no-such-case', failed],
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.message).toBe('2 of 5 billing cases submitted');
    expect(body.submitted).toBe(2);
    const byId = Object.fromEntries(body.results.map((r: { id: string }) => [r.id, r]));
    expect(byId[failed]).toEqual({ id: failed, submitted: true, message: 'Submitted successfully' });
    expect(byId[rejected].submitted).toBe(true);
    expect(byId[noPayor]).toMatchObject({
      submitted: false,
      problems: [{ field: 'payor', message: 'Payor is required for INSURANCE billing' }],
    });
    expect(byId[accepted]).toMatchObject({ submitted: false });
    expect(byId[accepted].message).toMatch(/status ACCEPTED_BY_XIFIN/);
    expect(byId['no-such-case']).toMatchObject({
      submitted: false,
      message: 'Billing case no-such-case was not found.',
    });
    await settle(failed, 'ACCEPTED_BY_XIFIN');
    await settle(rejected, 'ACCEPTED_BY_XIFIN');
    expect((await get(noPayor)).caseStatus).toBe('RETRY_FAILED');
    expect((await get(accepted)).caseHistory).toHaveLength(0);
    // without VIEW_BILLING_ACTIONS: 403 and nothing queued; an empty list is a 400
    const npi = await sys.app.inject({
      method: 'POST',
      url: '/bis/api/v1/billing/submit',
      headers: h.npi,
      payload: [noPayor],
    });
    expect(npi.statusCode).toBe(403);
    const empty = await sys.app.inject({
      method: 'POST',
      url: '/bis/api/v1/billing/submit',
      headers: h.admin,
      payload: [],
    });
    expect(empty.statusCode).toBe(400);
  });

  it('404 for an unknown or deleted case; 403 without VIEW_BILLING_ACTIONS', async () => {
    expect((await submit('no-such-case')).statusCode).toBe(404);
    const deleted = await newCase('ACC-4', { deleted: true });
    expect((await submit(deleted)).statusCode).toBe(404);
    const id = await newCase('ACC-5');
    expect((await submit(id, 'npi')).statusCode).toBe(403);
    expect((await get(id)).caseStatus).toBe('READY_TO_SUBMIT');
  });
});

/**
 * The kill test: the worker runs in its own process (the server's main with SERVICES=none, WORKERS=true). It is
 * killed with SIGKILL while it waits for the gateway's answer to a claim the gateway has already stored (a SLOW
 * code), then started again: BullMQ hands the stalled job to the new worker, which sends the claim again under the
 * same Idempotency-Key. The gateway holds exactly one claim and the case ends ACCEPTED_BY_XIFIN.
 */
describe('billing submission: the worker process killed between send and record', () => {
  let billing: BillingModule;
  let child: ChildProcess | null = null;
  const { sys, h, gateway } = useGatewaySystem({
    tag: 'kill',
    standin: { slowMs: 20_000 },
    kafka: true,
    // this process serves the API only; the worker is the child
    config: (url) => ({ WORKERS: 'false', BILLING_GATEWAY_URL: url }),
    prepare: async () => {
      billing = createBillingModule(sys.ctx, { diagnosisCodes: createReferenceModule(sys.ctx).icd10Catalog });
    },
    users: { admin: 'ROLE_ADMINISTRATOR' },
    timeout: 120_000,
  });

  const startWorker = () => {
    const p = spawn(process.execPath, ['--import', 'tsx', 'services/server/src/main.ts'], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        MONGO_URL: sys.config.MONGO_URL,
        QUEUE_PREFIX: sys.config.QUEUE_PREFIX,
        TOPIC_PREFIX: sys.config.TOPIC_PREFIX,
        KAFKA_CLIENT_ID: `${sys.config.KAFKA_CLIENT_ID}-worker`,
        MAILBOX_DIR: sys.config.MAILBOX_DIR,
        FILE_STORE_DIR: sys.config.FILE_STORE_DIR,
        SERVICES: 'none',
        WORKERS: 'true',
        WORKER_MODULES: 'billing',
        SERVE_CONSOLE: 'false',
        DEMO_MODE: 'false',
        PORT: '0',
        LOG_LEVEL: 'warn',
        BILLING_GATEWAY_URL: gateway.url,
        BILLING_GATEWAY_TIMEOUT_MS: '90000',
        BILLING_SUBMIT_ATTEMPTS: '3',
        BILLING_SUBMIT_BACKOFF_MS: '200',
        // as the test system's: the taken claim stays ACCEPTED_BY_XIFIN (documents.int.test.ts uploads documents)
        BILLING_DOCUMENTS: String(sys.config.BILLING_DOCUMENTS),
        // the killed worker's job is taken by the next one within ~10 s instead of ~60 s
        QUEUE_LOCK_MS: '5000',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child = p;
    return p;
  };
  const stopWorker = async (signal: NodeJS.Signals) => {
    const p = child;
    child = null;
    if (!p || p.exitCode !== null) return;
    const exited = new Promise((r) => p.once('exit', r));
    p.kill(signal);
    await exited;
  };

  // registered after useTestSystem, so it runs before the system closes (after hooks run last first)
  afterAll(async () => {
    await stopWorker('SIGKILL');
  });

  it('SIGKILL after the claim is sent: one claim at the gateway, the case ends ACCEPTED_BY_XIFIN', async () => {
    const doc = await billing.models.BillingCase.create(
      qualifiedCase('kill', 1, { billingCode: 'SLOW-KILL', testId: 'T-KILL' }),
    );
    const id = doc._id as string;
    const key = `${id}:1`;
    const res = await sys.app.inject({
      method: 'POST',
      url: `/bis/api/v1/billing/submit/${id}`,
      headers: h.admin,
    });
    expect(res.statusCode, res.body).toBe(200);

    startWorker();
    // the gateway has stored the claim and holds its answer back: the worker is between send and record
    await waitFor(() => gateway.claims().some((c) => c.key === key), {
      what: 'the claim at the gateway',
      timeoutMs: 60_000,
    });
    await stopWorker('SIGKILL');
    const between = (await billing.models.BillingCase.findById(id).lean<BillingCaseDoc>().exec())!;
    expect(between.caseStatus).toBe('SUBMITTED_TO_XIFIN');

    // a new worker takes the stalled job (after BullMQ's lock expires) and records the stored answer
    startWorker();
    const done = await waitFor(
      async () => {
        const c = await billing.models.BillingCase.findById(id).lean<BillingCaseDoc>().exec();
        return c?.caseStatus === 'ACCEPTED_BY_XIFIN' ? c : null;
      },
      { what: 'the case accepted after the restart', timeoutMs: 120_000, intervalMs: 500 },
    );
    expect(done.caseHistory.map((e) => e.status)).toEqual([
      'QUEUED_FOR_SUBMISSION',
      'SUBMITTED_TO_XIFIN',
      'ACCEPTED_BY_XIFIN',
    ]);
    expect(gateway.posts(key)).toBe(2);
    expect(gateway.claims().filter((c) => c.key.startsWith(`${id}:`))).toHaveLength(1);
    await stopWorker('SIGTERM');
  }, 200_000);
});
