/**
 * The shared rules (@onco/domain REQ_MSG) speak the spec's English. The wizard shows them in the user's language:
 * each message is recognised (exactly, or by the pattern of a message with a value in it) and looked up under
 * `wizard.rules.*`, whose English texts are the spec's words. A message it does not know (a server's reason)
 * is shown as it came.
 */
type Translate = (key: string, values?: Record<string, unknown>) => string;

const PATTERNS: Array<[RegExp, string, (m: RegExpExecArray) => Record<string, unknown>]> = [
  [/^This field is required$/, 'required', () => ({})],
  [/^Invalid date$/, 'invalidDate', () => ({})],
  [/^Invalid (.+)$/, 'invalid', (m) => ({ field: m[1] })],
  [/^The minimum is (-?[\d.]+)$/, 'min', (m) => ({ n: m[1] })],
  [/^The maximum is (-?[\d.]+)$/, 'max', (m) => ({ n: m[1] })],
  [/^The length is (\d+)$/, 'length', (m) => ({ n: m[1] })],
  [/^Date must be no later than (.+)$/, 'noLaterThan', (m) => ({ date: m[1] })],
  [/^Date must be no earlier than (.+)$/, 'noEarlierThan', (m) => ({ date: m[1] })],
  [/^Date must be on\/after 01\/01\/1900$/, 'billingOnOrAfter', () => ({})],
  [/^Date must be on\/before (.+)$/, 'billingOnOrBefore', (m) => ({ date: m[1] })],
  [/^Enter a valid date \(MM\/DD\/YYYY\)$/, 'billingInvalidDate', () => ({})],
  [/^Billing Type is required$/, 'billingTypeRequired', () => ({})],
  [
    /^NeXT Dx and NeXT Personal Dx initial order require tumor and matched normal\.$/,
    'tumorAndNormalRequired',
    () => ({}),
  ],
  [
    /^Drug Name, Stage and ICD10 codes are mandatory for Medicare Payment Type$/,
    'medicareWarning',
    () => ({}),
  ],
  [/^Minimum 3 characters required to search\.$/, 'icdSearchMinimum', () => ({})],
  [/^Minimum 20% tumor content required$/, 'minimumTumorContent', () => ({})],
  [/^Incorrect password\. Try again\.$/, 'incorrectPassword', () => ({})],
  [/^Delivery by fax needs the provider's fax number$/, 'faxDeliveryNeedsFax', () => ({})],
  [/^(.+) is required$/, 'labelRequired', (m) => ({ label: m[1] })],
];

export function ruleText(message: string, t: Translate): string {
  for (const [re, key, values] of PATTERNS) {
    const m = re.exec(message);
    if (m) return t(`wizard.rules.${key}`, values(m));
  }
  return message;
}
