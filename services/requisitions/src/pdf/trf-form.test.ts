import { describe, expect, it } from 'vitest';
import { trfFormHtml, type TrfFormRequisition } from './trf-form';
import { breadcrumbText, formatDate, formatDateTime, icd10List } from './trf-form/format';

const base = {
  _id: 'r1',
  testRequisitionId: 'TRF000123',
  status: 'SUBMITTED',
  patient: { id: 'p1', firstName: 'Ada', lastName: '<script>alert(1)</script>', dateOfBirth: '1980-02-29' },
  physician: { id: 'd1', name: 'Dr Who', userId: '1234567893' },
  account: { id: 'a1', name: 'Clinic & Co', accountId: 'A-1' },
  hospitalLocation: null,
  pathologist: null,
  pathologistLocation: null,
  additionalPhysician: null,
  additionalPhysicianLocation: null,
  orderInformation: { nextDx: true, nextPersonalDx: false, orderType: 'INITIAL_ORDER' },
  testOrders: [],
  parentTestOrderForm: null,
  tumorSpecimen: {
    diagnosis: 'OTHER',
    otherDiagnosis: 'Cholangiocarcinoma',
    icd10Codes: 'C22.1, C22.1,C24.0',
  },
  normalSpecimen: null,
  billings: [],
  attachments: [
    {
      id: 'x',
      name: 'notes.pdf',
      type: 'NOTE',
      size: 1,
      contentType: 'application/pdf',
      createdOn: new Date('2026-11-02T10:00:00Z'),
    },
    {
      id: 'y',
      name: 'old trf.pdf',
      type: 'TRF',
      size: 1,
      contentType: 'application/pdf',
      createdOn: new Date(),
    },
  ],
  approvals: [{ approvedBy: { id: 'u1', name: 'Dr Signer' }, createdOn: new Date('2026-11-21T15:04:00Z') }],
  consent: true,
  comment: null,
  kitId: null,
  isNYState: null,
} as unknown as TrfFormRequisition;

describe('the filled TRF template', () => {
  it('formats dates as MM/DD/YYYY and times as hh:mm a', () => {
    expect(formatDate('1980-02-29')).toBe('02/29/1980');
    expect(formatDate(new Date('2026-11-21T23:30:00Z'), 'America/New_York')).toBe('11/21/2026');
    expect(formatDateTime(new Date('2026-11-21T15:04:00Z'))).toBe('11/21/2026 03:04 PM UTC');
    expect(formatDate(null)).toBe('');
  });

  it('reads the stored diagnosis path and the ICD-10 codes', () => {
    expect(
      breadcrumbText(
        JSON.stringify([
          { name: 'Tissue', code: 'TISSUE' },
          { name: 'Lung', code: 'LUNG' },
        ]),
      ),
    ).toBe('Tissue (TISSUE) -> Lung (LUNG)');
    expect(breadcrumbText('Lung (LUNG)')).toBe('Lung (LUNG)');
    expect(icd10List('C22.1, C22.1,C24.0')).toEqual(['C22.1', 'C24.0']);
  });

  it('prints every block with the values escaped, the number, the codes and the signature', () => {
    const html = trfFormHtml(base, { submittedOn: new Date('2026-11-21T15:05:00Z') });
    expect(html).toContain('TRF000123');
    expect(html).toContain('102-210-C');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('Clinic &amp; Co');
    expect(html).toContain('Other: Cholangiocarcinoma');
    expect(html).toContain('<span>C22.1</span><span>C24.0</span>');
    expect(html).toContain('Dr Signer');
    expect(html).toContain('11/21/2026 03:04 PM UTC');
    expect(html).toContain('notes.pdf');
    expect(html).not.toContain('old trf.pdf');
    for (const title of [
      'Test Selection',
      'Patient Information',
      'Ordering Provider',
      'Account &amp; Location',
      'Pathologist',
      'Additional Provider',
      'Normal / Blood Specimen',
      'Tumor Specimen',
      'Billing',
      'Attachments',
      'Consent &amp; Provider Signature',
    ])
      expect(html).toContain(title);
  });

  it('prints the report delivery method in the Ordering Provider block: the chosen one checked', () => {
    const checked = (html: string) =>
      [...html.matchAll(/<span class="cb on">&#10003;<\/span>([^<]+)<\/span>/g)].map((m) => m[1]);
    const provider = (html: string) =>
      html.slice(html.indexOf('Ordering Provider'), html.indexOf('Account &amp;'));
    const both = provider(
      trfFormHtml({ ...base, physician: { ...base.physician!, deliveryMethod: 'BOTH', fax: '6175550199' } }),
    );
    expect(both).toContain('Deliver report by');
    expect(checked(both)).toEqual(['Email and fax']);
    const fax = provider(trfFormHtml({ ...base, physician: { ...base.physician!, deliveryMethod: 'FAX' } }));
    expect(checked(fax)).toEqual(['Fax']);
    // none chosen: the three boxes, none checked
    const none = provider(trfFormHtml(base));
    expect(none).toContain('Deliver report by');
    expect(checked(none)).toEqual([]);
    for (const m of ['Email', 'Fax', 'Email and fax']) expect(none).toContain(`</span>${m}</span>`);
  });
});
