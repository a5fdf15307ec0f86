import { CITY_RE, EMAIL_RE, PHONE_RE, PHONE_SEPARATORS, ZIP_RE } from '../contact';
import {
  addYears,
  formatDisplayDate,
  MAX_AGE_YEARS,
  MIN_DATE,
  parseBillingDate,
  parseIsoDate,
} from './dates';
import type { DateWindow } from './dates';
import {
  FIELD_LABELS,
  isBlank,
  type BlockName,
  type Issue,
  type IssueKind,
  type RuleContext,
} from './issues';
import { REQ_MSG } from './messages';
import type { LocationForm } from './schema';

/**
 * Collects the issues of one form, in the order the rules add them; the first problem of a field wins (a later
 * issue for the same path is dropped).
 */
export class Collector {
  readonly issues: Issue[] = [];
  private readonly seen = new Set<string>();
  constructor(readonly ctx: RuleContext) {}

  add(block: BlockName, path: string, message: string, kind: IssueKind): void {
    if (this.seen.has(path)) return; // first problem of a field wins
    this.seen.add(path);
    this.issues.push({ block, path, message, kind });
  }
  required(
    block: BlockName,
    path: string,
    value: unknown,
    isRequired: boolean,
    message: string = REQ_MSG.required,
  ) {
    if (isRequired && isBlank(value)) this.add(block, path, message, 'required');
  }
  pattern(block: BlockName, path: string, value: unknown, re: RegExp, label: string, strip?: RegExp) {
    if (isBlank(value)) return;
    const text = String(value).trim();
    if (!re.test(strip ? text.replace(strip, '') : text))
      this.add(block, path, REQ_MSG.invalid(label), 'invalid');
  }
  phone(block: BlockName, path: string, value: unknown, label: string = FIELD_LABELS.phone) {
    this.pattern(block, path, value, PHONE_RE, label, PHONE_SEPARATORS);
  }
  email(block: BlockName, path: string, value: unknown) {
    this.pattern(block, path, value, EMAIL_RE, FIELD_LABELS.email);
  }
  /** Spec 1 section 5 "Date fields". */
  date(block: BlockName, path: string, value: unknown, window: DateWindow, isRequired: boolean) {
    if (isBlank(value)) return this.required(block, path, value, isRequired);
    const iso = parseIsoDate(value);
    if (!iso || iso < addYears(this.ctx.today, -MAX_AGE_YEARS)) {
      return this.add(block, path, REQ_MSG.invalidDate, 'invalid');
    }
    if (iso > window.max)
      return this.add(block, path, REQ_MSG.noLaterThan(formatDisplayDate(window.max)), 'invalid');
    if (iso < window.min)
      this.add(block, path, REQ_MSG.noEarlierThan(formatDisplayDate(window.min)), 'invalid');
  }
  /** Billing dates: MM/DD/YYYY (or the stored YYYY-MM-DD), 01/01/1900 .. today. */
  billingDate(path: string, value: unknown, isRequired: boolean, label: string) {
    if (isBlank(value))
      return this.required('billing', path, value, isRequired, REQ_MSG.labelRequired(label));
    const iso = parseIsoDate(value) ?? parseBillingDate(value);
    if (!iso) return this.add('billing', path, REQ_MSG.billingInvalidDate, 'invalid');
    if (iso < MIN_DATE) return this.add('billing', path, REQ_MSG.billingOnOrAfter, 'invalid');
    if (iso > this.ctx.today) {
      this.add('billing', path, REQ_MSG.billingOnOrBefore(formatDisplayDate(this.ctx.today)), 'invalid');
    }
  }
  address(block: BlockName, prefix: string, address: LocationForm['address'], isRequired: boolean) {
    const a = address ?? {};
    this.required(block, `${prefix}.street`, a.street, isRequired);
    this.required(block, `${prefix}.city`, a.city, isRequired);
    this.pattern(block, `${prefix}.city`, a.city, CITY_RE, FIELD_LABELS.city);
    this.required(block, `${prefix}.state`, a.state, isRequired);
    this.required(block, `${prefix}.postalCode`, a.postalCode, isRequired);
    this.pattern(block, `${prefix}.postalCode`, a.postalCode, ZIP_RE, FIELD_LABELS.zip);
  }
  location(block: BlockName, prefix: string, loc: LocationForm | null | undefined, isRequired: boolean) {
    this.required(block, `${prefix}.name`, loc?.name, isRequired);
    this.address(block, `${prefix}.address`, loc?.address, isRequired);
    this.phone(block, `${prefix}.address.telephone`, loc?.address?.telephone);
    this.phone(block, `${prefix}.address.fax`, loc?.address?.fax, FIELD_LABELS.fax);
  }
}
