import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { EMAIL_RE, type Permission } from '@onco/domain';
import { can, forbidden, scopeFilter, type SessionUser } from '@onco/platform';
import { isValidNpi } from '../npi';
import { checkPhones, RULE_MSG, type FieldErrors } from '../rules';
import { PHYSICIAN_CHANGE, PATHOLOGIST_CHANGE } from '../use-cases/audit';
import { and, auditReply, fieldErrors, personReply, str, text, type RouteDeps } from './shared';
import { directoryResource, scopedResourceRoutes } from './scoped-resource';
import { facetNameCaches } from '../name-cache';

/**
 * Who edits a provider's or pathologist's contact details: the requisition wizard's provider and pathology
 * blocks (CAN_CREATE_TRF, CAN_EDIT_TRF; spec 1 section 7 "PUT by id") and reference-data staff.
 */
export const PROVIDER_EDITORS: Permission[] = ['CAN_CREATE_TRF', 'CAN_EDIT_TRF', 'CAN_MANAGE_REFERENCE_DATA'];

const LABELS: Record<string, string> = {
  firstName: 'First Name',
  lastName: 'Last Name',
  name: 'Name',
  email: 'Email',
  phone: 'Phone',
  fax: 'Fax',
  npi: 'NPI',
};

/** A field left out keeps its value; null clears an optional one. The NPI (userId) and status are not edited here. */
const physicianEditBody = z.object({
  firstName: text(100),
  middleName: text(100),
  lastName: text(100),
  phone: text(20),
  fax: text(20),
  /** only with CAN_EDIT_PHYSICIAN_EMAIL */
  email: text(254),
  version: z.number().int().min(0).optional(),
});

const pathologistEditBody = z.object({
  name: text(200),
  npi: text(10),
  phone: text(20),
  fax: text(20),
  email: text(254),
  version: z.number().int().min(0).optional(),
});

const phones: Array<{ field: 'phone' | 'fax'; label: string }> = [
  { field: 'phone', label: 'Phone' },
  { field: 'fax', label: 'Fax' },
];

const trimOrNull = (v: string | null | undefined) => (v == null || v.trim() === '' ? null : v.trim());

/** Merge the body over the stored record (left out: kept) and trim. */
function merge<K extends string>(
  body: Partial<Record<K, string | null | undefined>>,
  current: any,
  keys: K[],
) {
  const out = {} as Record<K, string | null>;
  for (const k of keys) out[k] = trimOrNull(body[k] !== undefined ? body[k] : current[k]);
  return out;
}

export const physiciansResource = directoryResource({
  name: 'physicians',
  fields: {
    userId: { type: 'string', filter: true, sort: true },
    firstName: { type: 'string', filter: true, sort: true },
    lastName: { type: 'string', filter: true, sort: true },
    name: { type: 'string', filter: true, sort: true },
    email: { type: 'string', filter: true, sort: true },
    status: { type: 'string', filter: true, sort: true },
    accountId: { type: 'id', path: 'accountIds', filter: true },
    accountIds: { type: 'id', filter: true },
    hospitalLocationId: { type: 'id', path: 'hospitalLocationIds', filter: true },
  },
  search: ['name', 'firstName', 'lastName', 'userId', 'email'],
  defaultSort: { field: 'lastName', order: 'asc' },
});

export const pathologistsResource = directoryResource({
  name: 'pathologists',
  fields: {
    name: { type: 'string', filter: true, sort: true },
    npi: { type: 'string', filter: true, sort: true },
    accountIds: { type: 'id', filter: true },
    accountId: { type: 'id', path: 'accountIds', filter: true },
  },
  search: ['name', 'npi', 'email'],
  defaultSort: { field: 'name', order: 'asc' },
});

export const physicianReply = z.object({
  ...personReply,
  phone: str,
  email: str,
  fax: str,
  status: z.string(),
  accountIds: z.array(z.string()),
  hospitalLocationIds: z.array(z.string()),
});

export const pathologistReply = z.object({
  ...auditReply,
  name: z.string(),
  npi: str,
  phone: str,
  email: str,
  fax: str,
  accountIds: z.array(z.string()),
});

/** A user sees the physicians of their accounts and the physicians they act for (their own record included). */
export const physicianScope = (user: SessionUser) =>
  scopeFilter(user, { account: 'accountIds', physician: '_id' });
export const pathologistScope = (user: SessionUser) => scopeFilter(user, { account: 'accountIds' });

/** Physicians (providers) and pathologists (spec 1 sections 3 and 7). Mounted in the portal area. */
export async function providerRoutes(app: FastifyInstance, { models }: RouteDeps) {
  // a suspended physician is still readable by id: orders that name them keep showing them
  scopedResourceRoutes(app, {
    path: '/physicians',
    model: models.Physician,
    scope: physicianScope,
    reply: physicianReply,
    // each edit (one or a bulk's rows) commits with its audit entry: who, the physician, the fields changed
    changes: PHYSICIAN_CHANGE,
    list: {
      resource: physiciansResource,
      noun: 'physicians',
      summary: 'Provider search: never SUSPENDED physicians (filter id in(...), accountId, userId; q)',
      scope: (user) => and(physicianScope(user), { status: { $ne: 'SUSPENDED' } }),
    },
    edit: {
      permission: PROVIDER_EDITORS,
      summary:
        'Edit a provider (names required; phone and fax 10 digits; e-mail only with CAN_EDIT_PHYSICIAN_EMAIL)',
      body: physicianEditBody,
      change: (b, current, user) => {
        const m = merge(b, current, ['firstName', 'middleName', 'lastName', 'phone', 'fax', 'email']);
        if (m.email !== (current.email ?? null) && !can(user, 'CAN_EDIT_PHYSICIAN_EMAIL'))
          throw forbidden("You do not have permission to change a provider's e-mail.");
        const errors: FieldErrors = {};
        if (!m.firstName) errors.firstName = RULE_MSG.required;
        if (!m.lastName) errors.lastName = RULE_MSG.required;
        if (m.email && !EMAIL_RE.test(m.email)) errors.email = RULE_MSG.invalid('Email');
        checkPhones(m, phones, errors);
        if (Object.keys(errors).length) throw fieldErrors(errors, LABELS);
        return { ...m, name: `${m.firstName} ${m.lastName}` };
      },
      after: (id) => facetNameCaches(models).physician.forget(id),
    },
  });

  scopedResourceRoutes(app, {
    path: '/pathologists',
    model: models.Pathologist,
    scope: pathologistScope,
    reply: pathologistReply,
    changes: PATHOLOGIST_CHANGE,
    list: {
      resource: pathologistsResource,
      noun: 'pathologists',
      summary: "Pathologists of the user's accounts (filter accountIds in(...); q)",
    },
    edit: {
      permission: PROVIDER_EDITORS,
      summary: 'Edit a pathologist (name required; NPI a valid 10-digit NPI; phone and fax 10 digits)',
      body: pathologistEditBody,
      change: (b, current) => {
        const m = merge(b, current, ['name', 'npi', 'phone', 'fax', 'email']);
        const errors: FieldErrors = {};
        if (!m.name) errors.name = RULE_MSG.required;
        if (m.npi && !isValidNpi(m.npi)) errors.npi = RULE_MSG.invalid('NPI');
        if (m.email && !EMAIL_RE.test(m.email)) errors.email = RULE_MSG.invalid('Email');
        checkPhones(m, phones, errors);
        if (Object.keys(errors).length) throw fieldErrors(errors, LABELS);
        return m;
      },
    },
  });
}
