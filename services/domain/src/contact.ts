/**
 * The contact rules, one copy for every form that has them (the requisition's patient, provider and billing
 * blocks, the patient edit form, providers and locations, kit requests, users) and for the server and the console
 * alike. Spec 1 section 5 and spec 2 section 5: phone and fax exactly 10 digits (displayed (xxx) xxx-xxxx); city
 * letters, hyphen, period or space; zip 5 digits optionally followed by a hyphen and up to 4 digits, max length 10.
 */

/** What may separate a phone number's digits as typed: "(206) 555-0100" */
export const PHONE_SEPARATORS = /[\s().-]/g;
/** A phone or fax once its separators are gone */
export const PHONE_RE = /^\d{10}$/;
export const CITY_RE = /^[A-Za-z .-]+$/;
/** 5 digits, optionally a hyphen and up to 4 digits (spec 1 section 5, spec 2 section 5) */
export const ZIP_RE = /^\d{5}(-\d{1,4})?$/;
export const ZIP_MAX_LENGTH = 10;
/** Decision: a plain shape check (something@domain.tld), the same in the server and the console. */
export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Digits of a phone or fax as typed ("(206) 555-0100" -> "2065550100"); other characters are kept so they fail. */
export const phoneDigits = (raw: string) => raw.replace(PHONE_SEPARATORS, '');

/** A phone or fax as typed is 10 digits once its separators are gone. */
export const isPhone = (raw: string) => PHONE_RE.test(phoneDigits(raw.trim()));
/** The trimmed text looks like an e-mail address. */
export const isEmail = (raw: string) => EMAIL_RE.test(raw.trim());
/** A zip code: the shape and the length. */
export const isZip = (raw: string) => raw.trim().length <= ZIP_MAX_LENGTH && ZIP_RE.test(raw.trim());
