import { describe, expect, it } from 'vitest';
import { PAGES, PERMISSIONS, ROLES, ROLE_PERMISSIONS, creatableRoles } from './permissions';
import { userActionAllowed } from './users';
import { checkPassword, isStrongPassword } from './password';

describe('the permission matrix', () => {
  it('covers every role and only known permissions', () => {
    for (const role of ROLES) {
      expect(ROLE_PERMISSIONS[role], role).toBeDefined();
      for (const p of ROLE_PERMISSIONS[role]) expect(PERMISSIONS).toContain(p);
    }
  });
  it('grants every permission to some role (no dead permission)', () => {
    const granted = new Set(ROLES.flatMap((r) => ROLE_PERMISSIONS[r]));
    for (const p of PERMISSIONS) expect(granted.has(p), p).toBe(true);
  });
  it('has a page permission for every page and keeps the observer from ordering', () => {
    for (const p of PAGES) expect(PERMISSIONS).toContain(`VIEW_${p}_PAGE`);
    expect(ROLE_PERMISSIONS.ROLE_OBSERVER).not.toContain('CAN_CREATE_TRF');
    expect(ROLE_PERMISSIONS.ROLE_NPI).toContain('CAN_CREATE_TRF');
    expect(ROLE_PERMISSIONS.ROLE_NPI).not.toContain('VIEW_USERS_PAGE');
  });
  it('lets a portal admin add any role and a hospital admin only patients', () => {
    expect(creatableRoles('ROLE_PORTAL_ADMIN')).toEqual([...ROLES]);
    expect(creatableRoles('ROLE_HOSPITAL_ADMIN')).toEqual(['ROLE_PATIENT']);
    expect(creatableRoles('ROLE_NPI')).toEqual([]);
  });
});

describe('user actions by state (spec 3 section 4.1)', () => {
  const okta = (status: any) => ({ status, authenticationProvider: 'OKTA' as const });
  const ad = (status: any) => ({ status, authenticationProvider: 'ACTIVE_DIRECTORY' as const });
  it('activate only INACTIVE or PROVISIONED; deactivate anything but INACTIVE', () => {
    expect(userActionAllowed('activate', ad('INACTIVE'))).toBe(true);
    expect(userActionAllowed('activate', ad('PROVISIONED'))).toBe(true);
    expect(userActionAllowed('activate', ad('ACTIVE'))).toBe(false);
    expect(userActionAllowed('deactivate', ad('ACTIVE'))).toBe(true);
    expect(userActionAllowed('deactivate', ad('INACTIVE'))).toBe(false);
  });
  it('unlock only OKTA users who are LOCKED_OUT', () => {
    expect(userActionAllowed('unlock', okta('LOCKED_OUT'))).toBe(true);
    expect(userActionAllowed('unlock', okta('ACTIVE'))).toBe(false);
    expect(userActionAllowed('unlock', ad('LOCKED_OUT'))).toBe(false);
  });
  it('reset password and reactivate only for identity-provider users', () => {
    expect(userActionAllowed('resetpassword', okta('ACTIVE'))).toBe(true);
    expect(userActionAllowed('resetpassword', ad('ACTIVE'))).toBe(false);
    expect(userActionAllowed('reactivate', okta('INACTIVE'))).toBe(true);
    expect(userActionAllowed('reactivate', ad('INACTIVE'))).toBe(false);
  });
});

describe('password rules', () => {
  it('needs 8+ characters, a digit, an upper-case and a lower-case letter', () => {
    expect(isStrongPassword('Abcdefg1')).toBe(true);
    expect(isStrongPassword('Abcdef1')).toBe(false);
    expect(isStrongPassword('abcdefg1')).toBe(false);
    expect(isStrongPassword('ABCDEFG1')).toBe(false);
    expect(isStrongPassword('Abcdefgh')).toBe(false);
    expect(isStrongPassword('Abc defg1')).toBe(false);
    expect(
      checkPassword('a')
        .filter((c) => !c.ok)
        .map((c) => c.key),
    ).toEqual(['length', 'digit', 'upper']);
  });
});
