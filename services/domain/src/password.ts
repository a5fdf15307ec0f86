import { isEmail } from './contact';
/** Password rules (spec 3 section 5 and issue 2): shared by the server and the Change Password checklist. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_HISTORY_SIZE = 4;

/** Characters a password field accepts (printable ASCII, no spaces). */
export const PASSWORD_ALLOWED = /^[\x21-\x7E]*$/;

export interface PasswordCheck {
  key: 'length' | 'digit' | 'upper' | 'lower' | 'allowed';
  label: string;
  ok: boolean;
}

export function checkPassword(pw: string): PasswordCheck[] {
  return [
    {
      key: 'length',
      label: `At least ${PASSWORD_MIN_LENGTH} characters`,
      ok: pw.length >= PASSWORD_MIN_LENGTH,
    },
    { key: 'digit', label: 'At least one digit', ok: /\d/.test(pw) },
    { key: 'upper', label: 'At least one upper-case letter', ok: /[A-Z]/.test(pw) },
    { key: 'lower', label: 'At least one lower-case letter', ok: /[a-z]/.test(pw) },
    { key: 'allowed', label: 'Only letters, digits and symbols (no spaces)', ok: PASSWORD_ALLOWED.test(pw) },
  ];
}

export function isStrongPassword(pw: string): boolean {
  return checkPassword(pw).every((c) => c.ok);
}

/** Spec 3 section 5: Reset is enabled only when the trimmed text looks like an e-mail address. */
export function looksLikeEmail(text: string): boolean {
  return isEmail(text);
}

export function isCompanyEmail(text: string, companyDomain: string): boolean {
  return text
    .trim()
    .toLowerCase()
    .endsWith('@' + companyDomain.toLowerCase());
}
