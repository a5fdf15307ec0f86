import { writeFileSync } from 'node:fs';
import { renderPermissionsDoc } from './permissions-doc';

writeFileSync('docs/permissions.md', renderPermissionsDoc());
console.log('wrote docs/permissions.md');
