import type { BillingCaseStatus } from '@onco/domain';
import type { BillingCaseDoc } from '../models';
import { buildClaim, claimKey } from './claim';
import type { GatewayClient, GatewayReply } from './gateway-client';

/** The billing system's final answers and the case status each sets. */
const ANSWER_STATUS: Record<string, BillingCaseStatus> = {
  ACCEPTED: 'ACCEPTED_BY_XIFIN',
  PARTIALLY_ACCEPTED: 'PARTIALLY_ACCEPTED',
  REJECTED: 'REJECTED_BY_XIFIN',
  DUPLICATE_ACCESSION: 'DUPLICATE_ACCESSION',
  UPDATE_NOT_ALLOWED: 'UPDATE_NOT_ALLOWED',
};

const MAX_DETAILS = 10_000;
const clip = (s: string) => (s.length > MAX_DETAILS ? `${s.slice(0, MAX_DETAILS - 1)}…` : s);

export type SendResult =
  | { kind: 'final'; status: BillingCaseStatus; errorDetails: string | null }
  | { kind: 'transient'; error: string };

/** A billing system's `errors` ([{code, message}]) as `CODE: message` lines, or null when there are none. */
export function errorText(errors: unknown): string | null {
  if (!Array.isArray(errors) || errors.length === 0) return null;
  return clip(
    errors
      .map((e: { code?: unknown; message?: unknown }) =>
        e && typeof e === 'object' ? `${String(e.code ?? 'ERROR')}: ${String(e.message ?? '')}` : String(e),
      )
      .join('\n'),
  );
}

/** Why a request to the billing system got no answer (a timeout, a network error), as the case shows it. */
export function unreachable(err: unknown, timeoutMs: number): string {
  const e = err as NodeJS.ErrnoException;
  if (e.name === 'TimeoutError' || e.name === 'AbortError')
    return `The billing system did not answer within ${timeoutMs} ms`;
  return `The billing system could not be reached: ${e.code ?? e.message}`;
}

/** What sending a claim needs: the gateway client, and its timeout (BILLING_GATEWAY_TIMEOUT_MS) for the error text. */
export interface SendDeps {
  gateway: GatewayClient;
  timeoutMs: number;
}

/** Send the claim; classify the answer. Never throws. */
export async function sendClaim(
  deps: SendDeps,
  doc: BillingCaseDoc,
  generation: number,
): Promise<SendResult> {
  const claim = buildClaim(doc, generation);
  let res: GatewayReply;
  try {
    res = await deps.gateway.post('/claims', JSON.stringify(claim), {
      'content-type': 'application/json',
      'idempotency-key': claimKey(doc._id, generation),
    });
  } catch (err) {
    return { kind: 'transient', error: unreachable(err, deps.timeoutMs) };
  }
  const text = res.text;
  let body: { status?: unknown; errors?: unknown } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // not JSON: described by the HTTP status below
  }
  const details = errorText(body.errors);
  if (res.status >= 200 && res.status < 300) {
    const status = typeof body.status === 'string' ? ANSWER_STATUS[body.status] : undefined;
    if (status)
      return { kind: 'final', status, errorDetails: status === 'ACCEPTED_BY_XIFIN' ? null : details };
    // an answer this worker does not understand: kept for a person to look at, not retried
    return {
      kind: 'final',
      status: 'REJECTED_BY_XIFIN',
      errorDetails: clip(`Unrecognised answer from the billing system (HTTP ${res.status}): ${text}`),
    };
  }
  if (body.status === 'PAYOR_SYSTEM_DOWN')
    return { kind: 'transient', error: `Payor system down${details ? `: ${details}` : ''}` };
  if (res.status >= 500 || res.status === 408 || res.status === 429)
    return {
      kind: 'transient',
      error: clip(`The billing system answered HTTP ${res.status}${details ? `: ${details}` : ''}`),
    };
  // a permanent refusal of the claim (design.md rule 8: a 4xx from a partner is not retried)
  return {
    kind: 'final',
    status: 'REJECTED_BY_XIFIN',
    errorDetails: clip(`The billing system refused the claim (HTTP ${res.status}): ${details ?? text}`),
  };
}
