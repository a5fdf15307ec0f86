import type { ClientSession } from 'mongoose';
import { badRequest, forbidden, type SessionUser } from '@onco/platform';
import { nextSequence, type HospitalLocationDoc } from '../models';
import { checkPhones, RULE_MSG, type FieldErrors } from '../rules';
import { fieldErrors } from '../routes/shared';
import type { ReferenceDeps } from './deps';

const LOCATION_LABELS: Record<string, string> = {
  name: 'Name',
  'address.telephone': 'Telephone',
  'address.fax': 'Fax',
};

/** The address fields of a hospital location. */
export const LOCATION_ADDRESS = ['street', 'city', 'state', 'country', 'postalCode', 'telephone', 'fax'];

/** Address fields merged over the stored ones (left out: kept; null: cleared), trimmed. */
export function mergeAddress(
  body: Record<string, any> | null | undefined,
  stored: Record<string, any> | null,
  keys: string[],
) {
  if (body === null) return null;
  const out: Record<string, string | null> = {};
  for (const k of keys) {
    const v = body?.[k] !== undefined ? body[k] : (stored?.[k] ?? null);
    out[k] = v == null || String(v).trim() === '' ? null : String(v).trim();
  }
  return out;
}

/** A location's name and address: name required, telephone and fax 10 digits (a 400 naming each). */
export function checkLocation(
  name: string | null | undefined,
  address: Record<string, string | null> | null,
) {
  const errors: FieldErrors = {};
  if (!name || !name.trim()) errors.name = RULE_MSG.required;
  if (address)
    checkPhones(
      address,
      [
        { field: 'telephone', label: 'Telephone' },
        { field: 'fax', label: 'Fax' },
      ],
      errors,
      'address.',
    );
  if (Object.keys(errors).length) throw fieldErrors(errors, LOCATION_LABELS);
}

/** A new hospital location: its name, its account (by id, or as {id}) and its address. */
export interface NewHospitalLocation {
  name: string;
  account?: string | { id: string };
  accountId?: string;
  address?: Record<string, string | null | undefined> | null;
}

/** A new hospital location checked and ready to write: everything but its number. */
export interface PreparedHospitalLocation {
  name: string;
  account: { id: string; name: string | null };
  address: Record<string, string | null> | null;
}

/**
 * Check a new hospital location for one of the user's accounts (400 for a missing or unknown account and for the
 * name and address rules, 403 for another account): what insertHospitalLocations writes.
 */
export async function prepareHospitalLocation(
  { models }: ReferenceDeps,
  user: SessionUser,
  b: NewHospitalLocation,
): Promise<PreparedHospitalLocation> {
  const accountId = b.accountId ?? (typeof b.account === 'string' ? b.account : b.account?.id);
  if (!accountId) throw badRequest('account is required', { field: 'account' });
  const address = mergeAddress(b.address ?? null, null, LOCATION_ADDRESS);
  checkLocation(b.name, address);
  if (!user.allAccounts && !user.accountIds.includes(accountId)) throw forbidden();
  const account = await models.Account.findOne({ _id: accountId, deleted: { $ne: true } }, { name: 1 })
    .lean()
    .exec();
  if (!account) throw badRequest(`Unknown account: ${accountId}`, { field: 'account' });
  return { name: b.name, account: { id: account._id, name: account.name }, address };
}

/**
 * Write checked hospital locations, numbered HL-<n> in order (one block of numbers, taken outside `session`: a
 * write given up leaves its numbers unused), through `session` when given (the create's transaction, where its
 * audit entries are written: routes/scoped-resource.ts). Returns them as stored, in order.
 */
export async function insertHospitalLocations(
  { models }: ReferenceDeps,
  user: SessionUser,
  rows: PreparedHospitalLocation[],
  session?: ClientSession,
) {
  const last = await nextSequence(models, 'hospitalLocation', 1000, rows.length);
  const created = await models.HospitalLocation.insertMany(
    rows.map((r, i) => ({
      hospitalLocationId: `HL-${last - rows.length + 1 + i}`,
      ...r,
      createdBy: user.id,
      updatedBy: user.id,
    })),
    { ordered: true, ...(session ? { session } : {}) },
  );
  return created.map((d): HospitalLocationDoc => d.toObject());
}
