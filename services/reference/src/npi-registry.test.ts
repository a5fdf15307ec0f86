import { describe, expect, it } from 'vitest';
import {
  answerNpiRegistry,
  loadNpiFixture,
  mapNpiResult,
  NpiRegistryClient,
  titleCase,
} from './npi-registry';
import { isValidNpi } from './npi';

const records = loadNpiFixture();
const q = (o: Record<string, string>) => new URLSearchParams(o);
const contract = { version: '2.1', enumeration_type: 'NPI-1', country_code: 'US', limit: '20' };

describe('NPI registry adapter: the version 2.1 query contract', () => {
  it('builds the registry URL with the fixed parameters and first_name or number', () => {
    const c = new NpiRegistryClient({ baseUrl: 'https://npiregistry.cms.hhs.gov/api/' });
    const byName = new URL(c.url({ firstName: 'Elena' }));
    expect(byName.origin + byName.pathname).toBe('https://npiregistry.cms.hhs.gov/api/');
    expect(Object.fromEntries(byName.searchParams)).toEqual({ ...contract, first_name: 'Elena' });
    const byNumber = new URL(c.url({ number: '1548732969', firstName: 'ignored' }));
    expect(Object.fromEntries(byNumber.searchParams)).toEqual({ ...contract, number: '1548732969' });
  });

  it('maps a result to name, userId (the NPI) and practice locations (mailing address left out)', () => {
    const elena = records.find((r) => r.number === '1548732969')!;
    expect(mapNpiResult(elena)).toEqual({
      userId: '1548732969',
      name: 'Elena Marquez',
      firstName: 'Elena',
      middleName: 'M',
      lastName: 'Marquez',
      credential: 'MD',
      specialty: 'Internal Medicine, Hematology & Oncology',
      locations: [
        {
          name: '1200 Madison St, Suite 400, Seattle',
          purpose: 'LOCATION',
          address: {
            street: '1200 Madison St, Suite 400',
            city: 'Seattle',
            state: 'WA',
            country: 'US',
            postalCode: '98104-1360',
            telephone: '2065550140',
            fax: '2065550141',
          },
        },
        {
          name: '1450 116th Ave Ne, Bellevue',
          purpose: 'PRACTICE',
          address: {
            street: '1450 116th Ave Ne',
            city: 'Bellevue',
            state: 'WA',
            country: 'US',
            postalCode: '98004',
            telephone: '4255550182',
            fax: '4255550183',
          },
        },
      ],
    });
    expect(titleCase("O'BRIEN-KHAN")).toBe("O'Brien-Khan");
  });

  it('the fixture NPIs are valid NPIs', () => {
    expect(records.every((r) => isValidNpi(r.number))).toBe(true);
  });
});

describe('NPI registry stand-in', () => {
  it('answers first_name (case-insensitive) for individuals in the US only', () => {
    const res = answerNpiRegistry(records, q({ ...contract, first_name: 'elena' })) as any;
    expect(res.results.map((r: any) => r.number).sort()).toEqual(['1456782311', '1548732969', '1765432186']);
    expect(res.result_count).toBe(3);
    // without the contract's filters the Canadian provider and the organization (authorized official) differ
    const all = answerNpiRegistry(records, q({ version: '2.1', first_name: 'ELENA' })) as any;
    expect(all.results).toHaveLength(4);
  });

  it('number, wildcard, limit and the registry error layout', () => {
    expect(
      (answerNpiRegistry(records, q({ ...contract, number: '1726358496' })) as any).results[0].basic
        .last_name,
    ).toBe('RAMAN');
    expect((answerNpiRegistry(records, q({ ...contract, first_name: 'EL*' })) as any).result_count).toBe(3);
    expect(
      (answerNpiRegistry(records, q({ ...contract, first_name: 'elena', limit: '2' })) as any).results,
    ).toHaveLength(2);
    expect(answerNpiRegistry(records, q({ ...contract }))).toEqual({
      Errors: [{ description: 'No valid search criteria provided', field: 'generic', number: '04' }],
    });
    expect(answerNpiRegistry(records, q({ first_name: 'elena' }))).toMatchObject({
      Errors: [{ field: 'version' }],
    });
    expect(answerNpiRegistry(records, q({ ...contract, number: '123' }))).toMatchObject({
      Errors: [{ field: 'number' }],
    });
    expect(answerNpiRegistry(records, q({ ...contract, first_name: 'E*' }))).toMatchObject({
      Errors: [{ number: '06' }],
    });
    expect(answerNpiRegistry(records, q({ ...contract, first_name: 'x', limit: '500' }))).toMatchObject({
      Errors: [{ field: 'limit' }],
    });
  });
});
