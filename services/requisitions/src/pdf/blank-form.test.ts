import { describe, expect, it } from 'vitest';
import { BILLING_TYPES, DIAGNOSES } from '@onco/domain';
import { BLANK_FORM_VERSION, blankFormHtml } from './blank-form';
import { escapeHtml, label } from './form-html';

describe('blank requisition form template', () => {
  const html = blankFormHtml();

  it('is titled, versioned and carries the tagline', () => {
    expect(html).toContain('<h1>Test Requisition Form</h1>');
    expect(BLANK_FORM_VERSION).toBe('102-210-C');
    expect(html).toContain('Form version <b>102-210-C</b>');
    expect(html).toContain('CANCER IS PERSONAL');
  });

  it('has every block of a paper TRF, in order', () => {
    const titles = [...html.matchAll(/<h2>(?:<span class="n">(\d+)<\/span>)?([^<]+)<\/h2>/g)].map((m) => [
      m[1],
      m[2],
    ]);
    const numbered = titles.filter(([n]) => n).map(([n, t]) => `${n} ${t}`);
    expect(numbered).toEqual([
      '1 Test Selection',
      '2 Patient Information',
      '3 Ordering Provider',
      '4 Account &amp; Location',
      '5 Pathologist',
      '6 Additional Provider (copy of report)',
      '7 Normal / Blood Specimen',
      '8 Tumor Specimen',
      '9 Billing',
      '10 Attachments Checklist',
      '11 Consent &amp; Provider Signature',
    ]);
    for (const text of [
      'NeXT Dx',
      'NeXT Personal Dx',
      'Initial order',
      'NPI',
      'Ordering provider signature',
      'Date (MM/DD/YYYY)',
    ]) {
      expect(html).toContain(text);
    }
  });

  it('offers six ICD-10 code boxes and every billing type for primary and secondary', () => {
    for (let i = 1; i <= 6; i++) expect(html).toContain(`Code ${i}</div>`);
    expect(html).not.toContain('Code 7</div>');
    expect(BILLING_TYPES).toEqual(
      expect.arrayContaining(['INSURANCE', 'MEDICARE', 'MEDICAID', 'FACILITY', 'SELF', 'OTHER']),
    );
    for (const t of BILLING_TYPES)
      expect(html.split(`</span>${label(t)}</span>`).length - 1).toBeGreaterThanOrEqual(2);
    for (const d of DIAGNOSES) expect(html).toContain(`</span>${label(d)}</span>`);
  });

  it('is letter size, print-ready and self-contained (no network, no scripts)', () => {
    expect(html).toMatch(/@page \{ size: Letter;/);
    expect(html).toContain("default-src 'none'");
    expect(html).not.toMatch(/<script|<link|<img|@import|url\(|https?:\/\//i);
  });

  it('escapes what it prints', () => {
    expect(escapeHtml(`<a href="x">&'`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&#39;');
    expect(blankFormHtml({ labName: '<b>Lab</b>' })).toContain('&lt;b&gt;Lab&lt;/b&gt;');
  });

  it('labels enumeration values for print', () => {
    expect(label('FFPE_SLIDES')).toBe('FFPE slides');
    expect(label('ACTIVE_DISEASE')).toBe('Active disease');
    expect(label('III')).toBe('III');
    expect(label('MEDICARE')).toBe('Medicare');
  });
});
