import { CITY_RE, isZip } from '../contact';
import { KIT_TYPES, SHIPPING_REQUESTS } from '../enums';

/**
 * Test kit requests (spec 2 sections 2.10, 3 "Kit request", 5 "Kit form", 7 "Kits", 8): the form's rules, the
 * texts, and the choices. Used by the console's form and by the messages service, which enforces them.
 */

export type KitType = (typeof KIT_TYPES)[number];
export type ShippingRequest = (typeof SHIPPING_REQUESTS)[number];

export const KIT_MSG = {
  received: 'Your Kit Request Has Been Received.',
  failed: 'Error requesting a kit. Please try again.',
  empty: 'No kits requested',
  required: 'This field is required',
  quantity: 'Enter a whole number from 1 to 1000',
  city: 'City may contain letters, hyphens, periods and spaces only',
  postalCode: 'Enter a ZIP code as 12345 or 12345-6789',
  state: 'Choose a state from the list',
  tooLong: (max: number) => `At most ${max} characters`,
} as const;

/** Kit quantity bounds (spec 2 section 5). */
export const KIT_MIN = 1;
export const KIT_MAX = 1000;
/** Kits page: 15 a page, newest first (spec 2 section 9). */
export const KITS_PER_PAGE = 15;

/**
 * What each kit type holds (decision: the spec names the types only). FFPE: a tissue block/slide mailer for a NeXT
 * Dx tumor sample; EDTA: lavender-top tubes for the matched normal blood; STRECK: cell-free DNA tubes for the
 * plasma of NeXT Personal Dx monitoring draws.
 */
export const KIT_TYPE_DESCRIPTIONS: Record<KitType, string> = {
  FFPE: 'FFPE tissue kit (tumor block or slides)',
  EDTA: 'EDTA blood kit (matched normal)',
  STRECK: 'Streck cfDNA blood kit (plasma, monitoring)',
};

/** US states, DC and territories a kit ships to (two-letter USPS codes). */
export const US_STATES = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'DC',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
  'AS',
  'GU',
  'MP',
  'PR',
  'VI',
] as const;

export interface KitForm {
  testKitType?: string | null;
  numberOfKits?: number | string | null;
  recipient?: string | null;
  institute?: string | null;
  street?: string | null;
  suite?: string | null;
  city?: string | null;
  state?: string | null;
  postalCode?: string | null;
  shippingRequest?: string | null;
}

export const KIT_REQUIRED = [
  'testKitType',
  'numberOfKits',
  'recipient',
  'street',
  'city',
  'state',
  'postalCode',
  'shippingRequest',
] as const satisfies readonly (keyof KitForm)[];

/** Text fields' longest accepted length (decision: a shipping label's lines). */
export const KIT_TEXT_MAX = 100;

const blank = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');

/** The form's problems by field (empty when it may be sent). */
export function validateKitForm(form: KitForm): Partial<Record<keyof KitForm, string>> {
  const out: Partial<Record<keyof KitForm, string>> = {};
  for (const k of KIT_REQUIRED) if (blank(form[k])) out[k] = KIT_MSG.required;
  for (const k of ['recipient', 'institute', 'street', 'suite', 'city'] as const) {
    const v = form[k];
    if (!out[k] && typeof v === 'string' && v.trim().length > KIT_TEXT_MAX)
      out[k] = KIT_MSG.tooLong(KIT_TEXT_MAX);
  }
  if (!out.testKitType && !(KIT_TYPES as readonly string[]).includes(String(form.testKitType)))
    out.testKitType = KIT_MSG.required;
  if (
    !out.shippingRequest &&
    !(SHIPPING_REQUESTS as readonly string[]).includes(String(form.shippingRequest))
  )
    out.shippingRequest = KIT_MSG.required;
  if (!out.numberOfKits) {
    const raw = String(form.numberOfKits).trim();
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < KIT_MIN || n > KIT_MAX) out.numberOfKits = KIT_MSG.quantity;
  }
  if (!out.city && !CITY_RE.test(String(form.city).trim())) out.city = KIT_MSG.city;
  if (!out.state && !(US_STATES as readonly string[]).includes(String(form.state))) out.state = KIT_MSG.state;
  if (!out.postalCode && !isZip(String(form.postalCode))) out.postalCode = KIT_MSG.postalCode;
  return out;
}

/** Submit is enabled once every required field has a value (spec 2 section 5); the rules are checked on send. */
export const kitFormComplete = (form: KitForm) => KIT_REQUIRED.every((k) => !blank(form[k]));

/** The form as stored: trimmed text, the quantity as a number. Call after validateKitForm found nothing. */
export function normalizeKitForm(form: KitForm) {
  const t = (v: string | null | undefined) => (blank(v) ? null : String(v).trim());
  return {
    testKitType: form.testKitType as KitType,
    numberOfKits: Number(String(form.numberOfKits).trim()),
    recipient: t(form.recipient)!,
    institute: t(form.institute),
    street: t(form.street)!,
    suite: t(form.suite),
    city: t(form.city)!,
    state: form.state as string,
    postalCode: t(form.postalCode)!,
    shippingRequest: form.shippingRequest as ShippingRequest,
  };
}
