import type { ResourceProps } from 'react-admin';
import { UsersPage } from './users';

/** The Users screen (/users, banner Users): the list page from resources/users. */
export const usersResource: ResourceProps = { name: 'users', list: UsersPage };
