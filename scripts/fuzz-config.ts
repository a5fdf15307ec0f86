/**
 * The schemathesis configuration of one role's run (scripts/fuzz.ts): the checks, the hooks (scripts/fuzz_hooks.py),
 * each operation's real ids from the seeded records, and what is fuzzed apart.
 */
import path from 'node:path';
import { TEST_PASSWORD } from '@onco/testing';
import type { FuzzBase, FuzzBundle } from './fuzz-seed';

/** The checks of every run: no 5xx, and answers that match the document. */
const CHECKS = ['not_a_server_error', 'response_schema_conformance'];
const HOOKS = path.resolve('scripts/fuzz_hooks.py');

export type Params = Record<string, string | number | boolean>;

/** TOML of the per-operation fixed parameters (only strings, numbers and booleans). */
const tomlValue = (v: string | number | boolean) => (typeof v === 'string' ? JSON.stringify(v) : String(v));
const tomlTable = (o: Params) =>
  `{ ${Object.entries(o)
    .map(([k, v]) => `${JSON.stringify(k)} = ${tomlValue(v)}`)
    .join(', ')} }`;

/**
 * The real ids of each operation: `[operation name, parameters]` (`path.`, `query.` and `body.` keys). What a
 * write may destroy has a record of its own (a draft to DELETE, a throwaway user and association, the second
 * account's records for the reference writes).
 */
export function operationParameters(base: FuzzBase, b: FuzzBundle): Array<[string, Params]> {
  const P = '/portal/api/v1';
  const U = '/uam/api/v1';
  const O = '/oms/api/v1';
  const B = '/bis/api/v1';
  const C = '/cns/api/v1';
  const [patient, patient2, patient3] = base.patients;
  const ops: Array<[string, Params]> = [
    [`POST ${U}/password/reset/{email}`, { 'path.email': b.targetUser.email }],
    ...['GET', 'PUT'].flatMap((m): Array<[string, Params]> => [
      [`${m} ${U}/users/{id}`, { 'path.id': b.targetUser.id }],
      [`${m} ${P}/users/{id}`, { 'path.id': b.targetUser.id }],
    ]),
    [`PUT ${U}/users/{id}/{action}`, { 'path.id': b.targetUser.id }],
    [`PUT ${P}/users/{id}/{action}`, { 'path.id': b.targetUser.id }],
    [`DELETE ${P}/associations/{id}`, { 'path.id': b.association }],
    [`GET ${P}/accounts/{id}`, { 'path.id': base.accounts[0] }],
    [`PUT ${P}/accounts/{id}`, { 'path.id': base.accounts[1] }],
    [`GET ${P}/hospitalLocations/{id}`, { 'path.id': base.locations.first }],
    [`PUT ${P}/hospitalLocations/{id}`, { 'path.id': base.locations.second }],
    [`GET ${P}/physicians/{id}`, { 'path.id': base.physicians[0] }],
    [`PUT ${P}/physicians/{id}`, { 'path.id': base.otherPhysician }],
    [`GET ${P}/pathologists/{id}`, { 'path.id': base.pathologist }],
    [`PUT ${P}/pathologists/{id}`, { 'path.id': base.pathologist }],
    [`POST ${P}/patients/mergePatients/preview`, { 'query.sourceId': patient3 ?? patient2 }],
    [`GET ${P}/patients/{id}/merges`, { 'path.id': patient }],
    [`GET ${P}/patients/{id}`, { 'path.id': patient }],
    [`PUT ${P}/patients/{id}`, { 'path.id': patient2 }],
    [`GET ${P}/patients/{id}/billings`, { 'path.id': patient }],
    [`POST ${P}/patients/{id}/billings`, { 'path.id': patient2 }],
    [`PUT ${P}/patients/{id}/billings`, { 'path.id': patient2 }],
    [`DELETE ${P}/maintenance/{id}`, { 'path.id': b.maintenance }],
    [`GET ${P}/attachments/{id}/download`, { 'path.id': b.attachment }],
    [`PUT ${P}/attachments/{id}`, { 'path.id': b.attachment }],
    [`GET ${P}/testOrderForms/{id}/trf`, { 'path.id': b.submitted }],
    [`GET ${P}/testOrderForms/{id}/timeline`, { 'path.id': b.submitted }],
    [`PUT ${P}/testOrderForms/{id}/billingReview`, { 'path.id': b.submitted }],
    [`PUT ${P}/testOrderForms/{id}/clinicalReview`, { 'path.id': b.submitted }],
    [`PUT ${P}/testOrderForms/{id}/financialAssistance`, { 'path.id': b.submitted }],
    [`GET ${P}/testOrderForms/{id}`, { 'path.id': b.submitted }],
    [`PUT ${P}/testOrderForms/{id}`, { 'path.id': b.draft }],
    [`DELETE ${P}/testOrderForms/{id}`, { 'path.id': b.doomedDraft }],
    // the signature is checked against the fuzz user's own password: never a wrong one (lockout)
    [`POST ${P}/testOrderForms/{id}/sign`, { 'path.id': b.draft, 'body.password': TEST_PASSWORD }],
    [`POST ${P}/testOrderForms/{id}/copy`, { 'path.id': b.submitted }],
    [`POST ${P}/testOrderForms/{id}/subsequentOrder`, { 'path.id': b.submitted }],
    [`POST ${P}/testOrderForms/merge`, { 'query.sourceTrfId': b.draft, 'query.targetTrfId': b.submitted }],
    [`GET ${O}/testOrderForms/{id}`, { 'path.id': b.submitted }],
    [`GET ${O}/testOrders/{id}`, { 'path.id': b.testOrder }],
    [`GET ${O}/testOrderForms/{id}/samples`, { 'path.id': b.submitted }],
    [`POST ${O}/testOrders/{id}/reports/upload`, { 'path.id': b.testOrder }],
    [`POST ${O}/testOrders/{id}/reports/submit`, { 'path.id': b.testOrder }],
    [`GET ${O}/testOrders/{id}/reports/download`, { 'path.id': b.testOrder }],
    [`GET ${B}/billingCases/{id}`, { 'path.id': b.billingCase }],
    [`POST ${B}/billing/{id}/billingCode/{code}`, { 'path.id': b.billingCase }],
    [`POST ${B}/billing/{id}/timePoint/{timePoint}`, { 'path.id': b.billingCase }],
    [`POST ${B}/billing/submit/{id}`, { 'path.id': b.billingCase }],
    [
      `POST ${B}/billing/assign/{billingSpecialistId}`,
      { 'path.billingSpecialistId': base.billingSpecialist },
    ],
    ...['GET', 'PATCH', 'PUT'].map((m): [string, Params] => [
      `${m} ${C}/messages/{id}`,
      { 'path.id': b.message },
    ]),
    [`PUT ${C}/messages/{id}/addReader`, { 'path.id': b.message }],
    [`GET /dxs/api/v1/diagnosisTypes/code/{code}`, { 'path.code': base.diagnosisCode }],
  ];
  if (b.patientMerge) {
    ops.push([`GET ${P}/patients/merges/{mergeId}`, { 'path.mergeId': b.patientMerge }]);
    ops.push([`POST ${P}/patients/merges/{mergeId}/undo`, { 'path.mergeId': b.patientMerge }]);
  }
  return ops;
}

