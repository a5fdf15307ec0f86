import { usePermissions } from 'react-admin';
import { TEST_ORDER_FIELD_PERMISSIONS, type BoundField } from '@onco/domain';

/**
 * Whether the signed-in user sees a test's due date, duration or LIMS project (spec 2 section 6). The server
 * leaves the field out of what it sends to anyone else; the console shows no empty column or row for it.
 */
export function useSeesField(): (field: BoundField) => boolean {
  const { permissions = [] } = usePermissions<string[]>();
  return (field) => permissions.includes(TEST_ORDER_FIELD_PERMISSIONS[field]);
}
