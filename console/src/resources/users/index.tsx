/** The Users screen (/users). The app wires it as the users resource's list. */
import { UsersPage } from './UsersPage';

export { UsersPage };
export { userMethods, type Clinician, type UserMethods, type UserRow } from './api';
export default UsersPage;
