import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileBlobStore } from '../blobs';
import { Schema, type Connection, type Model } from 'mongoose';
import { parseEvent } from '@onco/events';
import { connectMongo } from '../connections';
import { LOCAL_MONGO_URL, mongoUrlWithDb } from '../config';
import { appendPending } from './chain';
import { archiveExpired } from './retention';
import { auditModels, type AuditModels } from './models';
import { AuditTrail, SYSTEM_ACTOR, type AuditActor } from './trail';
import { verifyStoredChain } from './verify';

/**
 * The audit core against the store the tests run on: entries recorded into the inbox are chained in order by
 * appendPending (two chainers at once too), the stored chain checks intact, and a modified, deleted or truncated
 * entry is found by the check; a change and its entry commit together or not at all.
 */
const suffix = randomBytes(4).toString('hex');
const dbUrl = mongoUrlWithDb(process.env.MONGO_URL ?? LOCAL_MONGO_URL, `oncotrf_audit_${suffix}`);
let mongo: Connection;
let models: AuditModels;
let trail: AuditTrail;
let Thing: Model<{ _id: string; name: string; patientId: string; version: number }>;

const actor: AuditActor = {
  who: { userId: 'usr-1', role: 'ROLE_ADMINISTRATOR', name: 'Lab Admin' },
  from: { ip: '10.0.0.9', userAgent: 'vitest', requestId: 'req-1' },
  accountIds: ['acc-1'],
  route: 'GET /things/:id',
};
const read = (n: number, patientId = `pat-${n % 3}`) =>
  trail.record({ what: { type: 'patient', id: `p-${n}`, patientId }, action: 'read' }, { actor });

beforeAll(async () => {
  mongo = await connectMongo(dbUrl);
  trail = new AuditTrail(mongo);
  models = auditModels(mongo);
  for (const m of Object.values(models)) await m.init();
  Thing = mongo.model<{ _id: string; name: string; patientId: string; version: number }>(
    'AuditTestThing',
    new Schema<any>({ _id: String, name: String, patientId: String, version: Number }, { versionKey: false }),
  );
  await Thing.createCollection();
});

afterAll(async () => {
  await mongo?.dropDatabase().catch(() => undefined);
  await mongo?.close();
});

beforeEach(async () => {
  for (const m of Object.values(models)) await m.deleteMany({});
});

const raw = () => mongo.db!.collection<any>('audit_entries');

