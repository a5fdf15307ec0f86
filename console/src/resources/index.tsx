import type { ResourceProps } from 'react-admin';
import { Placeholder } from '../pages/Placeholder';

/** The Users screen (/users): its list page comes from resources/users when that folder exports UsersPage. */
const UsersPlaceholder = () => <Placeholder menu="users" />;
export const usersResource: ResourceProps = { name: 'users', list: UsersPlaceholder };
