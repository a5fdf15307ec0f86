import { describe, expect, it } from 'vitest';
import { AUDIT_GENESIS_HASH } from '@onco/domain';
import { changedPaths, updatedPaths, withinUpdate } from './changes';
import { canonicalJson, chainEntries, checkChain, entryHash, type ChainedEntry } from './hash';

const entry = (n: number): Omit<ChainedEntry, 'seq' | 'prevHash' | 'hash'> => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  when: new Date(Date.UTC(2026, 10, 28, 9, 0, n)),
  who: { userId: `usr-${n % 3}`, role: 'ROLE_ADMINISTRATOR', name: 'Lab Admin' },
  onBehalfOf: ['acc-1'],
  what: { type: 'requisition', id: `req-${n}`, patientId: `pat-${n % 2}` },
  action: n % 4 === 0 ? 'update' : 'read',
  outcome: 'allowed',
  from: { ip: '10.0.0.1', userAgent: 'vitest', requestId: `r-${n}` },
  changes: n % 4 === 0 ? ['patient.firstName'] : null,
  route: 'GET /portal/api/v1/testOrderForms/:id',
  status: 200,
  count: null,
});

const chain = (n: number) =>
  chainEntries(
    { seq: 0, hash: AUDIT_GENESIS_HASH },
    Array.from({ length: n }, (_, i) => entry(i + 1)),
  );

