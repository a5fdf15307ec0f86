import { describe, expect, it } from 'vitest';
import { actionStates, salesforceUrl } from './userActions';

const enabled = (u: Parameters<typeof actionStates>[0]) =>
  actionStates(u)
    .filter((s) => s.enabled)
    .map((s) => s.action);

describe('user actions on the Users screen', () => {
  it('follow the status rules of the domain', () => {
    expect(enabled([{ status: 'ACTIVE', authenticationProvider: 'OKTA' }])).toEqual([
      'deactivate',
      'resetpassword',
      'sendTemporaryPassword',
    ]);
    expect(enabled([{ status: 'LOCKED_OUT', authenticationProvider: 'OKTA' }])).toEqual([
      'deactivate',
      'unlock',
      'resetpassword',
      'reactivate',
      'sendTemporaryPassword',
    ]);
    expect(enabled([{ status: 'INACTIVE', authenticationProvider: 'ACTIVE_DIRECTORY' }])).toEqual([
      'activate',
    ]);
    expect(enabled([{ status: 'PROVISIONED', authenticationProvider: 'ACTIVE_DIRECTORY' }])).toEqual([
      'activate',
      'deactivate',
      'sendTemporaryPassword',
    ]);
  });

  it('need exactly one selected user', () => {
    expect(enabled([])).toEqual([]);
    const u = { status: 'ACTIVE', authenticationProvider: 'OKTA' } as const;
    expect(enabled([u, u])).toEqual([]);
  });

  it('View in Salesforce needs an sfdcId', () => {
    expect(salesforceUrl([{ sfdcId: null }])).toBeNull();
    expect(salesforceUrl([])).toBeNull();
    expect(salesforceUrl([{ sfdcId: '005xx000001Sv6A' }])).toBe(
      'https://login.salesforce.com/005xx000001Sv6A',
    );
  });
});
