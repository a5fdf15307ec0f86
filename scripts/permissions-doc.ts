import {
  CLINICAL_FIELDS,
  CHANGE_OF_BOUND_FIELD,
  CREATABLE_ROLES,
  PERMISSIONS,
  ROLES,
  ROLE_LABELS,
  ROLE_PERMISSIONS,
  TEST_ORDER_FIELD_PERMISSIONS,
} from '@onco/domain';

/** Render docs/permissions.md from the one matrix in services/domain/src/permissions.ts. */
export function renderPermissionsDoc(): string {
  const short = (r: string) => r.replace('ROLE_', '');
  const lines: string[] = [];
  lines.push('# Roles and permissions');
  lines.push('');
  lines.push(
    'Generated from `services/domain/src/permissions.ts` by `npm run docs:permissions`; a unit test fails when this',
  );
  lines.push(
    'file and the matrix disagree. The server enforces every cell: each route declares the permission it needs',
  );
  lines.push('and the guard answers 403 without it. The console only hides what the server would refuse.');
  lines.push('');
  lines.push('Permissions marked (ours) are not named in the spec; they make server-side rules explicit.');
  lines.push('');
  lines.push('## Data scope');
  lines.push('');
  lines.push(
    "- Every list and read is narrowed by the server to the user's associated accounts and physicians:",
  );
  lines.push(
    "  the user's own account, `ACCOUNT` associations, `PHYSICIAN` associations and `authorizedUsers`;",
  );
  lines.push(
    '  provider roles (NPI, PHYSICIAN, ADDITIONAL_PHYSICIAN, PATHOLOGIST) also see their own physician record.',
  );
  lines.push('- `VIEW_ALL_ACCOUNTS` (lab, billing and operations staff) lifts the account narrowing.');
  lines.push('- A record outside the scope is a 404, never a 403, so its existence is not disclosed.');
  lines.push('');
  lines.push('## Fields a permission shows');
  lines.push('');
  lines.push(
    'The server leaves each field out of every reply to a user without its permission (`fieldView`, services/domain):',
  );
  lines.push(
    "the tests list (the field cannot be filtered or sorted by: 403; `q` does not search it), a test's detail and",
  );
  lines.push(
    "history, the order's test summaries and LIMS project ids, the orders CSV, the samples tab and the timeline.",
  );
  lines.push(
    "A patient's LIMS projects (`POST getLimsInfo`) need VIEW_LIMS_INFORMATION. Kafka events keep every field: they",
  );
  lines.push('go to downstream systems, not to users.');
  lines.push('');
  const change = (f: string) =>
    Object.entries(CHANGE_OF_BOUND_FIELD)
      .filter(([, v]) => v === f)
      .map(([k]) => `'${k}'`);
  for (const [field, p] of Object.entries(TEST_ORDER_FIELD_PERMISSIONS)) {
    const entries = change(field);
    lines.push(
      `- \`${field}\`: ${p}${entries.length ? ` (its ${entries.join(', ')} history and timeline entries too)` : ''}`,
    );
  }
  lines.push('');
  lines.push('## Clinical fields a permission lets a user set');
  lines.push('');
  lines.push(
    'A save (draft, submit or Edit) that would set, change or clear one of these without its permission is refused',
  );
  lines.push(
    '(403 naming the field and the permission, nothing saved); repeating the stored value is not a change',
  );
  lines.push(
    '(`refusedClinicalFields`, services/domain). The wizard and the Edit panel disable the same inputs.',
  );
  lines.push('');
  for (const f of CLINICAL_FIELDS)
    lines.push(`- \`${f.path}\`: ${f.permission}${f.needs ? ` (${f.label})` : ''}`);
  lines.push('');
  lines.push('## Who may add whom');
  lines.push('');
  for (const [creator, roles] of Object.entries(CREATABLE_ROLES)) {
    lines.push(
      `- ${short(creator)}: ${roles!.length === ROLES.length ? 'every role' : roles!.map(short).join(', ')}`,
    );
  }
  lines.push('');
  lines.push('## Matrix');
  lines.push('');
  lines.push(`| permission | ${ROLES.map(short).join(' | ')} |`);
  lines.push(`|---|${ROLES.map(() => ':-:').join('|')}|`);
  for (const p of PERMISSIONS) {
    lines.push(`| ${p} | ${ROLES.map((r) => (ROLE_PERMISSIONS[r].includes(p) ? 'x' : '')).join(' | ')} |`);
  }
  lines.push('');
  lines.push('## Role labels');
  lines.push('');
  for (const r of ROLES) lines.push(`- ${r}: ${ROLE_LABELS[r]}`);
  lines.push('');
  return lines.join('\n');
}
