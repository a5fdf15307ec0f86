import { z } from 'zod';
import { dateOut } from '@onco/platform';

const idName = z.object({ id: z.string(), name: z.string().nullable().optional() });
/** The reply shape of a user (publicUser of ../../use-cases): never the password fields. */
export const userReply = z.object({
  id: z.string(),
  loginId: z.string(),
  secondaryLoginId: z.string().nullable(),
  name: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  status: z.string(),
  authenticationProvider: z.string(),
  sfdcId: z.string().nullable(),
  role: z.object({ name: z.string(), label: z.string() }),
  location: idName.nullable(),
  account: idName.nullable(),
  title: z.string().nullable(),
  physicianId: z.string().nullable(),
  authorizedUsers: z.array(z.string()),
  lastLogin: dateOut.nullable(),
  createdOn: dateOut,
  updatedOn: dateOut,
  version: z.number(),
  message: z.string().optional(),
});
