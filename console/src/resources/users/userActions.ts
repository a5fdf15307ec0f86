import { USER_ACTIONS, userActionAllowed, type UserAction, type UserActionSubject } from '@onco/domain';

/** The Users screen's actions in menu order (spec 3 section 2.7); Change Role exists but is hidden. */
export const MENU_ACTIONS: readonly UserAction[] = USER_ACTIONS;

export interface ActionState {
  action: UserAction;
  enabled: boolean;
}

/**
 * Which actions the selected users allow: each needs exactly one selected user, and the status rules are the
 * domain's (userActionAllowed), the same function the server enforces.
 */
export function actionStates(selected: readonly UserActionSubject[]): ActionState[] {
  return MENU_ACTIONS.map((action) => ({
    action,
    enabled: selected.length === 1 && userActionAllowed(action, selected[0]),
  }));
}

/** View in Salesforce needs exactly one selected user with an sfdcId. */
export function salesforceUrl(
  selected: readonly { sfdcId?: string | null }[],
  base = SALESFORCE_BASE_URL,
): string | null {
  if (selected.length !== 1 || !selected[0].sfdcId) return null;
  return `${base.replace(/\/$/, '')}/${encodeURIComponent(selected[0].sfdcId)}`;
}

/** Where a Salesforce record id opens (Salesforce redirects /{id} to the record in the org's own domain). */
export const SALESFORCE_BASE_URL = 'https://login.salesforce.com';

/** The company named in the add-directory-user dialog's title. */
export const COMPANY_NAME = 'OncoTRF';
