import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AppError, badRequest } from '@onco/platform';
import { fixturesDir } from './paths';

/**
 * The NPI registry (CMS NPPES) lookup: spec 1 section 7 "External NPI registry lookup (version 2.1, US,
 * enumeration NPI-1, limit 20, by first name or number) | maps to name, userId, locations".
 *
 * - NpiRegistryClient: the adapter. It speaks the public registry's API version 2.1 query contract
 *   (GET {base}?version=2.1&enumeration_type=NPI-1&country_code=US&limit=20&first_name=..|number=..) and maps
 *   each result to {userId (the NPI), name, firstName, middleName, lastName, credential, locations[]}.
 * - answerNpiRegistry: the local stand-in's answer to the same contract from a fixture (our machines have no
 *   internet); served over HTTP by routes/npi-registry.ts and, for the default base URL "local", called in
 *   process through the same URL.
 */

export const NPI_QUERY = {
  version: '2.1',
  enumeration_type: 'NPI-1',
  country_code: 'US',
  limit: '20',
} as const;

/** The stand-in's path inside the portal area (GET, public, like the registry itself). */
export const NPI_STAND_IN_PATH = '/standIns/npiRegistry/api';

// ---------------------------------------------------------------------------------------------------------
// The registry's response layout (the fields we read or answer)

export interface NppesAddress {
  country_code: string;
  country_name?: string;
  address_purpose: 'LOCATION' | 'MAILING' | string;
  address_type?: string;
  address_1?: string;
  address_2?: string;
  city?: string;
  state?: string;
  postal_code?: string;
  telephone_number?: string;
  fax_number?: string;
}

export interface NppesResult {
  number: string;
  enumeration_type: 'NPI-1' | 'NPI-2' | string;
  basic: {
    first_name?: string;
    last_name?: string;
    middle_name?: string;
    credential?: string;
    organization_name?: string;
    status?: string;
    [k: string]: unknown;
  };
  addresses: NppesAddress[];
  practiceLocations?: NppesAddress[];
  taxonomies?: Array<{ code?: string; desc?: string; primary?: boolean; state?: string | null }>;
  [k: string]: unknown;
}

export interface NppesError {
  description: string;
  field: string;
  number: string;
}

export type NppesResponse = { result_count: number; results: NppesResult[] } | { Errors: NppesError[] };

// ---------------------------------------------------------------------------------------------------------
// Mapping

export interface NpiLocation {
  /** the registry has no location names: "{street}, {city}" */
  name: string;
  purpose: 'LOCATION' | 'PRACTICE';
  address: {
    street: string | null;
    city: string | null;
    state: string | null;
    country: string | null;
    postalCode: string | null;
    telephone: string | null;
    fax: string | null;
  };
}

export interface NpiProvider {
  /** the NPI number (a physician's userId) */
  userId: string;
  name: string;
  firstName: string;
  middleName: string | null;
  lastName: string;
  credential: string | null;
  /** the primary taxonomy's description, e.g. "Internal Medicine, Hematology & Oncology" */
  specialty: string | null;
  locations: NpiLocation[];
}

