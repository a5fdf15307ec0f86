import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { EMAIL_RE, type Permission } from '@onco/domain';
import {
  can,
  errorReplies,
  forbidden,
  idParams,
  type ListResource,
  listRoutes,
  requireUser,
  scopeFilter,
  type SessionUser,
  typed,
} from '@onco/platform';
import { isValidNpi } from '../npi';
import { checkPhones, RULE_MSG, type FieldErrors } from '../rules';
import { and, auditReply, fieldErrors, loadScoped, str, text, updateScoped, type RouteDeps } from './shared';
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

export const physiciansResource: ListResource = {
  name: 'physicians',
  fields: {
    id: { type: 'id', path: '_id', filter: true },
    userId: { type: 'string', filter: true, sort: true },
    firstName: { type: 'string', filter: true, sort: true },
    lastName: { type: 'string', filter: true, sort: true },
    name: { type: 'string', filter: true, sort: true },
    email: { type: 'string', filter: true, sort: true },
    status: { type: 'string', filter: true, sort: true },
    accountId: { type: 'id', path: 'accountIds', filter: true },
    accountIds: { type: 'id', filter: true },
    hospitalLocationId: { type: 'id', path: 'hospitalLocationIds', filter: true },
    createdOn: { type: 'date', filter: true, sort: true },
    updatedOn: { type: 'date', filter: true, sort: true },
  },
  search: ['name', 'firstName', 'lastName', 'userId', 'email'],
  defaultSort: { field: 'lastName', order: 'asc' },
  defaultPerPage: 20,
  deletedField: 'deleted',
};

export const pathologistsResource: ListResource = {
  name: 'pathologists',
  fields: {
    id: { type: 'id', path: '_id', filter: true },
    name: { type: 'string', filter: true, sort: true },
    npi: { type: 'string', filter: true, sort: true },
    accountIds: { type: 'id', filter: true },
    accountId: { type: 'id', path: 'accountIds', filter: true },
    createdOn: { type: 'date', filter: true, sort: true },
    updatedOn: { type: 'date', filter: true, sort: true },
  },
  search: ['name', 'npi', 'email'],
  defaultSort: { field: 'name', order: 'asc' },
  defaultPerPage: 20,
  deletedField: 'deleted',
};

export const physicianReply = z.object({
  ...auditReply,
  userId: z.string(),
  firstName: z.string(),
  middleName: str,
  lastName: z.string(),
  name: z.string(),
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
  const r = typed(app);

  listRoutes(app, {
    path: '/physicians',
    resource: physiciansResource,
    model: models.Physician,
    permission: 'AUTHENTICATED',
    scope: (user) => and(physicianScope(user), { status: { $ne: 'SUSPENDED' } }),
    tag: 'reference',
    noun: 'physicians',
    summary: 'Provider search: never SUSPENDED physicians (filter id in(...), accountId, userId; q)',
    row: physicianReply,
  });

  r.get(
    '/physicians/:id',
    {
      config: { permission: 'AUTHENTICATED' },
      schema: { tags: ['reference'], params: idParams, response: { 200: physicianReply } },
    },
    // a suspended physician is still readable by id: orders that name them keep showing them
    async (req) => loadScoped(models.Physician, req.params.id, physicianScope(requireUser(req))),
  );

  listRoutes(app, {
    path: '/pathologists',
    resource: pathologistsResource,
    model: models.Pathologist,
    permission: 'AUTHENTICATED',
    scope: pathologistScope,
    tag: 'reference',
    noun: 'pathologists',
    summary: "Pathologists of the user's accounts (filter accountIds in(...); q)",
    row: pathologistReply,
  });

  r.get(
    '/pathologists/:id',
    {
      config: { permission: 'AUTHENTICATED' },
      schema: { tags: ['reference'], params: idParams, response: { 200: pathologistReply } },
    },
    async (req) => loadScoped(models.Pathologist, req.params.id, pathologistScope(requireUser(req))),
  );

  r.put(
    '/physicians/:id',
    {
      config: { permission: PROVIDER_EDITORS },
      schema: {
        tags: ['reference'],
        summary:
          'Edit a provider (names required; phone and fax 10 digits; e-mail only with CAN_EDIT_PHYSICIAN_EMAIL)',
        params: idParams,
        body: physicianEditBody,
        response: { 200: physicianReply, ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const b = req.body;
      return updateScoped({
        model: models.Physician,
        id: req.params.id,
        scope: physicianScope(user),
        version: b.version,
        userId: user.id,
        change: (current) => {
          const m = merge(b, current, ['firstName', 'middleName', 'lastName', 'phone', 'fax', 'email']);
          if (m.email !== (current.email ?? null) && !can(user, 'CAN_EDIT_PHYSICIAN_EMAIL'))
            throw forbidden("You do not have permission to change a provider's e-mail.");
          const errors: FieldErrors = {};
          if (!m.firstName) errors.firstName = RULE_MSG.required;
          if (!m.lastName) errors.lastName = RULE_MSG.required;
          if (m.email && !EMAIL_RE.test(m.email)) errors.email = RULE_MSG.invalid('Email');
          checkPhones(
            m,
            [
              { field: 'phone', label: 'Phone' },
              { field: 'fax', label: 'Fax' },
            ],
            errors,
          );
          if (Object.keys(errors).length) throw fieldErrors(errors, LABELS);
          return { ...m, name: `${m.firstName} ${m.lastName}` };
        },
      }).finally(() => facetNameCaches(models).physician.forget(req.params.id));
    },
  );

  r.put(
    '/pathologists/:id',
    {
      config: { permission: PROVIDER_EDITORS },
      schema: {
        tags: ['reference'],
        summary: 'Edit a pathologist (name required; NPI a valid 10-digit NPI; phone and fax 10 digits)',
        params: idParams,
        body: pathologistEditBody,
        response: { 200: pathologistReply, ...errorReplies },
      },
    },
    async (req) => {
      const user = requireUser(req);
      const b = req.body;
      return updateScoped({
        model: models.Pathologist,
        id: req.params.id,
        scope: pathologistScope(user),
        version: b.version,
        userId: user.id,
        change: (current) => {
          const m = merge(b, current, ['name', 'npi', 'phone', 'fax', 'email']);
          const errors: FieldErrors = {};
          if (!m.name) errors.name = RULE_MSG.required;
          if (m.npi && !isValidNpi(m.npi)) errors.npi = RULE_MSG.invalid('NPI');
          if (m.email && !EMAIL_RE.test(m.email)) errors.email = RULE_MSG.invalid('Email');
          checkPhones(
            m,
            [
              { field: 'phone', label: 'Phone' },
              { field: 'fax', label: 'Fax' },
            ],
            errors,
          );
          if (Object.keys(errors).length) throw fieldErrors(errors, LABELS);
          return m;
        },
      });
    },
  );
}
