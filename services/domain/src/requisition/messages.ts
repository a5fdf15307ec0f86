/**
 * Requisition validation messages: spec 1 sections 5 and 8, word for word. Messages with a placeholder are
 * functions. Dates inside messages use the spec's display format MM/DD/YYYY (spec 1 section 9).
 */
export const REQ_MSG = {
  required: 'This field is required',
  invalid: (fieldName: string) => `Invalid ${fieldName}`,
  min: (n: number) => `The minimum is ${n}`,
  max: (n: number) => `The maximum is ${n}`,
  length: (n: number) => `The length is ${n}`,
  invalidDate: 'Invalid date',
  noLaterThan: (date: string) => `Date must be no later than ${date}`,
  noEarlierThan: (date: string) => `Date must be no earlier than ${date}`,
  billingOnOrAfter: 'Date must be on/after 01/01/1900',
  billingOnOrBefore: (today: string) => `Date must be on/before ${today}`,
  billingInvalidDate: 'Enter a valid date (MM/DD/YYYY)',
  billingTypeRequired: 'Billing Type is required',
  labelRequired: (label: string) => `${label} is required`,
  tumorAndNormalRequired: 'NeXT Dx and NeXT Personal Dx initial order require tumor and matched normal.',
  medicareWarning: 'Drug Name, Stage and ICD10 codes are mandatory for Medicare Payment Type',
  icdSearchMinimum: 'Minimum 3 characters required to search.',
  minimumTumorContent: 'Minimum 20% tumor content required',
  subsequentOrderComment: 'Subsequent order created via the one-click order button',
  /** ours (docs/decisions.md "Report delivery method"): FAX or BOTH without the ordering provider's fax */
  faxDeliveryNeedsFax: "Delivery by fax needs the provider's fax number",
} as const;