describe('the audit chain in the store', () => {
  it('chains recorded entries in order; the stored chain checks intact; each waits as an audit event', async () => {
    for (let i = 1; i <= 5; i++) await read(i);
    expect(await models.Inbox.countDocuments()).toBe(5);
    expect(await appendPending(models, { batch: 2 })).toBe(2);
    expect(await appendPending(models)).toBe(3);
    expect(await appendPending(models)).toBe(0);
    expect(await models.Inbox.countDocuments()).toBe(0);

    const entries = await raw().find().sort({ seq: 1 }).toArray();
    expect(entries.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(entries.map((e) => e.what.id)).toEqual(['p-1', 'p-2', 'p-3', 'p-4', 'p-5']);
    expect(entries[0]).toMatchObject({
      who: actor.who,
      from: actor.from,
      onBehalfOf: ['acc-1'],
      outcome: 'allowed',
    });
    const check = await verifyStoredChain(models);
    expect(check).toMatchObject({ ok: true, checked: 5, head: { seq: 5, hash: entries[4].hash } });

    // their events, in chain order, each the entry under its own id
    const published = await models.Publish.find().sort({ createdOn: 1, _id: 1 }).lean();
    const events = published.flatMap((d) => d.outbox.map((o) => parseEvent(JSON.parse(o.value))));
    expect(events.map((e) => (e.data as { seq: number }).seq)).toEqual([1, 2, 3, 4, 5]);
    expect(events[0]).toMatchObject({ id: entries[0]._id, type: 'audit.recorded', subject: entries[0]._id });
    expect(events[0].data).toMatchObject({ hash: entries[0].hash, what: { patientId: 'pat-1' } });
  });

  it('two chainers at once, with entries still coming in: one chain, no gap, no entry twice', async () => {
    const recording = Promise.all(Array.from({ length: 60 }, (_, i) => read(i + 1)));
    const chainer = async () => {
      let n = 0;
      for (let round = 0; round < 40; round++) n += await appendPending(models, { batch: 7 });
      return n;
    };
    const [, a, b] = await Promise.all([recording, chainer(), chainer()]);
    const rest = await appendPending(models, { batch: 100 });
    expect(a + b + rest).toBe(60);
    const check = await verifyStoredChain(models);
    expect(check).toMatchObject({ ok: true, checked: 60, head: { seq: 60 } });
    expect(new Set((await raw().find().toArray()).map((e) => e.what.id)).size).toBe(60);
  });

  it("a list read names its rows' patients: chained and hashed with them, found by the patient filter", async () => {
    const listId = await trail.record(
      {
        what: { type: 'requisition', id: null, patientIds: ['pat-7', 'pat-8', 'pat-7', null] },
        action: 'read',
        count: 3,
      },
      { actor },
    );
    await read(1, 'pat-8');
    await read(2, 'pat-2');
    await appendPending(models);
    // (entries recorded in one millisecond are chained by id: the list's seq is read, not assumed)
    const [list] = await raw().find({ _id: listId }).toArray();
    // distinct, without the rows that name no patient
    expect(list.what).toEqual({
      type: 'requisition',
      id: null,
      patientId: null,
      patientIds: ['pat-7', 'pat-8'],
    });
    expect(list.count).toBe(3);
    expect((await verifyStoredChain(models)).ok).toBe(true);
    // its event carries them too (audit v2), for the SIEM
    const published = await models.Publish.find().lean();
    const events = published.flatMap((d) => d.outbox.map((o) => parseEvent(JSON.parse(o.value))));
    expect(events.find((e) => e.id === listId)!.data).toMatchObject({
      what: { patientIds: ['pat-7', 'pat-8'] },
    });
    // the store finds the entries naming a patient at either place, with the audit list's filter
    const ofPatient = async (id: string) =>
      (
        await raw()
          .find({ $or: [{ 'what.patientId': id }, { 'what.patientIds': id }] })
          .toArray()
      )
        .map((e) => String(e._id))
        .sort();
    const readOf = async (n: number) => String((await raw().findOne({ 'what.id': `p-${n}` }))!._id);
    expect(await ofPatient('pat-8')).toEqual([listId, await readOf(1)].sort());
    expect(await ofPatient('pat-7')).toEqual([listId]);
    // a patient taken off the list is found by the check
    await raw().updateOne({ _id: listId }, { $set: { 'what.patientIds': ['pat-8'] } });
    expect((await verifyStoredChain(models)).broken).toMatchObject({ seq: list.seq, reason: 'modified' });
  });

  it('finds a modified entry, a deleted one and entries deleted at the end', async () => {
    for (let i = 1; i <= 8; i++) await read(i);
    await appendPending(models);
    expect((await verifyStoredChain(models)).ok).toBe(true);

    // modified: another patient on entry 4
    await raw().updateOne({ seq: 4 }, { $set: { 'what.patientId': 'pat-forged' } });
    let check = await verifyStoredChain(models);
    expect(check.broken).toMatchObject({ seq: 4, reason: 'modified' });
    expect(check.last.seq).toBe(3);
    await raw().updateOne({ seq: 4 }, { $set: { 'what.patientId': 'pat-1' } });
    expect((await verifyStoredChain(models)).ok).toBe(true);

    // deleted: entry 6
    const six = await raw().findOne({ seq: 6 });
    await raw().deleteOne({ seq: 6 });
    check = await verifyStoredChain(models);
    expect(check.broken).toMatchObject({ seq: 6, reason: 'missing' });
    await raw().insertOne(six);

    // deleted at the end: the head still says 8
    await raw().deleteMany({ seq: { $gte: 7 } });
    check = await verifyStoredChain(models);
    expect(check.broken).toMatchObject({ seq: 7, reason: 'missing' });
    expect(check.broken!.message).toBe(
      'entries 7 to 8 are missing (the chain’s head is at 8)'.replace('’', "'"),
    );
  });

  it('npm run audit:verify reports the first broken link (exit 1) and an intact chain (exit 0)', async () => {
    for (let i = 1; i <= 4; i++) await read(i);
    await appendPending(models);
    const verify = () =>
      promisify(execFile)('npx', ['tsx', 'scripts/audit-verify.ts', '--mongo-url', dbUrl], {
        cwd: process.cwd(),
      })
        .then((r) => ({ code: 0, out: r.stdout }))
        .catch((e: { code: number; stdout: string }) => ({ code: e.code, out: e.stdout }));
    const ok = await verify();
    expect(ok.code, ok.out).toBe(0);
    expect(ok.out).toContain('checked 4 entries');
    expect(ok.out).toContain('OK: the chain is intact');
    await raw().updateOne({ seq: 2 }, { $set: { action: 'update' } });
    const broken = await verify();
    expect(broken.code, broken.out).toBe(1);
    expect(broken.out).toContain('BROKEN at entry 2');
    expect(broken.out).toContain('entry 2 was modified');
  });

  it('retention archives the oldest entries to a file; what stays checks from the archive mark', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'oncotrf-audit-archive-'));
    try {
      const blobs = new FileBlobStore(dir);
      const day = 86_400_000;
      // six entries recorded 10 days ago, then four today
      for (let i = 1; i <= 10; i++) {
        const doc = trail.entryDoc(
          { what: { type: 'patient', id: `p-${i}`, patientId: 'pat-1' }, action: 'read' },
          actor,
          new Date(Date.now() - (i <= 6 ? 10 * day - i * 1000 : 0) + i),
        );
        await models.Inbox.collection.insertOne(doc as never);
      }
      await appendPending(models);
      const cutoff = new Date(Date.now() - 5 * day);
      const first = await archiveExpired(models, blobs, { before: cutoff, batch: 4 });
      expect(first).toMatchObject({
        archived: 4,
        archive: { fromSeq: 1, toSeq: 4, count: 4 },
        refused: null,
      });
      const second = await archiveExpired(models, blobs, { before: cutoff });
      expect(second).toMatchObject({ archived: 2, archive: { fromSeq: 5, toSeq: 6 } });
      expect((await archiveExpired(models, blobs, { before: cutoff })).archived).toBe(0);

      expect(await raw().countDocuments()).toBe(4);
      const check = await verifyStoredChain(models);
      expect(check).toMatchObject({ ok: true, checked: 4, from: { seq: 6 }, head: { seq: 10 } });
      // the archive files hold the entries as they were, their hashes intact
      const mark = (await models.Chain.findById('archive').lean())!;
      expect(mark).toMatchObject({ seq: 6, archived: 6 });
      expect(mark.archives!.map((a) => [a.fromSeq, a.toSeq])).toEqual([
        [1, 4],
        [5, 6],
      ]);
      const lines: string[] = [];
      for (const a of mark.archives!) {
        let text = '';
        for await (const chunk of await blobs.get(a.blobId)) text += chunk;
        lines.push(...text.trim().split('\n'));
      }
      const archived = lines.map((l) => JSON.parse(l));
      expect(archived.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(archived[5].hash).toBe(mark.hash);
      // the archive files check too: their SHA-256, their entries and links, from the genesis up to the mark
      expect(await verifyStoredChain(models, { blobs })).toMatchObject({
        ok: true,
        archives: { ok: true, files: 2, entries: 6, broken: null },
      });
      const script = await promisify(execFile)(
        'npx',
        ['tsx', 'scripts/audit-verify.ts', '--mongo-url', dbUrl, '--file-store', dir],
        { cwd: process.cwd() },
      );
      expect(script.stdout).toContain('archives: 2 files, 6 entries, intact up to the archive mark');
      // an archived entry changed in its file (its bytes only, so every line still chains): the SHA-256
      const secondFile = path.join(dir, mark.archives![1].blobId.slice(0, 2), mark.archives![1].blobId);
      const original = await readFile(secondFile, 'utf8');
      await writeFile(secondFile, original.replace('"action":"read"', '"action":"read" '));
      expect((await verifyStoredChain(models, { blobs })).archives).toMatchObject({
        ok: false,
        files: 1,
        broken: {
          fromSeq: 5,
          message: 'the archive file was changed: its SHA-256 is not the one recorded when it was written',
        },
      });
      // an entry's field changed: its hash
      await writeFile(secondFile, original.replace('"id":"p-5"', '"id":"p-55"'));
      const forged = await verifyStoredChain(models, { blobs });
      expect(forged.ok).toBe(false);
      expect(forged.archives!.broken!.message).toBe(
        'entry 5 was modified: its fields no longer give its hash',
      );
      const failed = await promisify(execFile)(
        'npx',
        ['tsx', 'scripts/audit-verify.ts', '--mongo-url', dbUrl, '--file-store', dir],
        { cwd: process.cwd() },
      ).catch((e: { code: number; stdout: string }) => e);
      expect((failed as { code: number }).code).toBe(1);
      expect(failed.stdout).toContain('archives: BROKEN in the file of entries 5 to 6');
      // a file gone
      await rm(secondFile);
      expect((await verifyStoredChain(models, { blobs })).archives!.broken!.message).toMatch(
        /^the archive file is missing/,
      );
      await writeFile(secondFile, original);
      expect((await verifyStoredChain(models, { blobs })).ok).toBe(true);

      // a broken segment is never archived: it is the evidence
      await raw().updateOne({ seq: 7 }, { $set: { 'what.patientId': 'pat-forged', when: new Date(0) } });
      const refused = await archiveExpired(models, blobs, { before: new Date() });
      expect(refused).toMatchObject({
        archived: 0,
        refused: 'entry 7 was modified: its fields no longer give its hash',
      });
      expect(await raw().countDocuments()).toBe(4);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a change and its entry commit together (the fields it changed), or neither', async () => {
    await Thing.create({ _id: 't1', name: 'Ada', patientId: 'pat-9', version: 0 });
    const describe = {
      type: 'patient' as const,
      subject: (d: { _id: string; patientId: string }) => ({
        id: d._id,
        patientId: d.patientId,
        accountIds: ['acc-2'],
      }),
    };
    const after = await trail.update(
      Thing,
      { _id: 't1', version: 0 },
      { $set: { name: 'Ada L' }, $inc: { version: 1 } },
      describe,
    );
    expect(after).toMatchObject({ name: 'Ada L', version: 1 });
    const [entry] = await models.Inbox.find().lean();
    expect(entry).toMatchObject({
      what: { type: 'patient', id: 't1', patientId: 'pat-9' },
      action: 'update',
      changes: ['name'],
      onBehalfOf: ['acc-2'],
      who: SYSTEM_ACTOR.who,
    });

    // the filter matches nothing (a stale version): nothing written, nothing recorded
    expect(
      await trail.update(Thing, { _id: 't1', version: 0 }, { $set: { name: 'X' } }, describe),
    ).toBeNull();
    expect(await models.Inbox.countDocuments()).toBe(1);

    // the entry cannot be written (a duplicate id): the change is rolled back with it
    const original = trail.entryDoc.bind(trail);
    trail.entryDoc = (...a) => ({ ...original(...a), _id: entry._id });
    await expect(
      trail.update(Thing, { _id: 't1' }, { $set: { name: 'Rolled back' } }, describe),
    ).rejects.toThrow();
    trail.entryDoc = original;
    expect((await Thing.findById('t1').lean())!.name).toBe('Ada L');
    expect(await models.Inbox.countDocuments()).toBe(1);

    // a create records the fields it set
    await trail.create(Thing, { _id: 't2', name: 'Bo', patientId: 'pat-8', version: 0 }, describe);
    const created = await models.Inbox.findOne({ 'what.id': 't2' }).lean();
    expect(created).toMatchObject({ action: 'create', changes: ['name', 'patientId'] });
  });
});