/** "O'BRIEN-KHAN" -> "O'Brien-Khan"; the registry answers in capitals. */
export const titleCase = (s: string) =>
  s.toLowerCase().replace(/(^|[\s\-'.])([a-z])/g, (_m, sep: string, c: string) => sep + c.toUpperCase());

const blankToNull = (v: string | undefined | null) => (v == null || v.trim() === '' ? null : v.trim());
const digits = (v: string | undefined) => {
  const d = (v ?? '').replace(/\D/g, '');
  return d === '' ? null : d;
};
/** 9-digit ZIP+4 as 12345-6789; 5 digits unchanged; foreign codes as given */
const zip = (v: string | undefined) => {
  const s = blankToNull(v);
  if (!s) return null;
  return /^\d{9}$/.test(s) ? `${s.slice(0, 5)}-${s.slice(5)}` : s;
};

function toLocation(a: NppesAddress, purpose: NpiLocation['purpose']): NpiLocation {
  const street = [a.address_1, a.address_2]
    .map(blankToNull)
    .filter(Boolean)
    .map((x) => titleCase(x!))
    .join(', ');
  const city = blankToNull(a.city);
  return {
    name: [street, city && titleCase(city)].filter(Boolean).join(', '),
    purpose,
    address: {
      street: street || null,
      city: city ? titleCase(city) : null,
      state: blankToNull(a.state),
      country: blankToNull(a.country_code),
      postalCode: zip(a.postal_code),
      telephone: digits(a.telephone_number),
      fax: digits(a.fax_number),
    },
  };
}

/**
 * One registry result as our provider pick shows it: the name title-cased (first and last, as physicians'
 * names are stored), the NPI as userId, and the practice locations: the primary LOCATION address first, then
 * the other practice locations (mailing addresses are not places of practice); duplicates dropped.
 */
export function mapNpiResult(r: NppesResult): NpiProvider {
  const first = titleCase(r.basic.first_name ?? '');
  const last = titleCase(r.basic.last_name ?? '');
  const locations: NpiLocation[] = [];
  const seen = new Set<string>();
  const add = (a: NppesAddress, purpose: NpiLocation['purpose']) => {
    const loc = toLocation(a, purpose);
    const key = JSON.stringify([loc.address.street, loc.address.city, loc.address.state]);
    if (seen.has(key)) return;
    seen.add(key);
    locations.push(loc);
  };
  for (const a of r.addresses ?? []) if (a.address_purpose === 'LOCATION') add(a, 'LOCATION');
  for (const a of r.practiceLocations ?? []) add(a, 'PRACTICE');
  const primary = (r.taxonomies ?? []).find((t) => t.primary) ?? r.taxonomies?.[0];
  return {
    userId: r.number,
    name: [first, last].filter(Boolean).join(' '),
    firstName: first,
    middleName: blankToNull(r.basic.middle_name) ? titleCase(r.basic.middle_name!.trim()) : null,
    lastName: last,
    credential: blankToNull(r.basic.credential),
    specialty: blankToNull(primary?.desc),
    locations,
  };
}

// ---------------------------------------------------------------------------------------------------------
// The adapter

export class NpiRegistryUnavailable extends AppError {
  constructor(reason: string) {
    super(502, 'NPI_REGISTRY_UNAVAILABLE', 'The NPI registry is not available. Please try again later.', {
      reason,
    });
  }
}

export interface NpiLookup {
  firstName?: string;
  lastName?: string;
  number?: string;
}

export interface NpiRegistryClientOptions {
  /** the registry's URL (e.g. https://npiregistry.cms.hhs.gov/api/), or "local" for the in-process stand-in */
  baseUrl: string;
  /** the stand-in used when baseUrl is "local" */
  standIn?: (params: URLSearchParams) => NppesResponse;
  timeoutMs?: number;
}

export class NpiRegistryClient {
  private readonly timeoutMs: number;
  constructor(private readonly opts: NpiRegistryClientOptions) {
    this.timeoutMs = opts.timeoutMs ?? 8000;
  }

  /** The request URL for a lookup (the contract's fixed parameters plus first_name or number). */
  url(by: NpiLookup): string {
    const base = this.opts.baseUrl === 'local' ? `http://local${NPI_STAND_IN_PATH}` : this.opts.baseUrl;
    const u = new URL(base);
    for (const [k, v] of Object.entries(NPI_QUERY)) u.searchParams.set(k, v);
    if (by.number) u.searchParams.set('number', by.number);
    else if (by.firstName) {
      u.searchParams.set('first_name', by.firstName);
      if (by.lastName) u.searchParams.set('last_name', by.lastName);
    }
    return u.toString();
  }

  /**
   * Look providers up by NPI number or first name (optionally narrowed by last name). A registry error (its
   * `Errors` list) is a 400 with the registry's description; an unreachable registry, a timeout, a 5xx or an
   * answer that is not the registry's layout is a 502.
   */
  async lookup(by: NpiLookup): Promise<{ content: NpiProvider[]; totalElements: number }> {
    const url = this.url(by);
    let body: unknown;
    if (this.opts.baseUrl === 'local') {
      if (!this.opts.standIn) throw new NpiRegistryUnavailable('no local stand-in');
      body = this.opts.standIn(new URL(url).searchParams);
    } else {
      let res: Response;
      try {
        res = await fetch(url, {
          headers: { accept: 'application/json' },
          signal: AbortSignal.timeout(this.timeoutMs),
        });
      } catch (err: any) {
        throw new NpiRegistryUnavailable(
          err?.name === 'TimeoutError' ? 'timeout' : String(err?.message ?? err),
        );
      }
      if (!res.ok) throw new NpiRegistryUnavailable(`HTTP ${res.status}`);
      try {
        body = await res.json();
      } catch {
        throw new NpiRegistryUnavailable('not JSON');
      }
    }
    const b = body as Partial<{ Errors: NppesError[]; results: NppesResult[]; result_count: number }>;
    if (Array.isArray(b?.Errors) && b.Errors.length)
      throw badRequest(b.Errors.map((e) => e.description).join('; '), { registry: b.Errors });
    if (!b || !Array.isArray(b.results)) throw new NpiRegistryUnavailable('unexpected answer');
    // the contract asks for individuals in the US; keep to it even if a registry answered more
    const content = b.results.filter((r) => r.enumeration_type === 'NPI-1').map(mapNpiResult);
    return { content, totalElements: content.length };
  }
}

// ---------------------------------------------------------------------------------------------------------
// The stand-in

export const NPI_FIXTURE = 'npi-registry-sample.json';

export function loadNpiFixture(file = path.join(fixturesDir(), NPI_FIXTURE)): NppesResult[] {
  return JSON.parse(readFileSync(file, 'utf8')) as NppesResult[];
}

const err = (description: string, field: string, number: string): NppesResponse => ({
  Errors: [{ description, field, number }],
});

/** first_name / last_name: exact (case-insensitive), or a prefix when it ends in '*' after 2+ characters */
function nameMatcher(raw: string): ((v: string | undefined) => boolean) | NppesResponse {
  const s = raw.trim();
  if (s.endsWith('*')) {
    const prefix = s.slice(0, -1);
    if (prefix.length < 2) return err('Wild card searches require at least 2 characters', 'generic', '06');
    return (v) => (v ?? '').toUpperCase().startsWith(prefix.toUpperCase());
  }
  return (v) => (v ?? '').toUpperCase() === s.toUpperCase();
}

/**
 * The registry's answer to a query, from a list of records: version 2.1 only; at least one search criterion
 * (number, first_name, last_name); number is 10 digits; enumeration_type, country_code (of the LOCATION
 * address), limit (default 10, at most 200) and skip honoured. Error layout: {Errors: [{description, field,
 * number}]} with HTTP 200, as the registry does. The descriptions are ours.
 */
export function answerNpiRegistry(records: NppesResult[], p: URLSearchParams): NppesResponse {
  if (p.get('version') !== '2.1') return err('Unsupported API version: use version=2.1', 'version', '01');
  const number = p.get('number')?.trim();
  const first = p.get('first_name')?.trim();
  const last = p.get('last_name')?.trim();
  if (!number && !first && !last) return err('No valid search criteria provided', 'generic', '04');
  if (number && !/^\d{10}$/.test(number)) return err('Field number requires 10 digits', 'number', '02');
  const limitRaw = p.get('limit');
  const limit = limitRaw ? Number(limitRaw) : 10;
  if (!Number.isInteger(limit) || limit < 1 || limit > 200)
    return err('Field limit must be between 1 and 200', 'limit', '05');
  const skip = Number(p.get('skip') ?? 0) || 0;
  const tests: Array<(r: NppesResult) => boolean> = [];
  if (number) tests.push((r) => r.number === number);
  for (const [raw, key] of [
    [first, 'first_name'],
    [last, 'last_name'],
  ] as const) {
    if (!raw) continue;
    const m = nameMatcher(raw);
    if (typeof m !== 'function') return m;
    tests.push((r) => m(r.basic[key] as string | undefined));
  }
  const type = p.get('enumeration_type');
  if (type) tests.push((r) => r.enumeration_type === type);
  const country = p.get('country_code');
  if (country)
    tests.push((r) =>
      (r.addresses ?? []).some((a) => a.address_purpose === 'LOCATION' && a.country_code === country),
    );
  const results = records.filter((r) => tests.every((t) => t(r))).slice(skip, skip + limit);
  return { result_count: results.length, results };
}

/** A stand-in over a fixture (default: fixtures/npi-registry-sample.json), with faults tests can inject. */
export interface NpiRegistryStandIn {
  records: NppesResult[];
  /** HTTP fault for the next answers: a status to reply with, a delay, or a body that is not the layout */
  faults: { status?: number; delayMs?: number; malformed?: boolean };
  answer(p: URLSearchParams): NppesResponse;
  /** the queries it received (newest last), for tests */
  received: string[];
}

export function createNpiRegistryStandIn(records: NppesResult[] = loadNpiFixture()): NpiRegistryStandIn {
  const s: NpiRegistryStandIn = {
    records,
    faults: {},
    received: [],
    answer(p) {
      s.received.push(p.toString());
      if (s.received.length > 100) s.received.shift();
      return answerNpiRegistry(s.records, p);
    },
  };
  return s;
}
