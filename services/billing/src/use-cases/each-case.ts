import { actorOf, conflict, notFound, type SessionUser } from '@onco/platform';
import type { BillingCaseDoc } from '../models';
import { changeCase, findCase, type CaseDecision } from './cases';
import type { BillingDeps } from './deps';

/**
 * What the bulk actions share (all or none): every case read and checked first, then each changed in turn.
 */

/** Every case of a bulk action, in the caller's scope, or 404 naming the ids not found (nothing changes). */
export async function findAll(deps: BillingDeps, user: SessionUser, ids: string[]) {
  const unique = [...new Set(ids)];
  const found: BillingCaseDoc[] = [];
  const missing: string[] = [];
  for (const id of unique) {
    try {
      found.push(await findCase(deps, user, id));
    } catch {
      missing.push(id);
    }
  }
  if (missing.length)
    throw notFound(`Billing case${missing.length > 1 ? 's' : ''} ${missing.join(', ')} not found.`);
  return found;
}

/** 409 with the refusal per id when any case of a bulk action is refused (nothing changes). */
export function refuseAny(cases: BillingCaseDoc[], check: (c: BillingCaseDoc) => string | null) {
  const refused: Record<string, string> = {};
  for (const c of cases) {
    const why = check(c);
    if (why) refused[c._id] = why;
  }
  const ids = Object.keys(refused);
  if (ids.length) throw conflict(refused[ids[0]], { refused });
}

/** Each case changed in turn, each its own conditional write (re-read and re-decided on a lost race). */
export async function changeEach(
  deps: BillingDeps,
  user: SessionUser,
  cases: BillingCaseDoc[],
  decide: (doc: BillingCaseDoc) => CaseDecision,
): Promise<BillingCaseDoc[]> {
  const done: BillingCaseDoc[] = [];
  for (const c of cases)
    done.push(await changeCase(deps, () => findCase(deps, user, c._id), decide, actorOf(user)));
  return done;
}