describe('audit chain: canonical serialization and hashes', () => {
  it('serializes with sorted keys, ISO dates and no undefined, whatever the order fields were built in', () => {
    const a = { b: 1, a: { d: new Date('2026-11-28T00:00:00Z'), c: [2, null] }, u: undefined };
    const b = { a: { c: [2, null], d: new Date('2026-11-28T00:00:00Z') }, b: 1 };
    expect(canonicalJson(a)).toBe('{"a":{"c":[2,null],"d":"2026-11-28T00:00:00.000Z"},"b":1}');
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(() => canonicalJson({ n: Number.NaN })).toThrow();
  });

  it('links each entry to the one before: seq 1, 2, 3 from the genesis hash, SHA-256 hex', () => {
    const c = chain(3);
    expect(c.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(c[0].prevHash).toBe(AUDIT_GENESIS_HASH);
    expect(c[1].prevHash).toBe(c[0].hash);
    expect(c[2].prevHash).toBe(c[1].hash);
    for (const e of c) expect(e.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(entryHash(c[1])).toBe(c[1].hash);
    // the hash covers every field: one letter of the user agent changes it
    expect(entryHash({ ...c[1], from: { ...c[1].from, userAgent: 'vitesT' } })).not.toBe(c[1].hash);
    // and the store's own fields do not count
    expect(entryHash({ ...c[1], _id: 'x', __v: 0 } as ChainedEntry)).toBe(c[1].hash);
  });

  it('a chain checks whole against its head', async () => {
    const c = chain(10);
    const res = await checkChain(c, { head: { seq: 10, hash: c[9].hash } });
    expect(res).toMatchObject({ ok: true, checked: 10, broken: null, last: { seq: 10, hash: c[9].hash } });
    expect((await checkChain([])).ok).toBe(true);
  });

  it('a modified entry is found, and named by its seq', async () => {
    const c = chain(6);
    c[3] = { ...c[3], what: { ...c[3].what, patientId: 'pat-other' } };
    const res = await checkChain(c);
    expect(res.ok).toBe(false);
    expect(res.broken).toMatchObject({ seq: 4, reason: 'modified', entryId: c[3].id });
    expect(res.checked).toBe(3);
  });

  it('a modified entry whose hash was made again breaks the link after it', async () => {
    const c = chain(6);
    const forged = { ...c[2], action: 'read' as const, outcome: 'refused' as const };
    forged.hash = entryHash(forged);
    c[2] = forged;
    const res = await checkChain(c);
    expect(res.broken).toMatchObject({ seq: 4, reason: 'link' });
  });

  it('a deleted entry is a gap; entries deleted at the end are missing against the head', async () => {
    const c = chain(6);
    const gap = await checkChain([...c.slice(0, 2), ...c.slice(3)]);
    expect(gap.broken).toMatchObject({ seq: 3, reason: 'missing' });
    expect(gap.broken!.message).toContain('entry 3 is missing');
    const tail = await checkChain(c.slice(0, 4), { head: { seq: 6, hash: c[5].hash } });
    expect(tail.broken).toMatchObject({ seq: 5, reason: 'missing' });
    expect(tail.broken!.message).toContain('entries 5 to 6 are missing');
    const first = await checkChain(c.slice(1));
    expect(first.broken).toMatchObject({ seq: 1, reason: 'missing' });
  });

  it('checks from an archive mark: the first kept entry must link to the last archived one', async () => {
    const c = chain(6);
    const from = { seq: 3, hash: c[2].hash };
    expect((await checkChain(c.slice(3), { from })).ok).toBe(true);
    expect((await checkChain(c.slice(3), { from: { seq: 3, hash: c[1].hash } })).broken).toMatchObject({
      seq: 4,
      reason: 'link',
    });
  });

  it('continues a chain from its head in later batches exactly as in one', () => {
    const all = chain(5);
    const first = chainEntries({ seq: 0, hash: AUDIT_GENESIS_HASH }, [entry(1), entry(2)]);
    const next = chainEntries({ seq: 2, hash: first[1].hash }, [entry(3), entry(4), entry(5)]);
    expect([...first, ...next]).toEqual(all);
  });
});

describe('audit: changed field names', () => {
  it('names the paths that changed, down to three levels, never the bookkeeping', () => {
    const before = {
      _id: 'r1',
      version: 3,
      updatedOn: new Date(1),
      patient: { firstName: 'Ada', address: { city: 'Paris', zip: '75001' } },
      billings: [{ type: 'SELF_PAY' }],
      status: 'DRAFT',
      outbox: [],
    };
    const after = {
      ...before,
      version: 4,
      updatedOn: new Date(2),
      patient: { firstName: 'Ada', address: { city: 'Lyon', zip: '75001' }, lastName: 'L' },
      billings: [{ type: 'INSURANCE' }],
      status: 'SUBMITTED',
      outbox: [{ id: 'e' }],
    };
    expect(changedPaths(before, after)).toEqual([
      'billings',
      'patient.address.city',
      'patient.lastName',
      'status',
    ]);
    expect(changedPaths(before, { ...before })).toEqual([]);
    // an array entry whose own bookkeeping moved (a billing saved again) is no change
    const billed = { billings: [{ id: 'b1', type: 'SELF', version: 0, updatedOn: new Date(1) }] };
    const again = { billings: [{ id: 'b1', type: 'SELF', version: 1, updatedOn: new Date(2) }] };
    expect(changedPaths(billed, again)).toEqual([]);
    expect(changedPaths(billed, { billings: [{ ...again.billings[0], type: 'INSURANCE' }] })).toEqual([
      'billings',
    ]);
  });

  it('a change read before its transaction names only what its update names', () => {
    const update = {
      $set: { status: 'SUBMITTED', 'patient.address': { city: 'Lyon' }, updatedOn: new Date() },
      $inc: { version: 1 },
      $push: { outbox: { id: 'e' } },
    };
    expect(updatedPaths(update).sort()).toEqual(['patient.address', 'status']);
    expect(updatedPaths({ status: 'X', version: 2 })).toEqual(['status']);
    // a projection's field changed meanwhile (sampleStatus) is not this change's; deeper and shallower paths are
    expect(withinUpdate(['patient.address.city', 'sampleStatus', 'status'], updatedPaths(update))).toEqual([
      'patient.address.city',
      'status',
    ]);
    expect(withinUpdate(['patient'], ['patient.address'])).toEqual(['patient']);
  });

  it('a create names the fields it set (null and empty left out)', () => {
    expect(changedPaths(null, { _id: 'x', status: 'DRAFT', patient: { firstName: 'A', mrn: null } })).toEqual(
      ['patient.firstName', 'status'],
    );
  });
});