/**
 * The operations that end the caller's own session when they succeed: left out of the per-role runs and fuzzed
 * apart, each by a throwaway user of its own ([operation, what it is]).
 */
export const APART: Array<[string, string]> = [
  ['PUT /uam/api/v1/users/{id}/credentials', 'own password'],
  ['POST /uam/api/v1/logout', 'sign-out'],
];

export function schemathesisConfig(o: {
  workers: number;
  baseUrl: string;
  token: string;
  maxExamples: number;
  seed: number;
  operations: Array<[string, Params]>;
  exclude?: string[];
  include?: string[];
  coverage: boolean;
}): string {
  const lines = [
    `base-url = ${JSON.stringify(o.baseUrl)}`,
    `hooks = ${JSON.stringify(HOOKS)}`,
    `seed = ${o.seed}`,
    `headers = ${tomlTable({ Authorization: `Bearer ${o.token}` })}`,
    `workers = ${o.workers}`,
    `request-timeout = 30`,
    `suppress-health-check = ["all"]`,
    '',
    '[generation]',
    `max-examples = ${o.maxExamples}`,
    `database = "none"`,
    '',
    // the document has no examples: the phase would only skip every operation
    '[phases.examples]',
    'enabled = false',
    '[phases.coverage]',
    `enabled = ${o.coverage}`,
    '[phases.fuzzing]',
    'enabled = true',
    '[phases.stateful]',
    'enabled = false',
    '',
    '[checks]',
    'enabled = false',
    ...CHECKS.flatMap((c) => [`${c}.enabled = true`]),
    '',
  ];
  for (const [name, params] of o.operations)
    lines.push(
      '[[operations]]',
      `include-name = ${JSON.stringify(name)}`,
      `parameters = ${tomlTable(params)}`,
      '',
    );
  for (const name of o.exclude ?? [])
    lines.push('[[operations]]', `include-name = ${JSON.stringify(name)}`, 'enabled = false', '');
  if (o.include)
    lines.push('[[operations]]', `exclude-name = ${JSON.stringify(o.include)}`, 'enabled = false', '');
  return lines.join('\n');
}
