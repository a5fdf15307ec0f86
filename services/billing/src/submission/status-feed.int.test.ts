import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { PlatformContext } from '@onco/platform';
import { eventsIn, settled, waitFor } from '@onco/testing';
import { createReferenceModule } from '@onco/reference';
import { createBillingModule, type BillingCaseDoc, type BillingModule } from '../index';
import { qualifiedCase } from '../../test/fixtures';
import { useGatewaySystem } from '../../test/submission-system';
import { FEED_ACTOR, type StatusFeedEntry } from './apply-feed-entry';
import type { FeedEntry } from './gateway-standin';
import { BILLING_FEED_CURSOR_ID, BILLING_FEED_QUEUE, defineBillingStatusFeed } from './status-feed';

/**
 * The billing system's status feed (docs/billing-gateway.md "The status feed") on the real services: claims
 * submitted through the API and answered by the gateway stand-in, later statuses reported at the stand-in
 * (`POST /claims/{key}/status`), the `billing-status-feed` job scheduler polling `GET /feed` with the bearer token
 * every 300 ms, the cases written with their history and their billing-case events through the outbox to Kafka.
 * Every wait is on a fact: the cursor in the store, a case, a job count, the collector at the topic's end.
 */
describe('billing status feed: later statuses polled from the billing system, applied exactly once', () => {
  const TOKEN = `feed-token-${randomBytes(12).toString('hex')}`;
  let billing: BillingModule;
  let n = 0;
  const { sys, h, collector, gateway, restartGateway } = useGatewaySystem({
    tag: 'feed',
    standin: { token: TOKEN },
    // every topic exists before the collector subscribes (only billing's consumers start here)
    kafka: { ensureTopics: true },
    config: (url) => ({
      WORKERS: 'true',
      WORKER_MODULES: 'billing',
      BILLING_GATEWAY_URL: url,
      BILLING_GATEWAY_TOKEN: TOKEN,
      BILLING_FEED_POLL_MS: '300',
    }),
    prepare: async () => {
      billing = createBillingModule(sys.ctx, { diagnosisCodes: createReferenceModule(sys.ctx).icd10Catalog });
    },
    collect: ['billing-case'],
    users: { admin: 'ROLE_ADMINISTRATOR' },
    timeout: 120_000,
  });

  const get = (id: string) =>
    billing.models.BillingCase.findById(id).lean<BillingCaseDoc>().exec() as Promise<BillingCaseDoc>;
  const history = (c: BillingCaseDoc) => c.caseHistory.map((e) => e.status);
  const eventsOf = (id: string) => eventsIn(collector.messages, id).map((e) => e.data);
  const submit = async (id: string) => {
    const res = await sys.app.inject({
      method: 'POST',
      url: `/bis/api/v1/billing/submit/${id}`,
      headers: h.admin,
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const inStatus = (id: string, status: string) =>
    waitFor(async () => ((await get(id))?.caseStatus === status ? get(id) : null), {
      what: `case ${id} in ${status}`,
      timeoutMs: 20_000,
    });
  /** a new case submitted through the API and answered by the stand-in (`status`: the billing code's answer) */
  const submitted = async (billingCode: string, status = 'ACCEPTED_BY_XIFIN') => {
    n += 1;
    const doc = await billing.models.BillingCase.create(qualifiedCase('feed', n, { billingCode }));
    const id = doc._id as string;
    await submit(id);
    return { id, done: await inStatus(id, status) };
  };
  /** the billing system reports a later status of the claim `key` (201, the feed entry) */
  const report = async (key: string, body: Record<string, unknown>): Promise<FeedEntry> => {
    const res = await fetch(`${gateway.url}/claims/${encodeURIComponent(key)}/status`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as FeedEntry;
  };
  const cursor = () => billing.statusFeed.cursor();
  /** the scheduled poller has applied or skipped everything up to `seq` (it moves the cursor after that) */
  const cursorAt = (seq: number) =>
    waitFor(async () => (await cursor()) >= seq, { what: `the feed cursor at ${seq}`, timeoutMs: 20_000 });
  const feedGet = (query: string, authorization?: string) =>
    fetch(`${gateway.url}/feed${query}`, { headers: authorization ? { authorization } : {} });
  /** the log lines of this system that mention `text` */
  const logLines = (text: string) => sys.logs.lines.filter((l) => l.includes(text));
  const SENT = ['QUEUED_FOR_SUBMISSION', 'SUBMITTED_TO_XIFIN'];

  it('an accepted claim later PAID: BILLING_COMPLETE with one history entry and one billing-case event', async () => {
    const { id } = await submitted('ACC-PAID');
    const entry = await report(`${id}:1`, { status: 'PAID', note: 'Paid in full' });
    expect(entry).toMatchObject({ key: `${id}:1`, status: 'PAID', errors: [], note: 'Paid in full' });
    expect(entry.id).toMatch(/^[0-9a-f-]{36}$/);
    await cursorAt(entry.seq);

    const done = await get(id);
    expect(done.caseStatus).toBe('BILLING_COMPLETE');
    expect(done.errorDetails).toBeNull();
    expect(history(done)).toEqual([...SENT, 'ACCEPTED_BY_XIFIN', 'BILLING_COMPLETE']);
    expect(done.caseHistory.at(-1)).toMatchObject({
      status: 'BILLING_COMPLETE',
      errorDetails: null,
      reason: 'Paid in full',
      by: FEED_ACTOR.name,
      byId: FEED_ACTOR.id,
    });
    expect(done.feedEntryIds).toEqual([entry.id]);

    // nothing left in flight, the collector at the topic's end: the count is final
    await settled(sys);
    await collector.drained();
    const events = eventsOf(id);
    expect(events.map((e) => [e.previousStatus, e.caseStatus])).toEqual([
      ['READY_TO_SUBMIT', 'QUEUED_FOR_SUBMISSION'],
      ['QUEUED_FOR_SUBMISSION', 'SUBMITTED_TO_XIFIN'],
      ['SUBMITTED_TO_XIFIN', 'ACCEPTED_BY_XIFIN'],
      ['ACCEPTED_BY_XIFIN', 'BILLING_COMPLETE'],
    ]);
    expect(events[3]).toMatchObject({
      billingCaseId: id,
      billingCode: 'ACC-PAID',
      errorDetails: null,
      changedBy: FEED_ACTOR,
      changedOn: new Date(done.caseHistory[3].createdOn).toISOString(),
    });
  });

  it('the same entry read twice (the cursor lost, two pollers at once, the apply called again) changes the case once', async () => {
    const { id } = await submitted('ACC-TWICE');
    const entry = await report(`${id}:1`, { status: 'ON_HOLD', note: 'Waiting for medical records' });
    await cursorAt(entry.seq);
    const held = await get(id);
    expect(held.caseStatus).toBe('ON_HOLD_EXTERNAL');
    expect(held.errorDetails).toBe('Waiting for medical records');

    // the schedule off while this test runs the pollers itself (back on at the end)
    const queue = sys.ctx.queues.get(BILLING_FEED_QUEUE)!;
    await queue.removeJobScheduler(BILLING_FEED_QUEUE);
    await waitFor(
      async () => {
        const c = await queue.getJobCounts('active', 'waiting', 'delayed', 'prioritized');
        return Object.values(c).every((x) => x === 0);
      },
      { what: 'no billing-status-feed job left', timeoutMs: 10_000 },
    );
    try {
      // a crash between applying and moving the cursor: the cursor back at the start, two pollers read it all again
      await billing.models.BillingFeedCursor.updateOne({ _id: BILLING_FEED_CURSOR_ID }, { $set: { seq: 0 } });
      const total = gateway.feed().length;
      const runs = await Promise.all([billing.statusFeed.poll(), billing.statusFeed.poll()]);
      for (const r of runs)
        expect(r).toMatchObject({
          outcome: 'read',
          entries: total,
          applied: 0,
          skipped: 0,
          repeated: total,
          cursor: gateway.feed().at(-1)!.seq,
        });
      expect(await cursor()).toBe(gateway.feed().at(-1)!.seq);
      // the apply function itself, twice at once
      expect(
        (await Promise.all([billing.statusFeed.apply(entry), billing.statusFeed.apply(entry)])).map(
          (r) => r.outcome,
        ),
      ).toEqual(['repeated', 'repeated']);

      // an entry neither has seen yet, applied three times at once: one applies, the others find it applied
      const fresh: StatusFeedEntry = {
        id: randomUUID(),
        seq: entry.seq,
        key: `${id}:1`,
        status: 'DUPLICATE',
        errors: [{ code: 'DUP-901', message: 'Billed under another accession' }],
      };
      const outcomes = await Promise.all([1, 2, 3].map(() => billing.statusFeed.apply(fresh)));
      expect(outcomes.map((r) => r.outcome).sort()).toEqual(['applied', 'repeated', 'repeated']);
    } finally {
      await billing.statusFeed.schedule();
    }

    await settled(sys);
    await collector.drained();
    const after = await get(id);
    expect(history(after)).toEqual([...SENT, 'ACCEPTED_BY_XIFIN', 'ON_HOLD_EXTERNAL', 'DUPLICATE_ACCESSION']);
    expect(after.feedEntryIds).toHaveLength(2);
    expect(after.errorDetails).toBe('DUP-901: Billed under another accession');
    expect(eventsOf(id).map((e) => e.caseStatus)).toEqual([
      ...SENT,
      'ACCEPTED_BY_XIFIN',
      'ON_HOLD_EXTERNAL',
      'DUPLICATE_ACCESSION',
    ]);
    // the schedule is back: the next run finds nothing new
    expect(await queue.getJobScheduler(BILLING_FEED_QUEUE)).toMatchObject({ every: 300 });
  });

  it('DENIED later: REJECTED_BY_XIFIN with the errors as errorDetails, on the case, its history and its event', async () => {
    const { id } = await submitted('PAR-DENIED', 'PARTIALLY_ACCEPTED');
    const entry = await report(`${id}:1`, {
      status: 'DENIED',
      errors: [
        { code: 'DEN-501', message: 'Not medically necessary' },
        { code: 'DEN-502', message: 'Prior authorization missing' },
      ],
      note: 'Appeal within 60 days',
    });
    await cursorAt(entry.seq);
    const details = 'DEN-501: Not medically necessary\nDEN-502: Prior authorization missing';
    const done = await get(id);
    expect(done.caseStatus).toBe('REJECTED_BY_XIFIN');
    expect(done.errorDetails).toBe(details);
    expect(done.caseHistory.at(-1)).toMatchObject({
      status: 'REJECTED_BY_XIFIN',
      errorDetails: details,
      reason: 'Appeal within 60 days',
    });
    const event = await waitFor(() => eventsOf(id).find((e) => e.caseStatus === 'REJECTED_BY_XIFIN'), {
      what: 'the REJECTED_BY_XIFIN event',
      timeoutMs: 30_000,
    });
    expect(event).toMatchObject({ previousStatus: 'PARTIALLY_ACCEPTED', errorDetails: details });
  });

  it('an entry of an older generation, or of an unknown case, is skipped once with its reason; the feed goes on', async () => {
    // generation 1 rejected; fixed and submitted again, generation 2 accepted
    const { id } = await submitted('REJ-OLD', 'REJECTED_BY_XIFIN');
    await billing.models.BillingCase.updateOne({ _id: id }, { $set: { billingCode: 'ACC-NEW' } }).exec();
    await submit(id);
    const accepted = await inStatus(id, 'ACCEPTED_BY_XIFIN');
    expect(accepted.submission?.generation).toBe(2);

    // the billing system corrects generation 1's claim: not the case's submission any more
    const old = await report(`${id}:1`, { status: 'CORRECTED' });
    // a claim the platform never made (another environment's): no such case
    const stranger = `${randomUUID()}:1`;
    const posted = await fetch(`${gateway.url}/claims`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': stranger },
      body: JSON.stringify({ billingCode: 'ACC-STRANGER' }),
    });
    expect(posted.status).toBe(200);
    const unknown = await report(stranger, { status: 'PAID' });
    // and a status the platform does not know
    const future = await report(`${id}:2`, { status: 'REFUNDED' });
    // then generation 2's claim is paid: the entries before it block nothing
    const paid = await report(`${id}:2`, { status: 'PAID' });
    await cursorAt(paid.seq);

    const done = await get(id);
    expect(done.caseStatus).toBe('BILLING_COMPLETE');
    expect(done.version).toBe(accepted.version + 1);
    expect(history(done).slice(history(accepted).length)).toEqual(['BILLING_COMPLETE']);
    expect(done.feedEntryIds).toEqual([paid.id]);
    const skips = await billing.models.BillingFeedSkip.find({ _id: { $in: [old.id, unknown.id, future.id] } })
      .sort({ seq: 1 })
      .lean()
      .exec();
    expect(skips.map((s) => [s._id, s.reason, s.key])).toEqual([
      [old.id, 'other-generation', `${id}:1`],
      [unknown.id, 'unknown-case', stranger],
      [future.id, 'unknown-status', `${id}:2`],
    ]);
    expect(skips[0].message).toBe('The entry is for submission 1; the case is at submission 2.');

    // read again from the start: still skipped, still logged once each
    await billing.models.BillingFeedCursor.updateOne({ _id: BILLING_FEED_CURSOR_ID }, { $set: { seq: 0 } });
    await cursorAt(paid.seq);
    await settled(sys);
    for (const e of [old, unknown, future]) expect(logLines(`"entryId":"${e.id}"`), e.status).toHaveLength(1);
    expect(await billing.models.BillingFeedSkip.countDocuments({ key: `${id}:1` })).toBe(1);
    expect((await get(id)).version).toBe(done.version);
  });

  it('GET /feed requires the bearer token: 401 without it or with another; a poller with the wrong token moves nothing', async () => {
    for (const authorization of [undefined, 'Bearer not-the-token', `Basic ${TOKEN}`, TOKEN]) {
      const res = await feedGet('?after=0', authorization);
      expect(res.status, String(authorization)).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
    const ok = await feedGet('?after=0&limit=2', `Bearer ${TOKEN}`);
    expect(ok.status).toBe(200);
    const page = (await ok.json()) as { entries: FeedEntry[]; lastSeq: number; hasMore: boolean };
    expect(page.entries.map((e) => e.seq)).toEqual([1, 2]);
    expect(page).toMatchObject({ lastSeq: 2, hasMore: gateway.feed().length > 2 });
    expect((await feedGet('?after=-1', `Bearer ${TOKEN}`)).status).toBe(400);
    expect((await feedGet('?limit=501', `Bearer ${TOKEN}`)).status).toBe(400);

    // the stand-in's own side: a status of a claim it does not hold, or no status, is refused
    expect((await fetch(`${gateway.url}/claims/nobody%3A1/status`, { method: 'POST' })).status).toBe(404);
    const some = gateway.claims()[0].key;
    const bad = await fetch(`${gateway.url}/claims/${encodeURIComponent(some)}/status`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'paid' }),
    });
    expect(bad.status).toBe(400);

    // the platform with the wrong token: the run reads nothing, the cursor stays, one log line for the outage
    const before = await cursor();
    const wrong = defineBillingStatusFeed(
      {
        ...sys.ctx,
        config: { ...sys.ctx.config, BILLING_GATEWAY_TOKEN: 'a-token-the-gateway-refuses' },
      } as PlatformContext,
      { models: billing.models },
    );
    for (let i = 0; i < 2; i++)
      expect(await wrong.poll()).toMatchObject({
        outcome: 'unreachable',
        entries: 0,
        error: 'refused BILLING_GATEWAY_TOKEN (HTTP 401)',
      });
    expect(await cursor()).toBe(before);
    expect(logLines('billing status feed unreachable: refused BILLING_GATEWAY_TOKEN')).toHaveLength(1);
  });

  it('a restarted stand-in keeps its feed and goes on numbering; the platform reads on from its cursor', async () => {
    const { id } = await submitted('ACC-RESTART');
    const before = gateway.feed();
    expect(before.length).toBeGreaterThan(0);
    await cursorAt(before.at(-1)!.seq);

    await restartGateway();
    expect(gateway.feed()).toEqual(before);
    expect(gateway.claims().map((c) => c.key)).toContain(`${id}:1`);
    const res = await feedGet('?after=0&limit=500', `Bearer ${TOKEN}`);
    expect(((await res.json()) as { entries: FeedEntry[] }).entries).toEqual(before);

    const paid = await report(`${id}:1`, { status: 'PAID' });
    expect(paid.seq).toBe(before.at(-1)!.seq + 1);
    await cursorAt(paid.seq);
    expect((await get(id)).caseStatus).toBe('BILLING_COMPLETE');
  });
});
