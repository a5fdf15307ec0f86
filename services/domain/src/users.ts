import type { AuthenticationProvider, UserStatus } from './enums';

/** User actions (spec 3 sections 2.7 and 4.1) and the states each is allowed in. */
export const USER_ACTIONS = [
  'activate',
  'deactivate',
  'unlock',
  'resetpassword',
  'reactivate',
  'sendTemporaryPassword',
] as const;
export type UserAction = (typeof USER_ACTIONS)[number];

export interface UserActionSubject {
  status: UserStatus;
  authenticationProvider: AuthenticationProvider;
}

/**
 * - Activate: INACTIVE or PROVISIONED (directory users).
 * - Deactivate: any status but INACTIVE (directory users).
 * - Unlock: identity-provider (OKTA) users with LOCKED_OUT.
 * - Reset password and Reactivate: identity-provider (OKTA) users; reactivate only when not ACTIVE (ours).
 * - Send temporary password: not shown in the spec; ours: any user who is not INACTIVE or SUSPENDED.
 */
export function userActionAllowed(action: UserAction, u: UserActionSubject): boolean {
  const okta = u.authenticationProvider === 'OKTA';
  switch (action) {
    case 'activate':
      return u.status === 'INACTIVE' || u.status === 'PROVISIONED';
    case 'deactivate':
      return u.status !== 'INACTIVE';
    case 'unlock':
      return okta && u.status === 'LOCKED_OUT';
    case 'resetpassword':
      return okta && u.status !== 'INACTIVE' && u.status !== 'SUSPENDED';
    case 'reactivate':
      return okta && u.status !== 'ACTIVE';
    case 'sendTemporaryPassword':
      return u.status !== 'INACTIVE' && u.status !== 'SUSPENDED';
  }
}

/**
 * Status after a successful action. resetpassword and reactivate e-mail a single-use link; the user becomes
 * ACTIVE when they set a password through it. A temporary password must be changed at the next sign-in.
 */
export function statusAfter(action: UserAction): UserStatus {
  switch (action) {
    case 'activate':
      return 'ACTIVE';
    case 'deactivate':
      return 'INACTIVE';
    case 'unlock':
      return 'ACTIVE';
    case 'resetpassword':
      return 'RECOVERY';
    case 'reactivate':
      return 'PROVISIONED';
    case 'sendTemporaryPassword':
      return 'PASSWORD_EXPIRED';
  }
}
