import { auditedSchema } from '@onco/platform';
import type { LocationAddress, PostalAddress } from '@onco/domain';
import { refSchema, type Audited } from './common';

export const ACCOUNT_STATUSES = ['ACTIVE', 'INACTIVE'] as const;

export interface AccountDoc extends Audited {
  /** human id shown to users, e.g. "ACC-1001" */
  accountId: string;
  name: string;
  sfdcId: string | null;
  status: (typeof ACCOUNT_STATUSES)[number];
  address: PostalAddress | null;
}

export const accountSchema = auditedSchema(
  {
    accountId: { type: String, required: true },
    name: { type: String, required: true },
    sfdcId: { type: String, default: null },
    status: { type: String, enum: ACCOUNT_STATUSES, default: 'ACTIVE' },
    address: {
      type: { street: String, city: String, state: String, postalCode: String, country: String, _id: false },
      default: null,
    },
  },
  { collection: 'accounts' },
);
// GET /accounts?filter={"accountId":...} and the seeder's look-up by human id
accountSchema.index({ accountId: 1 }, { unique: true });
// GET /accounts: default sort name asc
accountSchema.index({ name: 1 });

export interface HospitalLocationDoc extends Audited {
  /** human id, e.g. "HL-1001" */
  hospitalLocationId: string;
  name: string;
  account: { id: string; name: string | null };
  address: LocationAddress | null;
}

export const hospitalLocationSchema = auditedSchema(
  {
    hospitalLocationId: { type: String, required: true },
    name: { type: String, required: true },
    account: { type: refSchema, required: true },
    address: {
      type: {
        street: String,
        city: String,
        state: String,
        country: String,
        postalCode: String,
        telephone: String,
        fax: String,
        _id: false,
      },
      default: null,
    },
  },
  { collection: 'hospital_locations' },
);
// GET /hospitalLocations: data scope and filter accountId (account.id), sorted by name
hospitalLocationSchema.index({ 'account.id': 1, name: 1 });
// look-up by human id (hospitalLocationId filter)
hospitalLocationSchema.index({ hospitalLocationId: 1 }, { unique: true });
