import { describe, expect, it } from 'vitest';
import { BARCODE_MSG } from '@onco/domain';
import { provider, useTestSystem } from '@onco/testing';
import { decodeLabels, pdfPageCount } from '../test/barcodes';
import { createLabModule, type LabModule } from './index';

const OMS = '/oms/api/v1';

describe('barcodes: issue unique container codes and print their labels (the store, chromium)', () => {
  let lab: LabModule;
  const { users, call } = useTestSystem({
    prepare: async ({ sys }) => {
      lab = createLabModule(sys.ctx);
    },
    users: {
      lab: 'ROLE_ACCESSIONER',
      npi: provider({ id: 'acc-A', name: 'Alpha' }, 'phy-A'),
    },
  });

  type Row = { barcode: string; prefix: string; sequence: number; requestor: string; createdBy: any };
  const issue = async (query: string, who: 'lab' | 'npi' = 'lab') => {
    const res = await call('GET', `${OMS}/barcodes?${query}`, who);
    return { res, body: res.json() as { content: Row[]; totalElements: number; message?: string } };
  };
  const print = (body: unknown, who: 'lab' | 'npi' = 'lab') =>
    call('POST', `${OMS}/barcodes/print`, who, body);
  const stored = () => lab.models.Barcode.countDocuments({});
  const codes = (rows: Row[]) => rows.map((r) => r.barcode);

  it('hands out one PS code by default, recorded with who asked and when', async () => {
    const { res, body } = await issue('requestor=Bench%201');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(body.totalElements).toBe(1);
    const [row] = body.content;
    expect(row).toMatchObject({ barcode: 'PS00000001', prefix: 'PS', sequence: 1, requestor: 'Bench 1' });
    expect(row.createdBy.id).toBe(users.lab._id);
    const doc = await lab.models.Barcode.findById('PS00000001').lean();
    expect(doc).toMatchObject({ prefix: 'PS', requestor: 'Bench 1', printedOn: null, printCount: 0 });
    expect(doc!.createdOn).toBeInstanceOf(Date);
  });

  it('count N gives N new distinct codes in sequence; a lower-case prefix is taken as upper case', async () => {
    const { res, body } = await issue('requestor=bench&count=5');
    expect(res.statusCode).toBe(200);
    expect(codes(body.content)).toEqual([
      'PS00000002',
      'PS00000003',
      'PS00000004',
      'PS00000005',
      'PS00000006',
    ]);
    expect(body.totalElements).toBe(5);

    const ab = await issue('requestor=bench&count=2&prefix=ab');
    expect(codes(ab.body.content)).toEqual(['AB00000001', 'AB00000002']);
    expect(ab.body.content.every((r) => r.prefix === 'AB')).toBe(true);
  });

  it('20 concurrent requests on a new prefix get all-distinct codes, each recorded once', async () => {
    const before = await stored();
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => issue(`requestor=r${i}&count=3&prefix=CC`)),
    );
    expect(replies.map((r) => r.res.statusCode)).toEqual(Array(20).fill(200));
    const all = replies.flatMap((r) => codes(r.body.content));
    expect(all).toHaveLength(60);
    expect(new Set(all).size).toBe(60);
    // no gaps either: the 60 numbers of the new prefix are 1..60
    expect([...all].sort()).toEqual(
      Array.from({ length: 60 }, (_, i) => `CC${String(i + 1).padStart(8, '0')}`),
    );
    expect(await stored()).toBe(before + 60);
    expect(await lab.models.BarcodeCounter.findById('CC').lean()).toMatchObject({ seq: 60 });
  });

  it('a code that exists already is never handed out again: the next number is taken instead', async () => {
    // as if another prefix's long sequence had produced this code (P1 + 00000002 = P + 100000002 ...)
    await lab.models.Barcode.create({
      _id: 'ZZ00000002',
      barcode: 'ZZ00000002',
      prefix: 'Z',
      sequence: 999,
      requestor: 'elsewhere',
      createdBy: { id: 'x', name: 'x' },
      createdOn: new Date(),
    });
    const { body } = await issue('requestor=bench&count=3&prefix=ZZ');
    expect(codes(body.content)).toEqual(['ZZ00000001', 'ZZ00000003', 'ZZ00000004']);
  });

  it('bad input is a 400 saying what is wrong, and issues nothing', async () => {
    const before = await stored();
    const counters = await lab.models.BarcodeCounter.find({}).sort({ _id: 1 }).lean();
    const cases: Array<[string, string]> = [
      ['requestor=bench&count=0', `count: ${BARCODE_MSG.count}`],
      ['requestor=bench&count=1000', `count: ${BARCODE_MSG.count}`],
      ['requestor=bench&count=2.5', `count: ${BARCODE_MSG.count}`],
      ['requestor=bench&count=many', `count: ${BARCODE_MSG.count}`],
      ['requestor=bench&prefix=P-S', `prefix: ${BARCODE_MSG.prefix}`],
      ['requestor=bench&prefix=ABCDEFG', `prefix: ${BARCODE_MSG.prefix}`],
      ['requestor=bench&prefix=1PS', `prefix: ${BARCODE_MSG.prefix}`],
      ['requestor=bench&prefix=', `prefix: ${BARCODE_MSG.prefix}`],
      ['count=2', `requestor: ${BARCODE_MSG.requestorRequired}`],
      ['requestor=%20%20&count=2', `requestor: ${BARCODE_MSG.requestorRequired}`],
      [`requestor=${'x'.repeat(101)}`, `requestor: ${BARCODE_MSG.requestorRequired}`],
    ];
    for (const [query, message] of cases) {
      const { res, body } = await issue(query);
      expect(res.statusCode, query).toBe(400);
      expect(body.message, query).toContain(message);
    }
    expect(await stored()).toBe(before);
    expect(await lab.models.BarcodeCounter.find({}).sort({ _id: 1 }).lean()).toEqual(counters);
  });

  it('only users who handle samples may issue or print (403), and only signed in (401)', async () => {
    const before = await stored();
    const { res } = await issue('requestor=me', 'npi');
    expect(res.statusCode).toBe(403);
    expect((await print({ barcodes: ['PS00000001'] }, 'npi')).statusCode).toBe(403);
    expect((await call('GET', `${OMS}/barcodes?requestor=me`)).statusCode).toBe(401);
    expect(await stored()).toBe(before);
  });

  it('prints labels whose Code 128 decodes to the codes, 30 to a sheet', async () => {
    const { body } = await issue('requestor=printer&count=32&prefix=LB');
    const issued = codes(body.content);
    const res = await print({ barcodes: issued });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain('barcodes-LB00000001-32.pdf');
    const pdf = res.rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await pdfPageCount(pdf)).toBe(2);
    expect(await decodeLabels(pdf, issued.length)).toEqual(issued);

    const first = await lab.models.Barcode.findById('LB00000001').lean();
    expect(first).toMatchObject({ printCount: 1, printedBy: { id: users.lab._id } });
    expect(first!.printedOn).toBeInstanceOf(Date);
  });

  it("a code printed before is refused with the spec's message unless it is a reprint", async () => {
    const { body } = await issue('requestor=printer&count=2&prefix=RP');
    const [a, b] = codes(body.content);
    expect((await print({ barcodes: [a] })).statusCode).toBe(200);

    const again = await print({ barcodes: [b, a] });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'CONTAINER_EXISTS',
      message: `Container already created for barcode ${a}.`,
      details: { barcodes: [a] },
    });
    // nothing of the refused print was recorded: b is still unprinted
    expect(await lab.models.Barcode.findById(b).lean()).toMatchObject({ printedOn: null, printCount: 0 });

    const reprint = await print({ barcodes: [a], reprint: true });
    expect(reprint.statusCode).toBe(200);
    expect(await decodeLabels(reprint.rawPayload, 1)).toEqual([a]);
    expect(await lab.models.Barcode.findById(a).lean()).toMatchObject({ printCount: 2 });
  });

  it('of concurrent first prints of one code exactly one gets the labels', async () => {
    const { body } = await issue('requestor=printer&prefix=RC');
    const [code] = codes(body.content);
    const replies = await Promise.all(Array.from({ length: 4 }, () => print({ barcodes: [code] })));
    expect(replies.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409]);
    expect(await lab.models.Barcode.findById(code).lean()).toMatchObject({ printCount: 1 });
  });

  it('prints only codes this system issued (400 naming the others), 1 to 100 at a time', async () => {
    const { body } = await issue('requestor=printer&prefix=UK');
    const [known] = codes(body.content);
    const res = await print({ barcodes: [known, 'PS99999999', 'nope'] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      message: BARCODE_MSG.notIssued(['PS99999999', 'NOPE']),
      details: { barcodes: ['PS99999999', 'NOPE'] },
    });
    expect(await lab.models.Barcode.findById(known).lean()).toMatchObject({ printedOn: null });

    for (const barcodes of [[], Array.from({ length: 101 }, (_, i) => `PS${i}`), undefined]) {
      const bad = await print(barcodes === undefined ? {} : { barcodes });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toContain(BARCODE_MSG.printCount);
    }
  });
});
