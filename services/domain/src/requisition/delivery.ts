/**
 * How the report reaches the ordering provider (spec 1 section 9: "Delivery method: EMAIL, FAX, BOTH"; the
 * paper form's "Deliver report by:" in its Ordering Provider block). The method is the ordering provider's
 * choice on the order (`physician.deliveryMethod`); it is optional (none chosen: the lab's usual delivery).
 * docs/decisions.md "Report delivery method".
 */
import { DELIVERY_METHODS } from '../enums';
import { isBlank } from './issues';
import { REQ_MSG } from './messages';

export type DeliveryMethod = (typeof DELIVERY_METHODS)[number];

/** The methods as the printed forms (blank and filled TRF) name them. */
export const DELIVERY_METHOD_LABELS: Record<DeliveryMethod, string> = {
  EMAIL: 'Email',
  FAX: 'Fax',
  BOTH: 'Email and fax',
};

/** Whether a method sends the report by fax (FAX, BOTH). */
export function deliversByFax(method: string | null | undefined): boolean {
  return method === 'FAX' || method === 'BOTH';
}

/**
 * The delivery rule: a report delivered by fax (FAX or BOTH) needs a number to fax it to, the ordering
 * provider's fax (`physician.fax`, the number printed beside the method on the form). Its message, or null when
 * the method is fine (no method, EMAIL, or a fax number given). Whether the number itself is well formed is the
 * fax field's own rule ('Invalid Fax'). A value that breaks the rule: a save is refused, not only a submit.
 */
export function deliveryMethodProblem(
  provider: { deliveryMethod?: string | null; fax?: string | null } | null | undefined,
): string | null {
  if (!deliversByFax(provider?.deliveryMethod)) return null;
  return isBlank(provider?.fax) ? REQ_MSG.faxDeliveryNeedsFax : null;
}
