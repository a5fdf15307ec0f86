/**
 * Requisitions through the API for the tests of every package. It asserts with vitest's expect, which cannot be
 * imported outside a test run: not part of `@onco/requisitions/testing` (the benchmarks import that), imported by
 * path.
 */
import { expect } from 'vitest';
import type { System } from '@onco/server';
import { TEST_PASSWORD, type Auth } from '@onco/testing';
import { TEST_ORDER_FORMS } from './fixtures';

/** What the submit route answers (the fields the tests read). */
export interface SubmittedRequisition {
  id: string;
  testRequisitionId: string;
  testOrders: Array<{ id: string }>;
  [field: string]: any;
}

/**
 * A requisition taken through the API as a provider does: its draft saved, signed, then submitted (each a 200);
 * `createPdf`: the submit's query (its TRF PDF asked for, or not).
 */
export async function submitThroughApi(
  sys: System,
  auth: Auth,
  form: Record<string, any>,
  opts: { createPdf?: boolean } = {},
): Promise<SubmittedRequisition> {
  const as = { headers: auth };
  const draft = await sys.app.inject({ ...as, method: 'POST', url: TEST_ORDER_FORMS, payload: form });
  expect(draft.statusCode, draft.body).toBe(200);
  const id = draft.json().id as string;
  const signed = await sys.app.inject({
    ...as,
    method: 'POST',
    url: `${TEST_ORDER_FORMS}/${id}/sign`,
    payload: { password: TEST_PASSWORD },
  });
  expect(signed.statusCode, signed.body).toBe(200);
  const submit = await sys.app.inject({
    ...as,
    method: 'POST',
    url: `${TEST_ORDER_FORMS}/submit${opts.createPdf === undefined ? '' : `?createPdf=${opts.createPdf}`}`,
    payload: { ...form, id },
  });
  expect(submit.statusCode, submit.body).toBe(200);
  return submit.json();
}
