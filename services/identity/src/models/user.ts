import type { Connection, Model, Schema } from 'mongoose';
import { auditedSchema } from '@onco/platform';
import { AUTHENTICATION_PROVIDERS, ROLES, USER_STATUSES } from '@onco/domain';

export interface UserDoc {
  _id: string;
  loginId: string;
  secondaryLoginId?: string | null;
  email: string;
  firstName: string;
  lastName: string;
  role: (typeof ROLES)[number];
  status: (typeof USER_STATUSES)[number];
  authenticationProvider: (typeof AUTHENTICATION_PROVIDERS)[number];
  sfdcId?: string | null;
  title?: string | null;
  location?: { id: string; name: string } | null;
  account?: { id: string; name: string } | null;
  /** the physician record of a provider user (their own data scope) */
  physicianId?: string | null;
  /** physicians this user may act for (spec: authorizedUsers) */
  authorizedUsers: string[];
  passwordHash?: string | null;
  /** hashes of the last four passwords, newest first (the current one included) */
  passwordHistory: string[];
  failedLogins: number;
  tokenVersion: number;
  /** tokens signed out before they expire (their SHA-256, session.ts `revokedTokenId`); expired ones are dropped */
  revokedTokens?: { id: string; exp: Date }[];
  lastLogin?: Date | null;
  createdOn: Date;
  updatedOn: Date;
  createdBy?: string | null;
  updatedBy?: string | null;
  version: number;
  archived: boolean;
  deleted: boolean;
}

const userSchema = auditedSchema(
  {
    loginId: { type: String, required: true },
    secondaryLoginId: { type: String, default: null },
    email: { type: String, required: true },
    firstName: { type: String, required: true },
    lastName: { type: String, required: true },
    role: { type: String, enum: ROLES, required: true },
    status: { type: String, enum: USER_STATUSES, default: 'PROVISIONED' },
    authenticationProvider: { type: String, enum: AUTHENTICATION_PROVIDERS, default: 'OKTA' },
    sfdcId: { type: String, default: null },
    title: { type: String, default: null },
    location: { type: { id: String, name: String, _id: false }, default: null },
    account: { type: { id: String, name: String, _id: false }, default: null },
    physicianId: { type: String, default: null },
    authorizedUsers: { type: [String], default: [] },
    passwordHash: { type: String, default: null },
    passwordHistory: { type: [String], default: [] },
    failedLogins: { type: Number, default: 0 },
    tokenVersion: { type: Number, default: 0 },
    revokedTokens: { type: [{ id: String, exp: Date, _id: false }], default: undefined },
    lastLogin: { type: Date, default: null },
  },
  { collection: 'users' },
);
// sign-in by login id
userSchema.index({ loginId: 1 }, { unique: true });
// users list: default sort, and the status / role / account facets' filters
userSchema.index({ updatedOn: -1 });
userSchema.index({ status: 1 });
userSchema.index({ role: 1 });
userSchema.index({ 'account.id': 1 });

export interface ResetTokenDoc {
  _id: string; // sha256 of the token
  userId: string;
  expiresOn: Date;
  usedOn: Date | null;
  purpose: 'reset' | 'activation';
}
const resetSchema = auditedSchema(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    expiresOn: { type: Date, required: true },
    usedOn: { type: Date, default: null },
    purpose: { type: String, default: 'reset' },
  },
  { collection: 'password_reset_tokens' },
);
// finding a user's open links to retire them
resetSchema.index({ userId: 1 });

export interface AssociationDoc {
  _id: string;
  ownerId: string;
  type: 'ACCOUNT' | 'PHYSICIAN';
  account?: { id: string; name: string } | null;
  physician?: { id: string; name: string } | null;
  createdBy?: string | null;
  deleted: boolean;
}
const associationSchema = auditedSchema(
  {
    ownerId: { type: String, required: true },
    type: { type: String, enum: ['ACCOUNT', 'PHYSICIAN'], required: true },
    account: { type: { id: String, name: String, _id: false }, default: null },
    physician: { type: { id: String, name: String, _id: false }, default: null },
  },
  { collection: 'user_associations' },
);
// the session's data scope and the associations list: by owner
associationSchema.index({ ownerId: 1 });

export interface IdentityModels {
  User: Model<UserDoc>;
  ResetToken: Model<ResetTokenDoc>;
  Association: Model<AssociationDoc>;
}

/** One model per connection; the cast keeps mongoose's conditional types away from the type checker. */
function modelOn<T>(conn: Connection, name: string, schema: Schema): Model<T> {
  return (conn.models[name] as Model<T> | undefined) ?? (conn.model(name, schema) as unknown as Model<T>);
}

export function identityModels(conn: Connection): IdentityModels {
  return {
    User: modelOn<UserDoc>(conn, 'User', userSchema),
    ResetToken: modelOn<ResetTokenDoc>(conn, 'ResetToken', resetSchema),
    Association: modelOn<AssociationDoc>(conn, 'Association', associationSchema),
  };
}
