import { afterAll, describe, expect, it } from 'vitest';
import { REQ_MSG, type Role } from '@onco/domain';
import { DEFAULT_CHROMIUM_PATH } from '@onco/platform';
import { TEST_PASSWORD, useTestSystem, type UserSpec } from '@onco/testing';
import { completeForm, TEST_ORDER_FORMS as API } from '../../test/fixtures';
import { pdfText } from '../../test/pdf';
import type { RequisitionDoc } from '../models';
import { createPdfRenderer } from '../pdf/render';
import { trfFormHtml } from '../pdf/trf-form';

const A = { accountId: 'acc-A', physicianId: 'phy-A' };
const FAX = '6195550122';
const NEEDS_FAX = "Delivery by fax needs the provider's fax number";

/**
 * The report delivery method on the order (`physician.deliveryMethod`: EMAIL, FAX, BOTH; docs/decisions.md
 * "Report delivery method"): saved and read back, refused for fax delivery without the provider's fax (a 400
 * naming the field, nothing changed) on a create, a draft save and an Edit, kept by a copy, printed on the TRF.
 */
describe('requisition API: the report delivery method (real store, chromium)', () => {
  const user = (role: Role, physicianId: string | null = null): UserSpec => [
    role,
    { account: { id: 'acc-A', name: 'Alpha Oncology' }, physicianId },
  ];
  const { sys, call } = useTestSystem({
    users: { npi: user('ROLE_NPI', 'phy-A'), manager: user('ROLE_PROJECT_MANAGER') },
  });
  const rawDoc = (id: string) =>
    sys.ctx.mongo
      .collection('test_order_forms')
      .findOne({ _id: id as any }) as Promise<RequisitionDoc | null>;
  const count = () => sys.ctx.mongo.collection('test_order_forms').countDocuments({});
  /** the complete form with the ordering provider's delivery method and fax */
  const formWith = (deliveryMethod: string | null, fax: string | null) => {
    const body = completeForm(A);
    body.physician = { ...body.physician, deliveryMethod, fax };
    return body;
  };
  const renderer = createPdfRenderer({ executablePath: process.env.CHROMIUM_PATH ?? DEFAULT_CHROMIUM_PATH });
  afterAll(() => renderer.close());

  it('a provider saves each method; it reads back, a draft save changes it, and the store keeps it', async () => {
    const d = await call('POST', API, 'npi', formWith('BOTH', FAX));
    expect(d.statusCode, d.body).toBe(200);
    const id = d.json().id;
    expect(d.json().physician).toMatchObject({ deliveryMethod: 'BOTH', fax: FAX });
    const read = await call('GET', `${API}/${id}`, 'npi');
    expect(read.json().physician).toMatchObject({ deliveryMethod: 'BOTH', fax: FAX });

    const email = await call('PUT', `${API}/${id}`, 'npi', { ...formWith('EMAIL', null), status: 'DRAFT' });
    expect(email.statusCode, email.body).toBe(200);
    expect((await call('GET', `${API}/${id}`, 'npi')).json().physician.deliveryMethod).toBe('EMAIL');
    expect((await rawDoc(id))!.physician).toMatchObject({ deliveryMethod: 'EMAIL', fax: null });

    // not chosen is allowed (the method is optional), and an unknown method is not a method
    const none = await call('POST', API, 'npi', formWith(null, null));
    expect(none.statusCode, none.body).toBe(200);
    expect(none.json().physician.deliveryMethod).toBeNull();
    const post = await call('POST', API, 'npi', formWith('POST', FAX));
    expect(post.statusCode).toBe(400);
  });

  it('fax delivery without the provider fax is refused with the message on the field; nothing changes', async () => {
    // a create: nothing is made
    const before = await count();
    for (const method of ['FAX', 'BOTH']) {
      const res = await call('POST', API, 'npi', formWith(method, null));
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toBe(`${NEEDS_FAX} (physician.deliveryMethod)`);
      expect(res.json().details.fields).toEqual({ 'physician.deliveryMethod': REQ_MSG.faxDeliveryNeedsFax });
    }
    expect(await count()).toBe(before);

    // a draft save: the stored draft keeps its method and fax, and its version
    const id = (await call('POST', API, 'npi', formWith('EMAIL', FAX))).json().id;
    const stored = await rawDoc(id);
    const res = await call('PUT', `${API}/${id}`, 'npi', { ...formWith('FAX', ''), status: 'DRAFT' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().details.fields).toEqual({ 'physician.deliveryMethod': NEEDS_FAX });
    const after = await rawDoc(id);
    expect(after!.physician).toMatchObject({ deliveryMethod: 'EMAIL', fax: FAX });
    expect(after!.version).toBe(stored!.version);

    // picking FAX with the fax number is taken
    const ok = await call('PUT', `${API}/${id}`, 'npi', { ...formWith('FAX', FAX), status: 'DRAFT' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().physician.deliveryMethod).toBe('FAX');
  });

  it('submitted with BOTH: an Edit clearing the fax is refused, the copy keeps the method, the TRF prints it', async () => {
    const d = (await call('POST', API, 'npi', formWith('BOTH', FAX))).json();
    expect((await call('POST', `${API}/${d.id}/sign`, 'npi', { password: TEST_PASSWORD })).statusCode).toBe(
      200,
    );
    const sub = await call('POST', `${API}/submit`, 'npi', { id: d.id });
    expect(sub.statusCode, sub.body).toBe(200);
    expect(sub.json().physician).toMatchObject({ deliveryMethod: 'BOTH', fax: FAX });

    // an Edit of the submitted order (CAN_EDIT_TRF) that removes the fax it delivers to
    const edit = await call('PUT', `${API}/${d.id}`, 'manager', {
      physician: { ...sub.json().physician, fax: null },
    });
    expect(edit.statusCode, edit.body).toBe(400);
    expect(edit.json().details.fields).toEqual({ 'physician.deliveryMethod': NEEDS_FAX });
    const kept = await rawDoc(d.id);
    expect(kept!.physician).toMatchObject({ deliveryMethod: 'BOTH', fax: FAX });
    expect(kept!.version).toBe(sub.json().version);

    // Copy: a new draft of the same order, the method and fax with it
    const copy = await call('POST', `${API}/${d.id}/copy`, 'npi');
    expect(copy.statusCode, copy.body).toBe(200);
    expect(copy.json()).toMatchObject({ status: 'DRAFT', parentTestOrderForm: { id: d.id } });
    expect(copy.json().physician).toMatchObject({ deliveryMethod: 'BOTH', fax: FAX });
    expect((await rawDoc(copy.json().id))!.physician).toMatchObject({ deliveryMethod: 'BOTH' });

    // the TRF of the stored order, rendered by chromium and read back as text: under "Deliver report by" the
    // three boxes of the paper form, the chosen method's checked (the check mark right before its label)
    const lines = (await pdfText(await renderer.render(trfFormHtml(kept!)))).split('\n');
    const caption = lines.findIndex((l) => l.includes('Deliver report by'));
    expect(caption).toBeGreaterThan(0);
    const boxes = lines[caption - 1];
    expect(boxes).toMatch(/Email\s+Fax\s+✓\s*Email and fax/);
    expect(boxes.match(/✓\s*[A-Za-z ]+/g)?.map((m) => m.replace(/\s+/g, ' ').trim())).toEqual([
      '✓ Email and fax',
    ]);
  }, 60_000);
});
