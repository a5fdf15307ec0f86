/**
 * Fixture builders for the browser tests' seeding (re-exported by ./harness.ts): requisitions made through the API
 * as a user makes them (draft, signature, submission), waiting for what the backend's workers and consumers learn,
 * and small files to upload.
 */
import { expect } from 'vitest';
import { completeForm } from '@onco/requisitions/testing';
import { TEST_PASSWORD } from '@onco/testing';
import type { ConsoleHarness } from './harness';

/** The requisitions API (test order forms). */
export const REQUISITIONS = '/portal/api/v1/testOrderForms';

/**
 * Call `fn` every `every` ms until it gives something truthy, and return that; after `ms` fail with "timed out
 * waiting for {what}" (`what` may be a function, read then: the last state seen).
 */
export async function until<T>(
  what: string | (() => string),
  fn: () => Promise<T | null | undefined | false>,
  ms = 60_000,
  every = 500,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v as T;
    if (Date.now() > end)
      throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

type Person = { firstName?: string; lastName?: string; name?: string } & Record<string, unknown>;

/** `over` on `base`, its `name` made of the first and last names when they are given and it is not. */
function person(base: Record<string, any>, over: Person): Record<string, any> {
  const p = { ...base, ...over };
  return over.name === undefined && (over.firstName !== undefined || over.lastName !== undefined)
    ? { ...p, name: `${p.firstName} ${p.lastName}` }
    : p;
}

export interface RequisitionParties {
  account: { id: string; name?: string };
  physicianId: string;
  patientId?: string | null;
  physician?: Person;
  patient?: Person;
}

/**
 * A complete requisition body (`completeForm` of @onco/requisitions/testing) of `account` (its name too),
 * `physicianId` and `patientId` (null: a new patient; not given: the fixture's), with `physician` and `patient`
 * fields over the fixture's.
 */
export function requisitionForm(p: RequisitionParties): Record<string, any> {
  const base = completeForm({ accountId: p.account.id, physicianId: p.physicianId, patientId: p.patientId });
  return {
    ...base,
    ...(p.account.name === undefined ? {} : { account: { ...base.account, name: p.account.name } }),
    ...(p.physician ? { physician: person(base.physician, p.physician) } : {}),
    ...(p.patient ? { patient: person(base.patient, p.patient) } : {}),
  };
}

/** What the API answers a submission: the requisition, its TRF # and its test orders. */
export type SubmittedRequisition = {
  id: string;
  testRequisitionId: string;
  testOrders: Array<{ id: string; testOrderId: string }>;
} & Record<string, any>;

/**
 * Submit the requisition of `parties` (requisitionForm) as its user would, through the API with `auth`: the draft,
 * its signature (TEST_PASSWORD) and the submission (`query`: e.g. '?createPdf=true'), each expected to succeed.
 * The submission's answer.
 */
export async function submitRequisition(
  h: Pick<ConsoleHarness, 'api'>,
  auth: string,
  parties: RequisitionParties,
  query = '',
): Promise<SubmittedRequisition> {
  const form = requisitionForm(parties);
  const d = await h.api(auth, 'POST', REQUISITIONS, form);
  expect(d.status, JSON.stringify(d.body)).toBe(200);
  const signed = await h.api(auth, 'POST', `${REQUISITIONS}/${d.body.id}/sign`, { password: TEST_PASSWORD });
  expect(signed.status, JSON.stringify(signed.body)).toBe(200);
  const sub = await h.api(auth, 'POST', `${REQUISITIONS}/submit${query}`, { ...form, id: d.body.id });
  expect(sub.status, JSON.stringify(sub.body)).toBe(200);
  return sub.body;
}

/** Wait until the lab knows a submitted requisition (it makes its test orders from the requisition-submitted event). */
export async function labKnowsRequisition(h: Pick<ConsoleHarness, 'api'>, auth: string, id: string) {
  await until(
    'the lab to learn the requisition',
    async () => (await h.api(auth, 'GET', `/oms/api/v1/testOrderForms/${id}/samples`)).status === 200,
  );
}

/** A small real PDF (one blank page): what a document looks like to the uploads' content checks. */
export function blankPdf(): string {
  const objects = [
    '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
    '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
    '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (const o of objects) {
    offsets.push(body.length);
    body += `${o}\n`;
  }
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) body += `${String(off).padStart(10, '0')} 00000 n \n`;
  body += `trailer << /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return body;
}
